import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, chmodSync } from 'node:fs';
import { createServer, get as httpGet, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { Fence } from '../../engine/fence.ts';
import type { HostFacts, Net, Service } from '../../engine/types.ts';
import { fetchHttpInfo } from '../../proto/http.ts';
import { CHECKS } from '../catalogue.ts';

const HTTP_CHECKS = CHECKS.filter((c) =>
  /^vigil\.http\.(dir-listing|server-version|powered-by|security-headers|default-page|trace|git-exposed|env-exposed|server-status|open-proxy)$/.test(
    c.id,
  ),
);

const net: Net = new Fence(['127.0.0.1'], ['127.0.0.1']).net('127.0.0.1', 5000);
const listen = (s: Server) =>
  new Promise<number>((r) => s.listen(0, '127.0.0.1', () => r((s.address() as AddressInfo).port)));

/** Facts as service detection would record them: GET / on each port. */
async function facts(ports: number[]): Promise<HostFacts> {
  const services: Service[] = [];
  for (const port of ports) {
    const http = await fetchHttpInfo(net, port, false);
    services.push({
      port,
      protocol: 'tcp',
      name: 'http',
      product: null,
      version: null,
      banner: null,
      tls: null,
      http,
      extra: {},
    });
  }
  return { address: '127.0.0.1', openPorts: ports, services };
}

/** Check id -> ports flagged. */
async function flagged(host: HostFacts): Promise<Map<string, number[]>> {
  const out = new Map<string, number[]>();
  for (const c of HTTP_CHECKS) {
    const f = await c.runOn(host, net);
    if (f.length)
      out.set(
        c.id.replace('vigil.http.', ''),
        f.map((x) => x.port),
      );
  }
  return out;
}

test('Node servers imitating each weakness are flagged; a hardened one is not', async (t) => {
  const backend = createServer((_q, r) =>
    r.end('<html><body>backend marker page: you reached the backend service</body></html>'),
  );
  const weak = createServer((req, res) => {
    if (req.method === 'TRACE') {
      res.setHeader('Content-Type', 'message/http');
      return res.end(
        `TRACE ${req.url} HTTP/1.1\r\n${Object.entries(req.headers)
          .map(([k, v]) => `${k}: ${v}`)
          .join('\r\n')}\r\n`,
      );
    }
    if (req.url?.startsWith('http://')) {
      // A forward proxy: fetch what it is asked for (here only ever the loopback backend).
      return httpGet(req.url, (up) => (res.writeHead(up.statusCode ?? 502, up.headers), up.pipe(res))).on('error', () =>
        res.end(),
      );
    }
    res.setHeader('Server', 'Apache/2.4.49 (Unix)');
    res.setHeader('X-Powered-By', 'PHP/5.6.40');
    if (req.url === '/.git/HEAD') return res.end('ref: refs/heads/main\n');
    if (req.url === '/.env') return res.end('APP_KEY=base64:abc\nDB_PASSWORD=hunter2\n');
    if (req.url === '/server-status')
      return res.end('<html><title>Apache Status</title><h1>Apache Server Status for 127.0.0.1</h1></html>');
    res.setHeader('Content-Type', 'text/html');
    res.end(
      '<html><head><title>Index of /</title></head><body><h1>Index of /</h1><a href="backup.sql">backup.sql</a></body></html>',
    );
  });
  const stock = createServer(
    (_q, r) => (
      r.setHeader('Content-Type', 'text/html'),
      r.end('<html><head><title>Welcome to nginx!</title></head><body><h1>Welcome to nginx!</h1></body></html>')
    ),
  );
  const hardened = createServer((req, res) => {
    res.setHeader('Server', 'web');
    if (req.method !== 'GET' || req.url !== '/')
      return ((res.statusCode = req.method === 'GET' ? 404 : 405), res.end('no'));
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    res.setHeader('X-Frame-Options', 'DENY');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Content-Security-Policy', "default-src 'self'; frame-ancestors 'none'");
    res.end('<html><body>Our own site</body></html>');
  });
  const [b, w, s, h] = [await listen(backend), await listen(weak), await listen(stock), await listen(hardened)];
  t.after(() => [backend, weak, stock, hardened].forEach((x) => (x.closeAllConnections(), x.close())));

  const found = await flagged(await facts([b, w, s, h]));
  for (const id of [
    'dir-listing',
    'server-version',
    'powered-by',
    'security-headers',
    'trace',
    'git-exposed',
    'env-exposed',
    'server-status',
    'open-proxy',
  ]) {
    assert.ok(found.get(id)?.includes(w), `${id} not flagged on the weak server: ${JSON.stringify([...found])}`);
  }
  assert.ok(found.get('default-page')?.includes(s), 'default page not flagged');
  for (const [id, ports] of found) assert.ok(!ports.includes(h), `${id} flagged on the hardened server`);
  for (const [id, ports] of found)
    if (id !== 'security-headers') assert.ok(!ports.includes(b), `${id} flagged on the plain backend`);

  const env = (await HTTP_CHECKS.find((c) => c.id === 'vigil.http.env-exposed')!.runOn(await facts([w]), net))[0]!;
  assert.doesNotMatch(env.detail, /hunter2/, 'secret values must not reach the report');
});

test('odd and silent servers: no findings, no throw', async (t) => {
  const silent = connectAndDrop();
  const port = await listen(silent);
  t.after(() => silent.close());
  const host: HostFacts = {
    address: '127.0.0.1',
    openPorts: [port],
    services: [
      {
        port,
        protocol: 'tcp',
        name: 'http',
        product: null,
        version: null,
        banner: '\0\xff',
        tls: null,
        http: { status: 200, headers: {}, body: '' },
        extra: {},
      },
    ],
  };
  for (const c of HTTP_CHECKS.filter((c) => c.id !== 'vigil.http.security-headers'))
    assert.deepEqual(await c.runOn(host, net), [], c.id);
});

/** Accepts, says garbage, hangs up. */
function connectAndDrop(): Server {
  return createServer().on('connection', (sock) => sock.end('garbage\r\n'));
}

// ---- a real nginx from Debian, started by hand -----------------------------------------------

const NGINX =
  ['/usr/sbin/nginx', '/usr/bin/nginx'].find((p) => existsSync(p)) ??
  (spawnSync('nginx', ['-v']).error ? null : 'nginx');

async function freePort(): Promise<number> {
  const s = createServer();
  const port = await listen(s);
  await new Promise((r) => s.close(r));
  return port;
}

async function startNginx(server: string, files: Record<string, string>): Promise<{ port: number; stop: () => void }> {
  const dir = mkdtempSync(join(tmpdir(), 'vigil-nginx-'));
  chmodSync(dir, 0o755); // workers may run as nobody when the test runs as root
  mkdirSync(join(dir, 'tmp'));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, 'www', name, '..'), { recursive: true });
    writeFileSync(join(dir, 'www', name), text);
  }
  mkdirSync(join(dir, 'www'), { recursive: true });
  const port = await freePort();
  const temps = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((k) => `${k}_temp_path ${dir}/tmp;`).join(' ');
  // master_process off: one process, so stopping it cannot leave a worker holding the port.
  writeFileSync(
    join(dir, 'nginx.conf'),
    `
master_process off;
error_log ${dir}/error.log;
events { worker_connections 64; }
http {
  access_log off; ${temps}
  server { listen 127.0.0.1:${port}; root ${dir}/www; ${server} }
}`,
  );
  const child = spawn(
    NGINX!,
    ['-p', dir, '-e', `${dir}/error.log`, '-c', `${dir}/nginx.conf`, '-g', `daemon off; pid ${dir}/nginx.pid;`],
    { stdio: 'ignore' },
  );
  const stop = () => {
    child.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  };
  // Wait (bounded) until it accepts connections.
  for (let i = 0; i < 100; i++) {
    const up = await new Promise<boolean>((r) => {
      const sock = connect(port, '127.0.0.1');
      sock.on('connect', () => (sock.destroy(), r(true))).on('error', () => r(false));
    });
    if (up) return { port, stop };
    if (child.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const log = existsSync(`${dir}/error.log`) ? readFileSync(`${dir}/error.log`, 'utf8') : '';
  stop();
  throw new Error(`nginx did not start: ${log}`);
}

test('real nginx: autoindex + server_tokens flagged; hardened configuration not flagged', {
  skip: NGINX ? false : 'nginx is not installed (apt-get install nginx)',
}, async (t) => {
  const weak = await startNginx('server_tokens on; autoindex on; default_type text/plain;', {
    'backup.sql': 'x',
    '.git/HEAD': 'ref: refs/heads/master\n',
    '.env': 'DB_USER=app\nDB_PASSWORD=s3cret\n',
  });
  t.after(weak.stop);
  const hard = await startNginx(
    `server_tokens off; autoindex off; default_type text/html;
     add_header X-Frame-Options DENY always; add_header X-Content-Type-Options nosniff always;
     add_header Content-Security-Policy "default-src 'self'" always;
     location ~ /\\. { deny all; }`,
    {
      'index.html': '<html><body>Our own site</body></html>',
      '.git/HEAD': 'ref: refs/heads/master\n',
      '.env': 'A=1\nB=2\n',
    },
  );
  t.after(hard.stop);

  const found = await flagged(await facts([weak.port, hard.port]));
  for (const id of ['dir-listing', 'server-version', 'security-headers', 'git-exposed', 'env-exposed']) {
    assert.ok(
      found.get(id)?.includes(weak.port),
      `${id} not flagged on nginx with autoindex/server_tokens: ${JSON.stringify([...found])}`,
    );
  }
  for (const [id, ports] of found) assert.ok(!ports.includes(hard.port), `${id} flagged on hardened nginx`);
  const version = (
    await HTTP_CHECKS.find((c) => c.id === 'vigil.http.server-version')!.runOn(await facts([weak.port]), net)
  )[0]!;
  assert.match(version.detail, /^Server: nginx\/\d+\.\d+/);
});
