/**
 * Debian shellinabox, K = 100, in the foreground on a Unix socket (it binds
 * only 0.0.0.0 or 127.0.0.1), put on its address by a front server. Weak: a
 * /bin/sh service as nobody (`-s /:nobody:nogroup:/:/bin/sh`: a shell for
 * whoever opens the page) on plain HTTP (-t) behind nginx, and on its own
 * self-signed TLS relayed by socat (bytes only). Twin: the LOGIN service
 * (the default as root: /bin/login's prompt) behind the same nginx. nginx
 * sends the security headers every bench site sends (shellinaboxd cannot:
 * its page would be a security-headers NOTE on the twin), as shellinabox's
 * docs suggest running it behind a web server. nmap names the product
 * (ShellInABox httpd) on all three and cannot tell a shell from a login
 * prompt.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { LOGIN_SERVICE, relayArgs, SHELL_SERVICE, shellinaboxArgs } from '../../../test/helpers/app-servers.ts';
import { addr, none, sleep, type Ctx, type Daemon, type Weakness } from './kit.ts';
import { HEADERS, LIMITS, startNginx } from './nginx-proc.ts';

const K = 100;
const A = (n: number) => addr(K, n);
const PORT = 4200;

const weak = (n: number, tls: boolean): Weakness => ({
  id: `shellinabox-shell${tls ? '-tls' : ''}`,
  family: 'auth',
  label: `Shell In A Box serving /bin/sh without login${tls ? ' (TLS)' : ''}`,
  daemon: 'shellinabox',
  address: A(n),
  port: PORT,
  proto: 'tcp',
  vigil: { id: /^vigil\.web\.terminal-open$/ },
  nmap: none,
});

export const SHELLINABOX: Daemon = {
  kind: 'shellinabox',
  binaries: ['shellinaboxd', 'socat', 'nginx'],
  ports: { tcp: [PORT], udp: [] },
  weaknesses: [weak(1, false), weak(2, true)],
  twins: [{ address: A(100), note: 'the LOGIN service (a login prompt)' }],
  async start(ctx) {
    const behindNginx: string[] = [];
    for (const [n, service, tls] of [
      [1, SHELL_SERVICE, false],
      [2, SHELL_SERVICE, true],
      [100, LOGIN_SERVICE, false],
    ] as const) {
      const sock = await shellinaboxd(ctx, n, service, tls);
      if (!tls) {
        behindNginx.push(
          `server { listen ${A(n)}:${PORT}; ${HEADERS} ${LIMITS} location / { proxy_pass http://unix:${sock}:; proxy_buffering off; proxy_read_timeout 60s; } }`,
        );
        continue;
      }
      const relay = ctx.spawn(`socat-${A(n)}`, 'socat', relayArgs(A(n), PORT, sock));
      await ctx.waitTcp(A(n), PORT, relay);
    }
    await startNginx(ctx, ctx.dir('nginx'), behindNginx, [
      [A(1), PORT],
      [A(100), PORT],
    ]);
  },
};

async function shellinaboxd(ctx: Ctx, n: number, service: string, tls: boolean): Promise<string> {
  const dir = ctx.dir(`shellinabox-${n}`);
  const sock = join(dir, 'sib.sock');
  const sib = ctx.spawn(`shellinaboxd-${A(n)}`, 'shellinaboxd', shellinaboxArgs(dir, sock, service, tls));
  for (let i = 0; i < 150 && !existsSync(sock); i++) {
    if (sib.exitCode !== null) throw new Error(`shellinaboxd exited (${sib.exitCode})`);
    await sleep(100);
  }
  return sock;
}
