/**
 * Debian unbound's remote control, on K = 83 beside chrony (E1's fleet
 * has four K values for five kinds): N = 2 and 102. Weak: control-use-cert
 * no on a network address (plaintext, no authentication). Twin: the
 * default, TLS with client certificates. The resolver listens on a port
 * nothing scans (20053) and refuses everyone.
 */
import { unboundConf } from '../../../test/helpers/control-daemons.ts';
import { addr, type Daemon } from './kit.ts';

const K = 83;
const A = (n: number) => addr(K, n);

export const UNBOUND: Daemon = {
  kind: 'unbound',
  binaries: ['unbound', 'unbound-control-setup'],
  ports: { tcp: [8953], udp: [] },
  weaknesses: [
    {
      id: 'unbound-control-nocert',
      family: 'auth',
      label: 'Unbound remote control in plaintext (control-use-cert: no)',
      daemon: 'unbound',
      address: A(2),
      port: 8953,
      proto: 'tcp',
      vigil: { id: /^vigil\.unbound\.control-open$/ },
      nmap: () => null,
    },
  ],
  twins: [{ address: A(102), note: 'control-use-cert: yes (TLS with client certificates)' }],
  async start(ctx) {
    for (const [n, cert] of [
      [2, false],
      [102, true],
    ] as const) {
      const conf = unboundConf(ctx.dir(`unbound-${n}`), A(n), 8953, 20053, cert);
      const child = ctx.spawn(`unbound-${A(n)}`, 'unbound', ['-d', '-c', conf]);
      await ctx.waitTcp(A(n), 8953, child);
    }
  },
};
