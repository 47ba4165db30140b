/**
 * Music players: Debian's mpd with a `null` audio output and an empty
 * music directory (test/helpers/sharing-daemons.ts), on 127.14.93.11 and
 * .111 (K 93 is shared with saned, which takes N 1 and 100). A(11): no
 * password; the twin A(111): a password and no default permissions.
 */
import { join } from 'node:path';
import { MPD_PORT, mpdConf } from '../../../test/helpers/sharing-daemons.ts';
import { addr, none, svc, type Daemon } from './kit.ts';

const K = 93;
const A = (n: number) => addr(K, n);

export const MPD: Daemon = {
  kind: 'mpd',
  binaries: ['mpd'],
  ports: { tcp: [MPD_PORT], udp: [] },
  weaknesses: [
    {
      id: 'mpd-open',
      family: 'auth',
      label: 'mpd controllable by anyone (no password)',
      daemon: 'mpd',
      address: A(11),
      port: MPD_PORT,
      proto: 'tcp',
      vigil: { id: /^vigil\.mpd\.open$/ },
      // No NSE script speaks MPD; -sV names it (below), which is not the weakness.
      nmap: none,
    },
    {
      id: 'ident-mpd',
      family: 'ident',
      label: 'mpd named by its greeting',
      daemon: 'mpd',
      address: A(11),
      port: MPD_PORT,
      proto: 'tcp',
      vigil: { service: /^mpd$/ },
      nmap: svc(/mpd|Music Player/i),
    },
  ],
  twins: [{ address: A(111), note: 'password set, no default permissions' }],
  async start(ctx) {
    for (const [n, password] of [
      [11, undefined],
      [111, 'bench-mpd-secret-73'],
    ] as const) {
      const dir = ctx.dir(A(n));
      const conf = ctx.write(join(dir, 'mpd.conf'), mpdConf(dir, A(n), MPD_PORT, password));
      const child = ctx.spawn(`mpd-${A(n)}`, 'mpd', ['--no-daemon', '--stderr', conf]);
      await ctx.waitTcp(A(n), MPD_PORT, child);
    }
  },
};
