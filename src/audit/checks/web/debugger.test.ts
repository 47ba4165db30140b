/**
 * Werkzeug's debugger on a real Flask app (Debian python3-flask, `flask
 * run`), three servers started once for the file: debug mode with the PIN
 * off (the console runs code for anyone), debug mode with Werkzeug's
 * default PIN, and the hardened twin with debug mode off. Django's debug
 * mode on a real project (Debian python3-django) under runserver and
 * gunicorn, and its twin with DEBUG = False under gunicorn (gunicorn on
 * the network is no finding by itself). The other frameworks' debug pages
 * (none in Debian as a server to run) replayed from their templates' text
 * by a loopback HTTP server.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createServer } from 'node:http';
import {
  DJANGO_INSTALLED,
  djangoEnv,
  djangoSite,
  GUNICORN,
  gunicornArgs,
  runserverArgs,
} from '../../../../test/helpers/app-servers.ts';
import { daemon, freePort, onCleanup, tempDir } from '../../../../test/helpers/daemons-kit.ts';
import { DEBIAN_PYTHON, FLASK_INSTALLED, flaskArgs, flaskEnv } from '../../../../test/helpers/exec-daemons.ts';
import { hostOf, netFor, service } from '../../../../test/helpers/web-daemons.ts';
import { detectOne } from '../../engine/detect.ts';
import { checkById } from '../catalogue.ts';

const A = (n: number) => `127.0.197.${n}`;

function flask(address: string, debug: boolean, pin = true): Promise<number> {
  const dir = tempDir('flask');
  return daemon(address, DEBIAN_PYTHON, (port) => flaskArgs(dir, address, port), { env: flaskEnv(dir, debug, pin) });
}

test('Flask debug mode: the console without a PIN (high) and with the PIN (medium) are found; debug off is not', {
  skip: FLASK_INSTALLED ? false : 'python3-flask (Debian) is not installed',
  timeout: 60_000,
}, async () => {
  const [open, pinned, off] = await Promise.all([flask(A(31), true, false), flask(A(32), true), flask(A(131), false)]);
  const audit = async (address: string, port: number) => {
    const net = netFor(address);
    const svc = await detectOne(net, port, { bannerMs: 300, nmapProbes: false });
    assert.equal(svc.name, 'http');
    return checkById('vigil.web.debugger-exposed').runOn(hostOf(address, [svc]), net);
  };
  const [f] = await audit(A(31), open);
  assert.match(
    f!.detail,
    /^GET \/console \(Host: localhost\) was answered 200 with Werkzeug's interactive console \("EVALEX = true", "EVALEX_TRUSTED = true"\) \(Server: Werkzeug\/[\d.]+ Python\/[\d.]+\): no PIN guards it/,
  );
  assert.equal(f!.risk, undefined, "high, the check's own risk");
  const [p] = await audit(A(32), pinned);
  assert.match(p!.detail, /"EVALEX_TRUSTED = false"\) .*: a PIN guards it/);
  assert.equal(p!.risk, 'medium');
  assert.deepEqual(await audit(A(131), off), []);
});

const D = (n: number) => `127.14.103.${n}`;

function django(address: string, debug: boolean, server: 'runserver' | 'gunicorn'): Promise<number> {
  const dir = djangoSite(tempDir('django'));
  const env = djangoEnv(dir, debug);
  return server === 'runserver'
    ? daemon(address, DEBIAN_PYTHON, (port) => runserverArgs(address, port), { env, cwd: dir })
    : daemon(address, GUNICORN!, (port) => gunicornArgs(dir, address, port), { env, cwd: dir });
}

test("Django's debug mode: its technical 404 under runserver and under gunicorn is found (medium); DEBUG = False is not", {
  skip: DJANGO_INSTALLED && GUNICORN ? false : 'python3-django or gunicorn (Debian) is not installed',
  timeout: 60_000,
}, async () => {
  const [dev, gDebug, gProd] = await Promise.all([
    django(D(41), true, 'runserver'),
    django(D(42), true, 'gunicorn'),
    django(D(141), false, 'gunicorn'),
  ]);
  const audit = async (address: string, port: number) => {
    const net = netFor(address);
    const svc = await detectOne(net, port, { bannerMs: 300, nmapProbes: false });
    return checkById('vigil.web.debugger-exposed').runOn(hostOf(address, [svc]), net);
  };
  const proof =
    /^GET \/vigil-scanner-no-such-page was answered 404 with Django \(DEBUG = True\)'s debug page \("URLconf vigilsite\.urls, 2 URL patterns \('', accounts\/\)"\) \(Server: [^)]+\): it shows anyone the URL map/;
  const [r] = await audit(D(41), dev);
  assert.match(r!.detail, proof);
  assert.match(r!.detail, /\(Server: WSGIServer\//);
  assert.equal(r!.risk, 'medium');
  const [g] = await audit(D(42), gDebug);
  assert.match(g!.detail, proof);
  assert.deepEqual(await audit(D(141), gProd), []);
});

/** A loopback HTTP server answering each path with a page, a 404 page of `notFound` elsewhere. */
async function replay(address: string, notFound: [Record<string, string>, string], pages: Record<string, string> = {}) {
  const server = createServer((req, res) => {
    const page = pages[req.url ?? ''];
    const [headers, body] = page === undefined ? notFound : [{ 'Content-Type': 'application/json' }, page];
    res.writeHead(page === undefined ? 404 : 200, { 'Content-Type': 'text/html', ...headers });
    res.end(body);
  });
  const port = await freePort(address);
  await new Promise<void>((r) => server.listen(port, address, r));
  onCleanup(() => new Promise((r) => server.close(r)));
  return port;
}

