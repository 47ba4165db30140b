/**
 * Web terminals. Real Debian shellinaboxd (on a Unix socket, relayed onto
 * its loopback address by socat: it cannot bind an address of our
 * choosing), three started once for the file: a /bin/sh service on plain
 * HTTP and on its self-signed TLS (a shell for anyone), and the LOGIN
 * service (a login prompt: the hardened twin). ttyd and GoTTY are not in
 * Debian 12: their answers (ttyd src/http.c, GoTTY server/handlers.go) are
 * replayed by a loopback HTTP server, open and behind -c.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import {
  LOGIN_SERVICE,
  relayArgs,
  SHELL_SERVICE,
  SHELLINABOXD,
  shellinaboxArgs,
} from '../../../../test/helpers/app-servers.ts';
import { daemon, freePort, onCleanup, stop, tempDir, which } from '../../../../test/helpers/daemons-kit.ts';
import { eventually } from '../../../../test/helpers/wait.ts';
import { hostOf, netFor } from '../../../../test/helpers/web-daemons.ts';
import { detectOne } from '../../engine/detect.ts';
import { screenKind } from '../../proto/web-terminal.ts';
import { checkById } from '../catalogue.ts';

const A = (n: number) => `127.14.103.${n}`;
const SOCAT = which('socat');
const ROOT = process.getuid?.() === 0;

const audit = async (address: string, port: number) => {
  const net = netFor(address);
  const svc = await detectOne(net, port, { bannerMs: 300, nmapProbes: false });
  return { svc, found: await checkById('vigil.web.terminal-open').runOn(hostOf(address, [svc]), net) };
};

/** shellinaboxd on a Unix socket, and socat relaying address:port to it (daemon() waits for the relay). */
async function shellinabox(address: string, service: string, tls: boolean): Promise<number> {
  const dir = tempDir('shellinabox');
  const sock = join(dir, 'sib.sock');
  // Its own process group (detached), stopped with it at the end: the launcher and the sessions' shells.
  const sib = spawn(SHELLINABOXD!, shellinaboxArgs(dir, sock, service, tls), { detached: true, stdio: 'ignore' });
  onCleanup(() => stop(sib));
  await eventually(async () => existsSync(sock), `shellinaboxd's socket ${sock}`);
  return daemon(address, SOCAT!, (port) => relayArgs(address, port, sock));
}

test('Shell In A Box: a /bin/sh service on HTTP and on TLS is found; the LOGIN service is not', {
  skip: !SHELLINABOXD || !SOCAT ? 'shellinabox or socat (Debian) is not installed' : !ROOT ? 'LOGIN needs root' : false,
  timeout: 60_000,
}, async () => {
  const [plain, tls, login] = await Promise.all([
    shellinabox(A(21), SHELL_SERVICE, false),
    shellinabox(A(22), SHELL_SERVICE, true),
    shellinabox(A(121), LOGIN_SERVICE, false),
  ]);
  const proof =
    /^Shell In A Box page at \/: a session was opened .* answered with session \S+\) and its first screen, with nothing typed, is a shell prompt: "\$"\.$/;
  const p = await audit(A(21), plain);
  assert.equal(p.svc.name, 'http');
  assert.equal(p.svc.product, 'ShellInABox');
  assert.match(p.found[0]!.detail, proof);
  const t = await audit(A(22), tls);
  assert.ok(t.svc.tls, 'detected as TLS');
  assert.equal(t.svc.product, 'ShellInABox', 'named from its page over TLS too');
  assert.match(t.found[0]!.detail, proof);
  const l = await audit(A(121), login);
  assert.equal(l.svc.name, 'http');
  assert.deepEqual(l.found, []);
});

/** A loopback HTTP server answering `routes` (path → status, headers, body), 404 elsewhere. */
async function replay(address: string, routes: Record<string, [number, Record<string, string>, string]>) {
  const server: Server = createServer((req, res) => {
    const [status, headers, body] = routes[req.url ?? ''] ?? [404, { 'Content-Type': 'text/plain' }, 'not found'];
    res.writeHead(status, { ...headers, 'Content-Length': Buffer.byteLength(body) });
    res.end(body);
  });
  const port = await freePort(address);
  await new Promise<void>((r) => server.listen(port, address, r));
  onCleanup(() => new Promise((r) => server.close(r)));
  return port;
}

test('ttyd and GoTTY (replayed): an empty credential is found (medium); behind -c (401) they are not', async () => {
  const page: [number, Record<string, string>, string] = [
    200,
    { 'Content-Type': 'text/html' },
    '<html><head><title>ttyd - Terminal</title></head></html>',
  ];
  const basic = (realm: string): [number, Record<string, string>, string] => [
    401,
    { 'WWW-Authenticate': `Basic realm="${realm}"` },
    '',
  ];
  const [ttydOpen, ttydAuth, gottyOpen, gottyAuth] = await Promise.all([
    replay(A(23), {
      '/': page,
      '/token': [200, { 'Content-Type': 'application/json;charset=utf-8' }, '{"token": ""}'],
    }),
    replay(A(123), { '/': basic('ttyd'), '/token': basic('ttyd') }),
    replay(A(24), {
      '/': [200, { 'Content-Type': 'text/html' }, '<title>GoTTY</title><script src="./auth_token.js"></script>'],
      '/auth_token.js': [200, { 'Content-Type': 'application/javascript' }, "var gotty_auth_token = '';"],
    }),
    replay(A(124), { '/': basic('GoTTY'), '/auth_token.js': basic('GoTTY') }),
  ]);
  const t = await audit(A(23), ttydOpen);
  assert.match(t.found[0]!.detail, /^GET \/token was answered 200 with ttyd's \{"token": ""\}: no credential/);
  assert.equal(t.found[0]!.risk, 'medium');
  const g = await audit(A(24), gottyOpen);
  assert.match(g.found[0]!.detail, /^GET \/auth_token\.js was answered 200 with GoTTY's "var gotty_auth_token = ''"/);
  assert.deepEqual((await audit(A(123), ttydAuth)).found, []);
  assert.deepEqual((await audit(A(124), gottyAuth)).found, []);
});

test('first screens: shell prompts (colours and titles stripped) vs login prompts and programs', () => {
  assert.equal(screenKind('$ '), 'shell');
  assert.equal(screenKind('\x1b]0;user@vm: ~\x07\x1b[01;32muser@vm\x1b[00m:\x1b[01;34m~\x1b[00m$ '), 'shell');
  assert.equal(screenKind('root@vm:/# '), 'shell');
  assert.equal(screenKind('\r\nDebian GNU/Linux 12 vm\r\n\r\nvm login: '), 'login');
  assert.equal(screenKind('Password: '), 'login');
  assert.equal(screenKind('login as: '), 'login');
  assert.equal(screenKind('top - 10:00:01 up 1 day,  load average: 0.00\r\nTasks:  90 total'), 'other');
  assert.equal(screenKind(''), 'other');
});
