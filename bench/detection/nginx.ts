/**
 * The real Debian nginx (when installed) for the web-content weaknesses:
 * directory listing, /.git/ and /.env in the web root. One process (no
 * master), one server block per target address; the hardened block has an index page
 * and denies dot-files. server_tokens off everywhere, so that nginx's own
 * version is not part of the measurement.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'node:net';
import type { Running } from './net.ts';

export type NginxSite = { address: string; kind: 'dirlist' | 'git' | 'env' | 'hardened' };

export const NGINX = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((p) => spawnSync(p, ['-v']).status === 0) ?? null;

const HEADERS = `add_header X-Frame-Options DENY always; add_header X-Content-Type-Options nosniff always; add_header Content-Security-Policy "default-src 'self'" always;`;

function site(root: string, { address, kind }: NginxSite): string {
  const dir = join(root, 'www', address);
  mkdirSync(join(dir, 'files'), { recursive: true });
  writeFileSync(join(dir, 'files', 'report-2024.pdf'), 'x');
  if (kind !== 'dirlist') writeFileSync(join(dir, 'index.html'), '<!doctype html><html><head><title>Bench</title></head><body><h1>Bench target</h1></body></html>\n');
  // Every site holds the same secrets; only the configuration decides whether they leak.
  writeFileSync(join(dir, '.env'), 'APP_ENV=production\nDB_HOST=10.0.0.5\nDB_PASSWORD=bench-not-a-secret\nAPI_KEY=bench-not-a-secret\n');
  spawnSync('git', ['init', '-q', '-b', 'main', dir]);
  const hidden =
    kind === 'git' ? 'location ~ /\\.(?!git) { deny all; }'
    : kind === 'env' ? 'location ~ /\\.(?!env$) { deny all; }'
    : 'location ~ /\\. { deny all; }';
  return `server {
    listen ${address}:80;
    root ${dir};
    index index.html;
    autoindex ${kind === 'dirlist' ? 'on' : 'off'};
    ${HEADERS}
    ${hidden}
  }`;
}

export async function startNginx(sites: NginxSite[]): Promise<Running & { pid: number }> {
  if (!NGINX) throw new Error('nginx not installed');
  const root = mkdtempSync(join(tmpdir(), 'vigil-bench-nginx-'));
  // One process (no master): killing it frees the ports, no orphaned worker.
  const conf = `master_process off;
pid ${root}/nginx.pid;
error_log ${root}/error.log;
events { worker_connections 256; }
http {
  access_log off;
  server_tokens off;
  default_type text/plain;
  types { text/html html; application/pdf pdf; }
  client_body_temp_path ${root}/tmp; proxy_temp_path ${root}/tmp; fastcgi_temp_path ${root}/tmp; uwsgi_temp_path ${root}/tmp; scgi_temp_path ${root}/tmp;
  ${sites.map((s) => site(root, s)).join('\n  ')}
}
user root;
`;
  writeFileSync(join(root, 'nginx.conf'), conf);
  const child: ChildProcess = spawn(NGINX, ['-e', join(root, 'error.log'), '-p', root, '-c', join(root, 'nginx.conf'), '-g', 'daemon off;'], { stdio: 'ignore' });
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  // Ready when every site accepts a connection (or give up after 5 s).
  const deadline = Date.now() + 5000;
  for (const s of sites) {
    while (!(await canConnect(s.address, 80))) {
      if (Date.now() > deadline || child.exitCode !== null) {
        child.kill('SIGKILL');
        rmSync(root, { recursive: true, force: true });
        throw new Error(`nginx did not start (exit ${child.exitCode})`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return {
    label: 'nginx',
    pid: child.pid!,
    async close() {
      child.kill('SIGTERM'); // nginx: fast shutdown
      await Promise.race([exited, new Promise((r) => setTimeout(r, 3000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
      rmSync(root, { recursive: true, force: true });
    },
  };
}

function canConnect(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect({ host, port });
    s.once('connect', () => (s.destroy(), resolve(true)));
    s.once('error', () => resolve(false));
  });
}
