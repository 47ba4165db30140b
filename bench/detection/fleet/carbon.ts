/**
 * Graphite carbon-cache (Debian graphite-carbon), K = 69, in the foreground.
 * Weak: its plaintext (2003) and pickle (2004) receivers and its cache query
 * port (7002) on the scanned address (Debian's carbon.conf binds them to
 * 0.0.0.0). Carbon has no authentication, so the twin is the same daemon
 * bound to 127.0.0.1 only while the bench scans 127.14.69.101.
 */
import { carbonArgs, carbonConf } from '../../../test/helpers/ops-daemons.ts';
import { addr, none, type Daemon, type Weakness } from './kit.ts';

const K = 69;
const A = (n: number) => addr(K, n);

const weak = (id: string, port: number, label: string, vigil: RegExp): Weakness => ({
  id,
  family: 'auth',
  label,
  daemon: 'carbon-cache',
  address: A(1),
  port,
  proto: 'tcp',
  vigil: { id: vigil },
  // nmap -sV leaves all three ports unrecognised ("finger?", "mailbox?", "afs3-prserver?"); no script speaks carbon.
  nmap: none,
});

export const CARBON: Daemon = {
  kind: 'carbon',
  binaries: ['carbon-cache'],
  ports: { tcp: [2003, 2004, 7002], udp: [] },
  weaknesses: [
    weak('carbon-line-write', 2003, 'carbon plaintext receiver stores metrics from anyone', /^vigil\.carbon\.write$/),
    weak(
      'carbon-pickle-open',
      2004,
      'carbon pickle receiver (unpickles network input) open to anyone',
      /^vigil\.carbon\.(open|write)$/,
    ),
    weak('carbon-query-open', 7002, 'carbon cache query port readable by anyone', /^vigil\.carbon\.open$/),
  ],
  twins: [{ address: A(101), note: 'bound to 127.0.0.1 only (nothing on the scanned address)' }],
  async start(ctx) {
    for (const bind of [A(1), '127.0.0.1']) {
      const conf = carbonConf(ctx.dir(`carbon-${bind}`), bind, { line: 2003, pickle: 2004, query: 7002 });
      const child = ctx.spawn(`carbon-${bind}`, 'carbon-cache', carbonArgs(conf));
      await ctx.waitTcp(bind, 7002, child);
      await ctx.waitTcp(bind, 2003, child);
    }
  },
};
