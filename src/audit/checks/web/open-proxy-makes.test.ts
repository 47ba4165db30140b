/**
 * Open proxies of other makes than tinyproxy (issue 27: "open proxies of
 * every make"): real Squid, Privoxy and Apache httpd (mod_proxy) left open are found by relay, on
 * both paths (absolute-form GET and CONNECT); their hardened twins (Squid's
 * stock rules with localnet narrowed to a network the scanner is not in,
 * Privoxy with permit-access for another network) give no finding.
 */
import assert from 'node:assert/strict';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { daemon, tempDir, which } from '../../../../test/helpers/daemons-kit.ts';
import { hostOf, netFor, service } from '../../../../test/helpers/web-daemons.ts';
import { SQUID_DEBIAN_RULES, apacheProxyConf, privoxyConf, squidConf } from '../../../../test/helpers/proxy-makes.ts';
import { relayConnect, relayGet, withCanary } from '../../proto/proxy.ts';
import { checkById } from '../catalogue.ts';

const check = checkById('vigil.http.open-proxy');
const SQUID = which('squid');
const PRIVOXY = which('privoxy');
const APACHE = which('apache2');
const ADDR = '127.0.71.7';

function squid(rules: readonly string[]): Promise<number> {
  const dir = tempDir('squid');
  chmodSync(dir, 0o777); // its logs are written by cache_effective_user (proxy) when run as root
  return daemon(ADDR, SQUID!, (port) => {
    const conf = join(dir, `squid-${port}.conf`);
    writeFileSync(conf, squidConf(ADDR, port, dir, rules));
    return ['-N', '-f', conf];
  });
}

function privoxy(permit: readonly string[]): Promise<number> {
  const dir = tempDir('privoxy');
  return daemon(ADDR, PRIVOXY!, (port) => {
    const conf = join(dir, `privoxy-${port}.conf`);
    writeFileSync(conf, privoxyConf(ADDR, port, dir, permit));
    return ['--no-daemon', conf];
  });
}

function apacheProxy(require: string): Promise<number> {
  const dir = tempDir('apache-proxy');
  chmodSync(dir, 0o755); // its children run as www-data
  return daemon(ADDR, APACHE!, (port) => {
    const conf = join(dir, `httpd-${port}.conf`);
    writeFileSync(conf, apacheProxyConf(ADDR, port, dir, require));
    return ['-f', conf, '-DFOREGROUND'];
  });
}

const findings = (port: number) => check.runOn(hostOf(ADDR, [service(port, 'http-proxy')]), netFor(ADDR));

/** Each relay path on its own: what was sent, or null. */
async function paths(port: number) {
  const net = netFor(ADDR);
  const get = await withCanary(net, port, (c) => relayGet(net, port, false, c));
  const connect = await withCanary(net, port, (c) => relayConnect(net, port, false, c));
  return { get: get?.sent ?? null, connect: connect?.sent ?? null };
}

test('Squid with http_access allow all relays GET and CONNECT: found; its stock rules for 10/8 only: silent', {
  skip: SQUID ? false : 'squid is not installed (apt-get install squid)',
}, async () => {
  const [open, twin] = await Promise.all([squid(['http_access allow all']), squid(SQUID_DEBIAN_RULES)]);
  const [f, ...rest] = await findings(open);
  assert.equal(rest.length, 0);
  assert.match(f!.detail, /GET http:\/\/127\.0\.0\.1:\d+\/vigil-proxy-[0-9a-f]+.*unique answer came back/);
  const both = await paths(open);
  assert.match(both.get ?? '', /^GET http:/);
  assert.match(both.connect ?? '', /^CONNECT 127\.0\.0\.1:\d+, then GET/);
  assert.deepEqual(await findings(twin), []);
});

test("Squid's cache manager open to anyone is a status page; the stock rules (deny manager) keep it shut", {
  skip: SQUID ? false : 'squid is not installed (apt-get install squid)',
}, async () => {
  const status = checkById('vigil.http.status-page');
  const [open, twin] = await Promise.all([squid(['http_access allow all']), squid(SQUID_DEBIAN_RULES)]);
  const [f] = await status.runOn(hostOf(ADDR, [service(open, 'http-proxy')]), netFor(ADDR));
  assert.match(f!.detail, /\/squid-internal-mgr\/info.*Squid cache manager/);
  assert.deepEqual(await status.runOn(hostOf(ADDR, [service(twin, 'http-proxy')]), netFor(ADDR)), []);
});

test('Squid that tunnels CONNECT to any port but refuses GET: found by the CONNECT path', {
  skip: SQUID ? false : 'squid is not installed (apt-get install squid)',
}, async () => {
  const port = await squid(['http_access allow CONNECT', 'http_access deny all']);
  const both = await paths(port);
  assert.equal(both.get, null);
  const [f] = await findings(port);
  assert.match(f!.detail, /CONNECT 127\.0\.0\.1:\d+, then GET \/vigil-proxy-/);
});

test('Privoxy without permit-access relays GET and CONNECT: found; permit-access for another network: silent', {
  skip: PRIVOXY ? false : 'privoxy is not installed (apt-get install privoxy)',
}, async () => {
  const [open, twin] = await Promise.all([privoxy([]), privoxy(['192.0.2.0/24'])]);
  const [f] = await findings(open);
  assert.match(f!.detail, /GET http:\/\/127\.0\.0\.1:\d+\/vigil-proxy-/);
  const both = await paths(open);
  assert.match(both.get ?? '', /^GET http:/);
  assert.match(both.connect ?? '', /^CONNECT /);
  assert.deepEqual(await findings(twin), []);
});

test('Apache httpd with ProxyRequests On for anyone relays GET and CONNECT: found; Require ip for another network: silent', {
  skip: APACHE ? false : 'apache2 is not installed (apt-get install apache2)',
}, async () => {
  const [open, twin] = await Promise.all([apacheProxy('all granted'), apacheProxy('ip 192.0.2.0/24')]);
  const [f] = await findings(open);
  assert.match(f!.detail, /GET http:\/\/127\.0\.0\.1:\d+\/vigil-proxy-/);
  const both = await paths(open);
  assert.match(both.connect ?? '', /^CONNECT /);
  assert.deepEqual(await findings(twin), []);
});
