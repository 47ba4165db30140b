/**
 * Zone transfer to anyone on a real BIND: zones found from the server's own PTR/SOA answers, AXFR'd; the twin
 * refuses.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { namedAuthoritative } from '../../../../test/helpers/daemons-net.ts';
import { which } from '../../../../test/helpers/daemons-kit.ts';
import { Fence } from '../../engine/fence.ts';
import type { HostFacts } from '../../engine/types.ts';
import { dnsAsk } from '../../proto/dns.ts';
import { checkById } from '../catalogue.ts';

const dnsZoneTransfer = checkById('vigil.dns.axfr');
const dnsRecursion = checkById('vigil.dns.recursion');
const dnsUpdate = checkById('vigil.dns.dynamic-update');

const WEAK = '127.0.41.16';
const HARD = '127.0.41.17';
const fence = new Fence([WEAK, HARD], ['127.0.0.0/8']);
const facts = (address: string, port: number): HostFacts => ({
  address,
  openPorts: [port],
  services: [
    {
      port,
      protocol: 'tcp',
      name: 'domain',
      product: null,
      version: null,
      banner: null,
      tls: null,
      http: null,
      extra: {},
    },
  ],
});

test('BIND: allow-transfer any gives away example.test (found from its PTR), allow-transfer none does not', {
  skip: !which('named') && 'bind9 not installed',
}, async () => {
  const [weak, hard] = await Promise.all([namedAuthoritative(WEAK, true), namedAuthoritative(HARD, false)]);
  const [f] = await dnsZoneTransfer.runOn(facts(WEAK, weak), fence.net(WEAK));
  assert.match(f!.detail, /example\.test \(7 records.*intranet\.example\.test A/);
  assert.match(f!.detail, /41\.0\.127\.in-addr\.arpa/);
  assert.deepEqual(await dnsZoneTransfer.runOn(facts(HARD, hard), fence.net(HARD)), []);
});

test('BIND: recursion for anyone, offline (SERVFAIL with RA) is open recursion; recursion no is not', {
  skip: !which('named') && 'bind9 not installed',
}, async () => {
  const [OPEN, CLOSED] = ['127.0.41.24', '127.0.41.25'];
  const dns = new Fence([OPEN, CLOSED], ['127.0.0.0/8']);
  const [open, closed] = await Promise.all([
    namedAuthoritative(OPEN, false, { recursion: true }),
    namedAuthoritative(CLOSED, false),
  ]);
  const [f] = await dnsRecursion.runOn(facts(OPEN, open), dns.net(OPEN));
  assert.match(f!.detail, /SERVFAIL with RA set/);
  assert.deepEqual(await dnsRecursion.runOn(facts(CLOSED, closed), dns.net(CLOSED)), []);
});

test('BIND: allow-update { any; } takes a TXT from anyone (served back, then deleted); the default refuses', {
  skip: !which('named') && 'bind9 not installed',
}, async () => {
  const [OPEN, SHUT] = ['127.0.41.26', '127.0.41.27'];
  const dns = new Fence([OPEN, SHUT], ['127.0.0.0/8']);
  const [open, shut] = await Promise.all([
    namedAuthoritative(OPEN, false, { update: true }),
    namedAuthoritative(SHUT, false),
  ]);
  const [f, ...more] = await dnsUpdate.runOn(facts(OPEN, open), dns.net(OPEN));
  assert.equal(more.length, 0);
  assert.match(f!.detail, /UPDATE of zone example\.test adding vigil-update-[0-9a-f]+\.example\.test TXT/);
  assert.match(f!.detail, /served that record back.*deleted again \(UPDATE answered NOERROR\)/);
  // Cleaned up: the probe's name is gone from the zone.
  const name = /adding (\S+) TXT/.exec(f!.detail)![1]!;
  const left = await dnsAsk(dns.net(OPEN), open, name, 'TXT');
  assert.equal(left?.rcode, 'NXDOMAIN');
  assert.deepEqual(await dnsUpdate.runOn(facts(SHUT, shut), dns.net(SHUT)), []);
});
