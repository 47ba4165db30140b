/**
 * Zone transfer to anyone on a real BIND: zones found from the server's own PTR/SOA answers, AXFR'd; the twin
 * refuses.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { namedAuthoritative } from '../../../../test/helpers/daemons-net.ts';
import { which } from '../../../../test/helpers/daemons-kit.ts';
import { Fence } from '../fence.ts';
import type { HostFacts } from '../types.ts';
import { dnsZoneTransfer } from './dns-axfr.ts';
import { dnsRecursion } from './services-net.ts';

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
  const [f] = await dnsZoneTransfer.run(facts(WEAK, weak), fence.net(WEAK));
  assert.match(f!.detail, /example\.test \(7 records.*intranet\.example\.test A/);
  assert.match(f!.detail, /41\.0\.127\.in-addr\.arpa/);
  assert.deepEqual(await dnsZoneTransfer.run(facts(HARD, hard), fence.net(HARD)), []);
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
  const [f] = await dnsRecursion.run(facts(OPEN, open), dns.net(OPEN));
  assert.match(f!.detail, /SERVFAIL with RA set/);
  assert.deepEqual(await dnsRecursion.run(facts(CLOSED, closed), dns.net(CLOSED)), []);
});
