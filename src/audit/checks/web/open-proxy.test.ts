/**
 * Open proxy, proven by relay (issue 27): a real tinyproxy left open is
 * found with the relay as evidence; the same proxy restricted by Allow,
 * and web servers answering CONNECT or absolute URIs with their own page
 * (the false positive seen on a hardened twin), give no finding.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { test } from 'node:test';
import { daemon, onCleanup, tempDir, which } from '../../../../test/helpers/daemons-kit.ts';
import { APACHE, NGINX, apache, hostOf, netFor, nginx, service } from '../../../../test/helpers/web-daemons.ts';
import { dantedConf, tinyproxyConf } from '../../../../test/helpers/proxy-configs.ts';
import { relayConnect, withCanary } from '../../proto/proxy.ts';
import { checkById } from '../catalogue.ts';

const check = checkById('vigil.http.open-proxy');
const TINYPROXY = which('tinyproxy');
const ADDR = '127.0.71.1';

/** tinyproxy in the foreground; `allow` its client ACL (none: anyone may use it, the misconfiguration). */
function tinyproxy(allow: string[]): Promise<number> {
  const dir = tempDir('tinyproxy');
  return daemon(ADDR, TINYPROXY!, (port) => {
    const conf = join(dir, `tinyproxy-${port}.conf`);
    writeFileSync(conf, tinyproxyConf(ADDR, port, dir, allow));
    return ['-d', '-c', conf];
  });
}

async function findings(port: number) {
  return check.runOn(hostOf(ADDR, [service(port, 'http-proxy', { http: null })]), netFor(ADDR));
}

test('tinyproxy open to anyone: found, with what was sent and what came back', {
  skip: TINYPROXY ? false : 'tinyproxy is not installed (apt-get install tinyproxy)',
}, async () => {
  const port = await tinyproxy([]);
  const [f, ...rest] = await findings(port);
  assert.equal(rest.length, 0);
  assert.ok(f, 'open tinyproxy not found');
  assert.match(f.detail, /GET http:\/\/127\.0\.0\.1:\d+\/vigil-proxy-[0-9a-f]+/);
  assert.match(f.detail, /unique answer came back/);
  // The tunnel path proves it on its own too (CONNECT, then GET through the tunnel).
  const viaConnect = await withCanary(netFor(ADDR), port, (c) => relayConnect(netFor(ADDR), port, false, c));
  assert.match(viaConnect?.sent ?? '', /^CONNECT 127\.0\.0\.1:\d+, then GET/);
});

test('the twin: tinyproxy with Allow restricted to another network is not reported', {
  skip: TINYPROXY ? false : 'tinyproxy is not installed (apt-get install tinyproxy)',
}, async () => {
  const port = await tinyproxy(['192.0.2.0/24']);
  assert.deepEqual(await findings(port), []);
});

test('a web server answering CONNECT 200 and absolute URIs with its own page is not a proxy', async () => {
  const own = '<html><body>our own page, nothing relayed</body></html>';
  const srv = createServer((_q, r) => r.end(own));
  // Node hands CONNECT to 'connect': answer 200 with the site's page, as the false positive did.
  srv.on('connect', (_req, sock) => sock.end(`HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n${own}`));
  await new Promise<void>((r) => srv.listen(0, ADDR, r));
  onCleanup(() => (srv.closeAllConnections(), srv.close()));
  assert.deepEqual(await findings((srv.address() as { port: number }).port), []);
});

test('real nginx and apache (no proxy configured) answer proxy requests with their own pages: not reported', {
  skip: NGINX && APACHE ? false : 'nginx or apache2 is not installed',
}, async () => {
  const n = await nginx(ADDR, 'location / { return 200 "nginx own page\\n"; }');
  const a = await apache(ADDR, '', { 'index.html': 'apache own page\n' });
  assert.deepEqual(await findings(n), []);
  assert.deepEqual(await findings(a), []);
});

const DANTED = which('danted');

/** Dante's danted: no method (anyone, SOCKS4 and SOCKS5) or username/password required. */
function danted(open: boolean): Promise<number> {
  const dir = tempDir('danted');
  return daemon(ADDR, DANTED!, (port) => {
    const conf = join(dir, `danted-${port}.conf`);
    writeFileSync(conf, dantedConf(ADDR, port, open));
    return ['-f', conf];
  });
}

test('danted without a method relays (found, SOCKS5 first); with socksmethod username it is not reported', {
  skip: DANTED ? false : 'dante-server is not installed (apt-get install dante-server)',
}, async () => {
  const socks = checkById('vigil.socks.open-proxy');
  const [open, shut] = await Promise.all([danted(true), danted(false)]);
  const [f] = await socks.runOn(hostOf(ADDR, [service(open, 'socks5')]), netFor(ADDR));
  assert.match(f!.detail, /SOCKS5 CONNECT 127\.0\.0\.1:\d+, then GET \/vigil-proxy-[0-9a-f]+/);
  assert.deepEqual(await socks.runOn(hostOf(ADDR, [service(shut, 'socks5')]), netFor(ADDR)), []);
});