test("Other frameworks' debug pages (replayed from their templates) are found; a plain or Whitelabel 404 is not", async () => {
  const cases: [string, [Record<string, string>, string], Record<string, string>, RegExp | null][] = [
    [
      'rails',
      [
        {},
        '<h1>Routing Error</h1><p>No route matches [GET] &quot;/vigil-scanner-no-such-page&quot;</p><p>Rails.root: /srv/blog</p>',
      ],
      {},
      /Ruby on Rails \(development mode\)'s debug page \("Rails\.root: \/srv\/blog"\)/,
    ],
    [
      'symfony',
      [{ 'X-Debug-Token': 'a1b2c3', 'X-Debug-Token-Link': 'http://x/_profiler/a1b2c3' }, 'Not Found'],
      {},
      /Symfony \(debug mode, Web Profiler\)'s debug page \("x-debug-token-link: http:\/\/x\/_profiler\/a1b2c3"\)/,
    ],
    [
      'ignition',
      [{}, '<h1>404 | Not Found</h1>'],
      { '/_ignition/health-check': '{"can_execute_commands":true}' },
      /^GET \/_ignition\/health-check was answered 200 with Laravel \(APP_DEBUG, Ignition.s routes\).s debug page \("can_execute_commands: true"\)/,
    ],
    [
      'spring-trace',
      [
        {},
        '<h1>Whitelabel Error Page</h1><div>trace: java.lang.Exception\n\tat org.springframework.web.servlet.DispatcherServlet.doDispatch</div>',
      ],
      {},
      /Spring Boot \(error page with stack trace\)/,
    ],
    [
      'spring-plain',
      [{}, '<h1>Whitelabel Error Page</h1><p>This application has no explicit mapping for /error</p>'],
      {},
      null,
    ],
    ['plain', [{}, '<h1>Not Found</h1><p>The requested resource was not found on this server.</p>'], {}, null],
  ];
  const ports = await Promise.all(cases.map(([, nf, pages], i) => replay(D(51 + i), nf, pages)));
  for (const [i, [name, , , want]] of cases.entries()) {
    const svc = service(ports[i]!, 'http', { http: { status: 404, headers: {}, body: '' } });
    const found = await checkById('vigil.web.debugger-exposed').runOn(hostOf(D(51 + i), [svc]), netFor(D(51 + i)));
    if (want) assert.match(found[0]?.detail ?? `${name}: nothing`, want, name);
    else assert.deepEqual(found, [], name);
  }
});
