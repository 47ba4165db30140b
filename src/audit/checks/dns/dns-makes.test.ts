/**
 * The DNS checks on name servers of other makes than BIND (issue 27: "DNS
 * servers that accept dynamic updates from anyone", zone transfers on every
 * make): NSD with provide-xfr for 0.0.0.0/0, Knot DNS with transfer and
 * update ACLs for anyone, dnsmasq authoritative with auth-sec-servers and no
 * auth-peer. Each beside its twin: transfers to 127.0.0.200 only (not the
 * scanner's source), updates with a TSIG key only, version hidden.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { daemon, tempDir, which } from '../../../../test/helpers/daemons-kit.ts';
import {
  type DnsPolicy,
  dnsmasqConf,
  dnsmasqForwarderConf,
  knotConf,
  nsdConf,
} from '../../../../test/helpers/dns-makes.ts';
import { hostOf, netFor, service } from '../../../../test/helpers/web-daemons.ts';
import { checkById } from '../catalogue.ts';

const axfr = checkById('vigil.dns.axfr');
const update = checkById('vigil.dns.dynamic-update');
const version = checkById('vigil.version.bind.version-bind');
const recursion = checkById('vigil.dns.recursion');

const facts = (address: string, port: number) => hostOf(address, [service(port, 'domain')]);

type Conf = (address: string, port: number, dir: string, zone: string, p: DnsPolicy) => string;

/** One server of a make on `address` (a free port), zone `zone`; its port. */
function server(make: string, conf: Conf, args: (file: string) => string[], address: string, p: DnsPolicy) {
  const dir = tempDir(make);
  return daemon(address, which(make === 'knot' ? 'knotd' : make)!, (port) => {
    const file = join(dir, `${make}-${port}.conf`);
    writeFileSync(file, conf(address, port, dir, `shop-${make}.test`, p));
    return args(file);
  });
}

/** Every finding of the three checks on address:port, as id: detail. */
async function run(address: string, port: number): Promise<string[]> {
  const net = netFor(address);
  const out: string[] = [];
  for (const c of [axfr, update, version])
    for (const f of await c.runOn(facts(address, port), net)) out.push(`${c.id}: ${f.detail}`);
  return out;
}

const WEAK: DnsPolicy = { transfer: true, update: true, version: true };
const HARD: DnsPolicy = { transfer: false, update: false, version: false };

test('NSD: provide-xfr 0.0.0.0/0 NOKEY gives the zone away and version.bind says NSD; the twin is silent', {
  skip: !which('nsd') && 'nsd is not installed (apt-get install nsd)',
}, async () => {
  const args = (f: string) => ['-d', '-c', f];
  const [weak, hard] = await Promise.all([
    server('nsd', nsdConf, args, '127.0.71.31', WEAK),
    server('nsd', nsdConf, args, '127.0.71.32', HARD),
  ]);
  const found = await run('127.0.71.31', weak);
  assert.ok(
    found.some((f) => /^vigil\.dns\.axfr: AXFR answered for: shop-nsd\.test \(\d+ records/.test(f)),
    `${found}`,
  );
  assert.ok(
    found.some((f) => /^vigil\.version\.bind\.version-bind: .*"NSD 4/.test(f)),
    `${found}`,
  );
  // The disclosure is information (LOG): it is not an alarm where transfers are closed.
  const [disclosure] = await version.runOn(facts('127.0.71.31', weak), netFor('127.0.71.31'));
  assert.equal(disclosure!.type, 'LOG');
  assert.deepEqual(await run('127.0.71.32', hard), []);
});

test('Knot DNS: transfer and update ACLs for anyone are found (update served back, then deleted); the twin is silent', {
  skip: !which('knotd') && 'knot is not installed (apt-get install knot)',
}, async () => {
  const args = (f: string) => ['-c', f];
  const [weak, hard] = await Promise.all([
    server('knot', knotConf, args, '127.0.71.33', WEAK),
    server('knot', knotConf, args, '127.0.71.34', HARD),
  ]);
  const found = await run('127.0.71.33', weak);
  assert.ok(
    found.some((f) => /^vigil\.dns\.axfr: AXFR answered for: shop-knot\.test/.test(f)),
    `${found}`,
  );
  assert.ok(
    found.some((f) => /^vigil\.dns\.dynamic-update: UPDATE of zone shop-knot\.test .*served that record back/.test(f)),
    `${found}`,
  );
  assert.ok(
    found.some((f) => /"Knot DNS 3/.test(f)),
    `${found}`,
  );
  assert.deepEqual(await run('127.0.71.34', hard), []);
});

test('dnsmasq: auth-zone with auth-sec-servers and no auth-peer transfers to anyone; auth-peer and no-ident: silent', {
  skip: !which('dnsmasq') && 'dnsmasq is not installed (apt-get install dnsmasq-base)',
}, async () => {
  const args = (f: string) => ['-k', '-C', f];
  const [weak, hard] = await Promise.all([
    server('dnsmasq', dnsmasqConf, args, '127.0.71.35', WEAK),
    server('dnsmasq', dnsmasqConf, args, '127.0.71.36', HARD),
  ]);
  const found = await run('127.0.71.35', weak);
  assert.ok(
    found.some((f) => /^vigil\.dns\.axfr: AXFR answered for: shop-dnsmasq\.test/.test(f)),
    `${found}`,
  );
  assert.ok(
    found.some((f) => /"dnsmasq-2/.test(f)),
    `${found}`,
  );
  assert.deepEqual(await run('127.0.71.36', hard), []);
});

test('dnsmasq forwarding for anyone is open recursion (its cache clears the upstream AA); authoritative only: silent', {
  skip: !(which('dnsmasq') && which('nsd')) && 'dnsmasq or nsd is not installed',
}, async () => {
  // The upstream: an NSD authoritative for example.com, so the forwarded question never leaves loopback.
  const nsdDir = tempDir('nsd-upstream');
  const upstream = await daemon('127.0.71.37', which('nsd')!, (port) => {
    const file = join(nsdDir, `nsd-${port}.conf`);
    writeFileSync(file, nsdConf('127.0.71.37', port, nsdDir, 'example.com', HARD));
    return ['-d', '-c', file];
  });
  const dir = tempDir('dnsmasq-forwarder');
  const open = await daemon('127.0.71.38', which('dnsmasq')!, (port) => {
    const file = join(dir, `dnsmasq-${port}.conf`);
    writeFileSync(file, dnsmasqForwarderConf('127.0.71.38', port, dir, `127.0.71.37#${upstream}`));
    return ['-k', '-C', file];
  });
  const auth = await server('dnsmasq', dnsmasqConf, (f) => ['-k', '-C', f], '127.0.71.39', HARD);
  const ask = (address: string, port: number) => recursion.runOn(facts(address, port), netFor(address));
  const [f] = await ask('127.0.71.38', open);
  // Asked the first time, dnsmasq passes the upstream's AA bit through; the repeat comes from its cache.
  assert.match(
    f!.detail,
    /www\.example\.com was answered with RA set, and asked again it came from the server's cache/,
  );
  assert.deepEqual(await ask('127.0.71.39', auth), []);
  // The upstream itself is authoritative, not a resolver: silent.
  assert.deepEqual(await ask('127.0.71.37', upstream), []);
});
