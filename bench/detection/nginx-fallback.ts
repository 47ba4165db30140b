/** Used only when nginx is missing or fails: a Node stand-in serving the same four sites. */
import { createServer } from 'node:http';
import type { NginxSite } from './nginx.ts';

const HEADERS = { 'x-frame-options': 'DENY', 'x-content-type-options': 'nosniff', 'content-security-policy': "default-src 'self'", server: 'nginx' };

export function nodeNginx(kind: NginxSite['kind']) {
  return createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const send = (status: number, type: string, body: string) => (res.writeHead(status, { ...HEADERS, 'content-type': type }), res.end(body));
    if (path === '/.git/HEAD' && kind === 'git') return send(200, 'text/plain', 'ref: refs/heads/main\n');
    if (path === '/.env' && kind === 'env') return send(200, 'text/plain', 'APP_ENV=production\nDB_HOST=10.0.0.5\nDB_PASSWORD=bench-not-a-secret\n');
    if (path?.startsWith('/.')) return send(403, 'text/html', '<html><body><h1>403 Forbidden</h1></body></html>');
    if (path === '/' && kind === 'dirlist')
      return send(200, 'text/html', '<html><head><title>Index of /</title></head><body><h1>Index of /</h1><hr><pre><a href="../">../</a>\n<a href="files/">files/</a></pre><hr></body></html>');
    if (path === '/') return send(200, 'text/html', '<!doctype html><html><head><title>Bench</title></head><body><h1>Bench target</h1></body></html>\n');
    send(404, 'text/html', '<html><body><h1>404 Not Found</h1></body></html>');
  });
}
