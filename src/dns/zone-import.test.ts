import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { DnsSettings } from './domains.ts';
import { applyToModel } from './zone-batch.ts';
import { planImport } from './zone-import.ts';
import { buildZone, type ZoneModel } from './zone.ts';
import { EVERY_TYPE_ZONE, everyTypeZone, freshZone } from './every-type.fixture.ts';

const Z = EVERY_TYPE_ZONE;
const SETTINGS = { nsDomain: 'ns.vigil.test', maxZoneRecords: 20_000, maxZoneBytes: 4 << 20 } as DnsSettings;
let seq = 0;
const fresh = (): ZoneModel => freshZone(() => ++seq);
/** Every type, with its own TTL on some records (src/dns/every-type.fixture.ts). */
const everyType = (): ZoneModel => everyTypeZone(() => ++seq, { ttls: true });

test('round trip without a store: every type -> zone text -> import into a new zone -> the same text', () => {
  const text = buildZone(everyType());
  const plan = planImport(SETTINGS, fresh(), text);
  assert.deepEqual(plan.reply.errors, []);
  assert.deepEqual(plan.reply.warnings, ['4 record(s) equal to records already in the zone (TTL aside) were skipped']);
  assert.equal(plan.reply.imported, 37, 'every zone record but the SOA and the four default NS');
  assert.equal(buildZone(applyToModel(fresh(), plan.batch)), text);
});

test('the import refuses what the adds refuse, and skips what it does not host, with its reasons', () => {
  const plan = planImport(
    SETTINGS,
    fresh(),
    `www A 192.0.2.1
www A 192.0.2.1
1.2.0.192.in-addr.arpa. PTR www
@ DNSKEY 257 3 13 AAAA
@ RRSIG A 13 2 3600 1 2 3 ${Z}. AAAA
_x._tcp SRV 0 0 99999 www
@ CAA 0 issue "bad domain!"
$ORIGIN other.example.
x A 192.0.2.1
`,
  );
  assert.deepEqual(plan.reply.errors, [
    'line 6: _x._tcp.xn--bcher-kva.example. SRV: syntaxInvalidPort',
    'line 7: xn--bcher-kva.example. CAA: unspecifiedError',
  ]);
  assert.deepEqual(plan.reply.warnings.sort(), [
    '1 DNSKEY record(s) were skipped: Vigil does not host DNSKEY records',
    '1 RRSIG record(s) were skipped: Vigil does not host RRSIG records',
    '1 record(s) equal to records already in the zone (TTL aside) were skipped',
    '2 record(s) outside xn--bcher-kva.example were skipped (first: 1.2.0.192.in-addr.arpa.)',
  ]);
  assert.equal(plan.reply.imported, 0);
});

test('a text of garbage: every line read, the first 100 errors told and the rest counted', () => {
  const lines = 20_000;
  const plan = planImport(SETTINGS, fresh(), `${'x A 999.0.0.1 ; ("\n'.repeat(lines)}${'('.repeat(50_000)}`);
  assert.equal(plan.reply.errors.length, 101);
  assert.equal(plan.reply.errors[0], 'line 20001: "(" is never closed');
  assert.equal(plan.reply.errors[100], `… and ${lines + 1 - 100} more errors`);
});
