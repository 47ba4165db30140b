/**
 * Network scanners: Debian's saned (sane-utils) with sane-backends' `test`
 * device, each in a namespace of its own relayed from its 127.14.93.N
 * address (saned admits every 127/8 client whatever saned.conf says;
 * test/helpers/sharing-daemons.ts). A(1): saned.conf `+`, any host; the
 * twin A(100): only 192.0.2.99 (SANE_NET_INIT answered ACCESS_DENIED).
 */
import { SANE_PORT, SANED_BINARIES, sanedPlan } from '../../../test/helpers/sharing-daemons.ts';
import { addr, none, svc, type Daemon } from './kit.ts';
import { startNs } from './ns.ts';

const K = 93;
const A = (n: number) => addr(K, n);

export const SANED: Daemon = {
  kind: 'saned',
  binaries: SANED_BINARIES,
  ports: { tcp: [SANE_PORT], udp: [] },
  weaknesses: [
    {
      id: 'sane-open',
      family: 'auth',
      label: 'saned lets any host use its scanners (saned.conf +)',
      daemon: 'saned',
      address: A(1),
      port: SANE_PORT,
      proto: 'tcp',
      vigil: { id: /^vigil\.sane\.open$/ },
      // No NSE script speaks SANE.
      nmap: none,
    },
    {
      id: 'ident-sane',
      family: 'ident',
      label: 'saned named sane-port',
      daemon: 'saned',
      address: A(1),
      port: SANE_PORT,
      proto: 'tcp',
      vigil: { service: /^sane-port$/ },
      nmap: svc(/sane/),
    },
  ],
  twins: [{ address: A(100), note: 'saned.conf admits only 192.0.2.99 (INIT answered ACCESS_DENIED)' }],
  async start(ctx) {
    for (const [n, open] of [
      [1, true],
      [100, false],
    ] as const) {
      const dir = ctx.dir(`ns-${n}`);
      await startNs(ctx, `saned-${n}`, dir, sanedPlan(dir, open), A(n), () => [
        { proto: 'tcp', port: SANE_PORT, socket: 'tcp-6566' },
      ]);
    }
  },
};
