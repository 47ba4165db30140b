/**
 * Job queues without authentication (beanstalkd, Debian gearman-job-server),
 * K = 68. Neither product has any authentication, so the weakness is where
 * it listens. Weak: bound to the scanned address 127.14.68.N. Twin: the
 * same daemon bound to 127.0.0.1 only, while the bench scans 127.14.68.10N,
 * where nothing listens (what "hardened" means for these products).
 */
import { join } from 'node:path';
import { addr, none, type Daemon } from './kit.ts';

const K = 68;
const A = (n: number) => addr(K, n);

export const BEANSTALKD: Daemon = {
  kind: 'beanstalkd',
  binaries: ['beanstalkd'],
  ports: { tcp: [11300], udp: [] },
  weaknesses: [
    {
      id: 'beanstalkd-open',
      family: 'auth',
      label: 'beanstalkd work queue reachable from the network (no authentication exists)',
      daemon: 'beanstalkd',
      address: A(1),
      port: 11300,
      proto: 'tcp',
      vigil: { id: /^vigil\.beanstalkd\.(open|write)$/ },
      // nmap names no beanstalkd (-sV: "unknown"); for Gearman -sV names the service, and no script talks to either.
      nmap: none,
    },
  ],
  twins: [{ address: A(101), note: 'bound to 127.0.0.1 only (nothing on the scanned address)' }],
  async start(ctx) {
    for (const bind of [A(1), '127.0.0.1']) {
      const child = ctx.spawn(`beanstalkd-${bind}`, 'beanstalkd', ['-l', bind, '-p', '11300']);
      await ctx.waitTcp(bind, 11300, child);
    }
  },
};

export const GEARMAN: Daemon = {
  kind: 'gearman',
  binaries: ['gearmand'],
  ports: { tcp: [4730], udp: [] },
  weaknesses: [
    {
      id: 'gearman-open',
      family: 'auth',
      label: 'Gearman job server reachable from the network (no authentication exists)',
      daemon: 'gearmand',
      address: A(2),
      port: 4730,
      proto: 'tcp',
      vigil: { id: /^vigil\.gearman\.open$/ },
      nmap: none,
    },
  ],
  twins: [{ address: A(102), note: 'bound to 127.0.0.1 only (nothing on the scanned address)' }],
  async start(ctx) {
    for (const bind of [A(2), '127.0.0.1']) {
      const dir = ctx.dir(`gearmand-${bind}`);
      const child = ctx.spawn(`gearmand-${bind}`, 'gearmand', [
        `--listen=${bind}`,
        '--port=4730',
        `--log-file=${join(dir, 'log')}`,
        `--pid-file=${join(dir, 'pid')}`,
        '--threads=1',
      ]);
      await ctx.waitTcp(bind, 4730, child);
    }
  },
};
