import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { test } from 'node:test';
import type { Answer } from 'dns-packet';
import { indexAnswers } from '../server/zone-index.ts';
import { HealthContext } from './context.ts';
import { countLookups, parseSpf } from './spf.ts';
import { HEALTH_CHECKS, runChecks } from './table.ts';

/** A zone's records as the name server indexes them (a slave's copy may hold what Vigil's own forms refuse). */
function zoneOf(zone: string, answers: object[]) {
  const soa = {
    type: 'SOA',
    name: zone,
    ttl: 3600,
    data: {
      mname: `ns1.${zone}`,
      rname: `hostmaster.${zone}`,
      serial: 1,
      refresh: 10800,
      retry: 3600,
      expire: 1209600,
      minimum: 3600,
    },
  } as Answer;
  const index = indexAnswers(zone, soa, answers as Answer[], { allowtransferacl: '', notify: '', alsonotify: '' });
  return new HealthContext(zone, index, false, Date.UTC(2026, 10, 27), null, null);
}

test('an MX that names an address (as a slave copy may hold it) is an ERROR; the zone alone needs no network', async () => {
  const ctx = zoneOf('copy.test', [
    { type: 'MX', name: 'copy.test', ttl: 3600, data: { preference: 10, exchange: '192.0.2.1' } },
    { type: 'NS', name: 'copy.test', ttl: 3600, data: 'ns1.copy.test' },
    { type: 'NS', name: 'copy.test', ttl: 3600, data: 'ns2.copy.test' },
  ]);
  const found = await runChecks(ctx, HEALTH_CHECKS);
  const mx = found.find((f) => f.id === 'mail.mx-address');
  assert.equal(mx?.level, 'ERROR');
  assert.equal(
    found.find((f) => f.id === 'dangling.ns')?.level,
    'ERROR',
    'ns1.copy.test is in the zone and does not exist',
  );
});

test('SPF: the grammar of RFC 7208 §12, and look-ups counted through include and redirect', async () => {
  assert.deepEqual(parseSpf('v=spf1 ip6:2001:db8::/32 ip4:192.0.2.0/24 a/24 mx:example.org//64 -all').faults, []);
  assert.equal(parseSpf('v=spf1 ip6:2001:db8::/32 -all').all, '-');
  assert.match(parseSpf('v=spf1 ip6:2001:db8::/129 -all').faults.join(), /prefix/);
  assert.match(parseSpf('v=spf1 foo:bar -all').faults.join(), /unknown mechanism foo/);
  assert.match(parseSpf('v=spf1 redirect=a.test redirect=b.test').faults.join(), /twice/);
  assert.match(parseSpf('v=spf1 include -all').faults.join(), /needs a domain/);
  assert.equal(parseSpf('v=spf1 -all exp=explain.test').faults.length, 0);
  const records: Record<string, string> = {
    'a.test': 'v=spf1 include:b.test a mx -all',
    'b.test': 'v=spf1 redirect=c.test',
    'c.test': 'v=spf1 a mx ptr exists:x.test -all',
  };
  const txt = async (n: string) => (records[n] ? [records[n]!] : []);
  // a.test: include, a, mx (3) + b.test: redirect (1) + c.test: a, mx, ptr, exists (4).
  assert.equal(await countLookups(parseSpf(records['a.test']!), txt), 8);
  // A loop is counted once, not forever.
  records['c.test'] = 'v=spf1 include:a.test -all';
  assert.equal(await countLookups(parseSpf(records['a.test']!), txt, 0, new Set(['a.test'])), 5);
});

test('docs/dns.md lists every check of the table with its level and reference', () => {
  const doc = readFileSync(resolve(import.meta.dirname, '../../../docs/dns.md'), 'utf8');
  for (const c of HEALTH_CHECKS) assert.ok(doc.includes(`| \`${c.id}\` | ${c.level} | ${c.reference} |`), c.id);
  const ids = HEALTH_CHECKS.map((c) => c.id);
  assert.equal(new Set(ids).size, ids.length, 'ids are unique');
});
