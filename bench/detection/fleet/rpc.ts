/**
 * RPC services: Debian rpcbind (foreground) with rpc.rusersd registered.
 * rpcbind binds TCP 0.0.0.0:111 and [::]:111 whatever -h says (seen with
 * rpcbind 1.2.6), and one instance owns /run/rpcbind.sock, so each
 * address's pair runs in a network, mount and PID namespace of its own,
 * relayed from 127.14.27.11 and .111 by socat over Unix sockets (fleet/ns.ts): every
 * packet stays on a loopback. Weak: anyone may DUMP the registrations and
 * ask rusersd who is logged in (one planted login, alice). Twin: TCP wrappers ("rpcbind: ALL" in
 * hosts.deny), so DUMP and GETPORT are answered MSG_DENIED.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { rpcPlan } from '../../../test/helpers/legacy-daemons.ts';
import { addr, script, type Daemon } from './kit.ts';
import { startNs } from './ns.ts';

// K = 27 is shared with HAProxy (monitoring.ts: 127.14.27.1 and .100), so this kind takes N = 11 and 111.
const K = 27;
const A = (n: number) => addr(K, n);
const WEAK = 11;
const TWIN = 111;
const PORTMAPPER = [
  { proto: 'tcp' as const, port: 111, socket: 'tcp-111' },
  { proto: 'udp' as const, port: 111, socket: 'udp-111' },
];

export const RPC: Daemon = {
  kind: 'rpc',
  binaries: ['rpcbind', 'rpc.rusersd', 'rpcinfo', 'socat', 'unshare'],
  ports: { tcp: [111], udp: [111] },
  weaknesses: [
    {
      id: 'rpcbind-dump',
      family: 'ident',
      label: 'rpcbind lists every RPC service to anyone (PMAPPROC_DUMP)',
      daemon: 'rpcbind',
      address: A(WEAK),
      port: 111,
      proto: 'tcp',
      vigil: { id: /^vigil\.rpcbind\.dump$/ },
      nmap: script('rpcinfo', /100000/),
    },
    {
      // Reported on the portmapper's port, through which rusersd (on a random port) is found.
      id: 'rusers-users',
      family: 'ident',
      label: 'rusersd tells anyone who is logged in (RUSERSPROC_NAMES)',
      daemon: 'rusersd',
      address: A(WEAK),
      port: 111,
      proto: 'tcp',
      vigil: { id: /^vigil\.rusers\.users$/ },
      nmap: () => null,
    },
  ],
  twins: [{ address: A(TWIN), note: 'TCP wrappers: "rpcbind: ALL" in hosts.deny (DUMP and GETPORT denied)' }],
  async start(ctx) {
    for (const [n, restricted] of [
      [WEAK, false],
      [TWIN, true],
    ] as const) {
      const dir = ctx.dir(`ns-${n}`);
      await startNs(ctx, `rpc-${n}`, dir, rpcPlan(dir, restricted), A(n), (d) =>
        restricted
          ? PORTMAPPER
          : [
              ...PORTMAPPER,
              { proto: 'udp', port: Number(readFileSync(join(d, 'rusers-port'), 'utf8')), socket: 'udp-rusers' },
            ],
      );
    }
  },
};
