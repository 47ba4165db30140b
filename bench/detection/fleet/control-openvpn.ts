/**
 * Debian openvpn, K = 81: a peer-to-peer instance on the null device
 * (--dev null: no tun, no route; no remote, so nothing is sent) with its
 * management interface on TCP 7505. Weak: no password file. Twin: a
 * password file (the interface asks "ENTER PASSWORD:" first).
 */
import { openvpnArgs } from '../../../test/helpers/control-daemons.ts';
import { addr, script, type Daemon } from './kit.ts';

const K = 81;
const A = (n: number) => addr(K, n);

export const OPENVPN: Daemon = {
  kind: 'openvpn',
  binaries: ['openvpn'],
  ports: { tcp: [7505], udp: [] },
  weaknesses: [
    {
      id: 'openvpn-management-nopass',
      family: 'auth',
      label: 'OpenVPN management interface on TCP without a password file',
      daemon: 'openvpn',
      address: A(1),
      port: 7505,
      proto: 'tcp',
      vigil: { id: /^vigil\.openvpn\.management-open$/ },
      // nmap's banner script prints the greeting that only comes before any password prompt.
      nmap: script('banner', /^>INFO:OpenVPN Management Interface/),
    },
  ],
  twins: [{ address: A(101), note: 'management password file ("ENTER PASSWORD:")' }],
  async start(ctx) {
    for (const [n, password] of [
      [1, false],
      [101, true],
    ] as const) {
      const args = openvpnArgs(ctx.dir(`openvpn-${n}`), A(n), 7505, 1194, password);
      const child = ctx.spawn(`openvpn-${A(n)}`, 'openvpn', args);
      await ctx.waitTcp(A(n), 7505, child);
    }
  },
};
