/**
 * NIS: Debian's ypserv with rpcbind in a namespace of its own (one rpcbind
 * owns /run/rpcbind.sock; test/helpers/nis-daemons.ts), relayed from
 * 127.14.72.N by socat. Weak: domain "corp" served to anyone, its passwd
 * map carrying a password hash (a master without shadow maps). Twin: the
 * same maps, /var/yp/securenets admitting only 192.0.2.0/24 and rpcbind
 * behind TCP wrappers (an open portmapper's DUMP is a finding of its own).
 */
import { NIS_BINARIES, nisPlan, YP_PORT } from '../../../test/helpers/nis-daemons.ts';
import { addr, type Daemon } from './kit.ts';
import { startNs } from './ns.ts';

const K = 72;
const DOMAIN = 'corp';
const RELAYS = [
  { proto: 'tcp' as const, port: 111, socket: 'tcp-111' },
  { proto: 'udp' as const, port: 111, socket: 'udp-111' },
  { proto: 'tcp' as const, port: YP_PORT, socket: 'tcp-yp' },
  { proto: 'udp' as const, port: YP_PORT, socket: 'udp-yp' },
];

export const NIS: Daemon = {
  kind: 'nis',
  binaries: NIS_BINARIES,
  ports: { tcp: [111, YP_PORT], udp: [111, YP_PORT] },
  weaknesses: [
    {
      id: 'nis-maps',
      family: 'ident',
      label: 'ypserv hands the passwd map (with a hash) to anyone naming the domain',
      daemon: 'ypserv',
      address: addr(K, 1),
      port: 111,
      proto: 'tcp',
      vigil: { id: /^vigil\.nis\.maps$/ },
      // nmap has no NIS map script; rpcinfo lists ypserv, which is not the weakness.
      nmap: () => null,
    },
  ],
  twins: [{ address: addr(K, 101), note: 'securenets admits only 192.0.2.0/24; rpcbind behind TCP wrappers' }],
  async start(ctx) {
    for (const [n, restricted] of [
      [1, false],
      [101, true],
    ] as const) {
      const dir = ctx.dir(`ns-${n}`);
      await startNs(ctx, `nis-${n}`, dir, nisPlan(dir, DOMAIN, restricted, restricted), addr(K, n), () => RELAYS);
    }
  },
};
