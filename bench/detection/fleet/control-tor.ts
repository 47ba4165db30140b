/**
 * Debian tor, K = 80, with its network off (DisableNetwork 1, no SOCKS
 * port: nothing leaves loopback) and only its ControlPort open on 9051.
 * Weak: no authentication (PROTOCOLINFO lists AUTH METHODS=NULL). Twins:
 * HashedControlPassword, and CookieAuthentication (both answer the empty
 * secret with 515).
 */
import { torArgs, torHash, torrc } from '../../../test/helpers/control-daemons.ts';
import { addr, which, type Daemon } from './kit.ts';

const K = 80;
const A = (n: number) => addr(K, n);

export const TOR: Daemon = {
  kind: 'tor',
  binaries: ['tor'],
  ports: { tcp: [9051], udp: [] },
  weaknesses: [
    {
      id: 'tor-control-noauth',
      family: 'auth',
      label: 'Tor ControlPort without authentication (AUTH METHODS=NULL)',
      daemon: 'tor',
      address: A(1),
      port: 9051,
      proto: 'tcp',
      vigil: { id: /^vigil\.tor\.control-open$/ },
      nmap: () => null,
    },
  ],
  twins: [
    { address: A(101), note: 'HashedControlPassword' },
    { address: A(102), note: 'CookieAuthentication 1' },
  ],
  async start(ctx) {
    const hash = torHash(which('tor')!);
    for (const [n, auth] of [
      [1, 'none'],
      [101, { hash }],
      [102, 'cookie'],
    ] as const) {
      const dir = ctx.dir(`tor-${n}`);
      torrc(dir, A(n), 9051, auth);
      const child = ctx.spawn(`tor-${A(n)}`, 'tor', torArgs(dir));
      await ctx.waitTcp(A(n), 9051, child, 30_000);
    }
  },
};
