/**
 * One Debian nginx process (no master: killing it frees every port) and,
 * when asked, one php-fpm pool behind it. Shared by the plain-HTTP sites
 * (nginx.ts) and the TLS sites (tls.ts).
 */
import { chmodSync } from 'node:fs';
import { join } from 'node:path';
import { which, type Ctx } from './kit.ts';

/** Security headers every hardened site sends (and the weak ones too: each site carries only its own weakness). */
export const HEADERS = `add_header X-Frame-Options DENY always; add_header X-Content-Type-Options nosniff always; add_header Content-Security-Policy "default-src 'self'" always; add_header Referrer-Policy no-referrer always;`;

/** Limits every site has, so that only the site planted with it is slow-request or Range weak. */
export const LIMITS =
  'client_header_timeout 10s; client_body_timeout 10s; keepalive_timeout 15s; send_timeout 10s; max_ranges 1;';

export const INDEX =
  '<!doctype html><html><head><title>Bench shop</title></head><body><h1>Welcome</h1><p>Bench target.</p></body></html>\n';

export async function startPhpFpm(ctx: Ctx, root: string): Promise<string> {
  const bin = which('php-fpm8.2') ?? which('php-fpm');
  if (!bin) throw new Error('php-fpm not installed');
  const sock = join(root, 'php.sock');
  const conf = ctx.write(
    join(root, 'php-fpm.conf'),
    `[global]
pid = ${root}/php-fpm.pid
error_log = ${root}/php-fpm.log
daemonize = no
[www]
user = www-data
group = www-data
listen = ${sock}
listen.mode = 0666
pm = static
pm.max_children = 3
php_admin_flag[expose_php] = off
`,
  );
  const child = ctx.spawn('php-fpm', bin, ['-F', '-R', '-y', conf, '-c', '/etc/php/8.2/fpm/php.ini']);
  const deadline = Date.now() + 10_000;
  const { existsSync } = await import('node:fs');
  while (!existsSync(sock)) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`php-fpm did not start (${child.exitCode})`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return sock;
}

export const php = (sock: string) =>
  `location ~ \\.php$ { include /etc/nginx/fastcgi_params; fastcgi_param SCRIPT_FILENAME $document_root$fastcgi_script_name; fastcgi_pass unix:${sock}; }`;

/** Starts nginx with these server blocks; resolves when every listener accepts. */
export async function startNginx(
  ctx: Ctx,
  root: string,
  servers: string[],
  listeners: [string, number][],
): Promise<void> {
  chmodSync(root, 0o755);
  const conf = ctx.write(
    join(root, 'nginx.conf'),
    `master_process off;
daemon off;
pid ${root}/nginx.pid;
error_log ${root}/error.log;
events { worker_connections 512; }
http {
  access_log off;
  server_tokens off;
  include /etc/nginx/mime.types;
  default_type application/octet-stream;
  client_body_temp_path ${root}/tmp; proxy_temp_path ${root}/tmp; fastcgi_temp_path ${root}/tmp; uwsgi_temp_path ${root}/tmp; scgi_temp_path ${root}/tmp;
  ${servers.join('\n  ')}
}
`,
  );
  const child = ctx.spawn('nginx', which('nginx')!, ['-e', join(root, 'error.log'), '-p', root, '-c', conf]);
  for (const [a, p] of listeners) await ctx.waitTcp(a, p, child);
}
