/**
 * Debian uWSGI (uwsgi + uwsgi-plugin-python3), K = 102, in the foreground.
 * Weak: the uwsgi-protocol socket on TCP (`--socket 127.14.102.1:3031`:
 * anyone sets uWSGI's request variables, which load code) and the stats
 * server on TCP (`--stats 127.14.102.1:9191`). Twin: HTTP only
 * (`--http-socket`, on the same port) and the stats on a Unix socket.
 */
import { join } from 'node:path';
import { uwsgiArgs } from '../../../test/helpers/app-servers.ts';
import { addr, none, type Daemon } from './kit.ts';

const K = 102;
const A = (n: number) => addr(K, n);
const PORT = 3031;
const STATS = 9191;

export const UWSGI: Daemon = {
  kind: 'uwsgi',
  binaries: ['uwsgi', '/usr/lib/uwsgi/plugins/python3_plugin.so'],
  ports: { tcp: [PORT, STATS], udp: [] },
  weaknesses: [
    {
      id: 'uwsgi-socket-open',
      family: 'auth',
      label: 'uWSGI uwsgi-protocol socket on TCP',
      daemon: 'uwsgi',
      address: A(1),
      port: PORT,
      proto: 'tcp',
      vigil: { id: /^vigil\.uwsgi\.open$/ },
      nmap: none,
    },
    {
      id: 'uwsgi-stats-open',
      family: 'web',
      label: 'uWSGI stats server on TCP',
      daemon: 'uwsgi',
      address: A(1),
      port: STATS,
      proto: 'tcp',
      vigil: { id: /^vigil\.uwsgi\.stats-open$/ },
      nmap: none,
    },
  ],
  twins: [{ address: A(100), note: '--http-socket only; stats on a Unix socket' }],
  async start(ctx) {
    for (const [n, open] of [
      [1, true],
      [100, false],
    ] as const) {
      const dir = ctx.dir(`uwsgi-${n}`);
      const args = open
        ? uwsgiArgs(dir, { socket: `${A(n)}:${PORT}`, stats: `${A(n)}:${STATS}` })
        : uwsgiArgs(dir, { http: `${A(n)}:${PORT}`, stats: join(dir, 'stats.sock') });
      const child = ctx.spawn(`uwsgi-${A(n)}`, 'uwsgi', args);
      await ctx.waitTcp(A(n), PORT, child, 30_000);
      if (open) await ctx.waitTcp(A(n), STATS, child);
    }
  },
};
