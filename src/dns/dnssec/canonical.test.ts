import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Answer } from 'dns-packet';
import { ManualClock } from '../../clock.ts';
import { labels, nameWire, rdataWire, rrsetWire, rrsigLabels, sortNames } from './canonical.ts';
import { bigZone, bindVerify, HAVE_KZONECHECK, HAVE_VERIFY, knotCheck } from './fixture.ts';
import { generateKey } from './keys.ts';
import { masterFile } from './present.ts';
import { DEFAULT_TIMERS, needsRefresh, signatureWindow } from './sign.ts';
import { signZone } from './zone.ts';

test('canonical name order: the example of RFC 4034 6.1', () => {
  const expected = [
    'example',
    'a.example',
    'yljkjljk.a.example',
    'Z.a.example',
    'zABC.a.EXAMPLE',
    'z.example',
    '\\001.z.example',
    '*.z.example',
    '\\200.z.example',
  ];
  const shuffled = [...expected].reverse();
  shuffled.push(shuffled.shift()!);
  assert.deepEqual(sortNames(shuffled), expected);
});

test('canonical names: lowercased, escapes undone, wildcard not counted in RRSIG labels', () => {
  assert.deepEqual(nameWire('WWW.Example'), Buffer.from('\x03www\x07example\x00', 'latin1'));
  assert.deepEqual(labels('a\\.b.c'), [Buffer.from('a.b'), Buffer.from('c')]);
  assert.equal(nameWire('.').length, 1);
  assert.equal(rrsigLabels('*.dev.example'), 2);
  assert.equal(rrsigLabels('www.example'), 2);
  assert.throws(() => nameWire(`${'x'.repeat(64)}.example`));
});

test('an RRset in canonical form: records ordered by RDATA, duplicates once, names in RDATA lowered, text kept', () => {
  const mx = (pref: number, exchange: string): Answer => ({
    type: 'MX',
    name: 'Example',
    ttl: 60,
    class: 'IN',
    data: { preference: pref, exchange },
  });
  const a = rrsetWire(nameWire('Example'), 'MX', 300, [mx(20, 'B.example'), mx(10, 'a.example'), mx(10, 'A.EXAMPLE')]);
  const b = rrsetWire(nameWire('example'), 'MX', 300, [mx(10, 'a.example'), mx(20, 'b.example')]);
  assert.deepEqual(a, b);
  const txt = (s: string): Answer => ({ type: 'TXT', name: 'example', ttl: 60, class: 'IN', data: [Buffer.from(s)] });
  assert.notDeepEqual(
    rrsetWire(nameWire('example'), 'TXT', 60, [txt('ABC')]),
    rrsetWire(nameWire('example'), 'TXT', 60, [txt('abc')]),
  );
});

test("an SOA mailbox with an escaped dot: RDATA exactly RDLENGTH long (dns-packet's buffer has a byte more)", () => {
  const soa: Answer = {
    type: 'SOA',
    name: 'example',
    ttl: 60,
    class: 'IN',
    data: { mname: 'ns1.example', rname: 'John\\.Doe.example', serial: 1, refresh: 2, retry: 3, expire: 4, minimum: 5 },
  };
  const w = rdataWire(soa);
  assert.equal(w.length, 2 + w.readUInt16BE(0));
  assert.ok(w.includes(Buffer.from('\x08john.doe\x07example\x00', 'latin1')));
});

test('timers: 14 days of validity, an hour back, refresh with 7 days left, on the injected clock', () => {
  const clock = new ManualClock(Date.UTC(2026, 0, 1));
  const w = signatureWindow(clock);
  const now = Date.UTC(2026, 0, 1) / 1000;
  assert.deepEqual(w, { inception: now - 3600, expiration: now + 14 * 86400 });
  const keys = [
    { key: generateKey('ksk'), sign: true },
    { key: generateKey('zsk'), sign: true },
  ];
  const signed = signZone('t.example', bigZone('t.example', 3), keys, { clock });
  assert.equal(signed.refreshAt, (now + 7 * 86400) * 1000);
  const rrsig = signed.records.find((r) => r.type === 'RRSIG')!.data as never;
  assert.equal(needsRefresh(rrsig, clock), false);
  clock.advance(7 * 86400_000 - 1000);
  assert.equal(needsRefresh(rrsig, clock), false);
  clock.advance(2000);
  assert.equal(needsRefresh(rrsig, clock), true);
  assert.equal(DEFAULT_TIMERS.validity - DEFAULT_TIMERS.refresh, 7 * 86400);
});

test('rollover states: a pre-published ZSK is in the DNSKEY set and signs nothing; two KSKs both sign the DNSKEY set', (t) => {
  const clock = new ManualClock(Date.now());
  const zsk = generateKey('zsk');
  const next = generateKey('zsk');
  const ksk = generateKey('ksk');
  const ksk2 = generateKey('ksk');
  const keys = [
    { key: ksk, sign: true },
    { key: ksk2, sign: true },
    { key: zsk, sign: true },
    { key: next, sign: false },
  ];
  const signed = signZone('roll.example', bigZone('roll.example', 5), keys, { clock });
  const tags = (type: string) =>
    signed.records
      .filter((r) => r.type === 'RRSIG' && (r.data as { typeCovered: string }).typeCovered === type)
      .map((r) => ((r as { data: unknown }).data as { keyTag: number }).keyTag);
  assert.equal(signed.records.filter((r) => r.type === 'DNSKEY').length, 4);
  assert.deepEqual(tags('DNSKEY').sort(), [ksk.tag, ksk2.tag].sort());
  assert.deepEqual(tags('A'), Array(5).fill(zsk.tag));
  assert.ok(!signed.records.some((r) => r.type === 'RRSIG' && (r.data as { keyTag: number }).keyTag === next.tag));
  assert.throws(() =>
    signZone(
      'roll.example',
      bigZone('roll.example', 1),
      [
        { key: ksk, sign: true },
        { key: zsk, sign: false },
      ],
      { clock },
    ),
  );
  const text = masterFile(signed.records);
  if (HAVE_VERIFY) assert.ok(bindVerify('roll.example', text).ok);
  if (HAVE_KZONECHECK) assert.ok(knotCheck('roll.example', text, Math.floor(clock.now() / 1000)).ok);
  if (!HAVE_VERIFY || !HAVE_KZONECHECK) t.diagnostic('a validator is missing');
});

test('signZone refuses records outside the zone, a zone without SOA, and keys that cannot sign', () => {
  const clock = new ManualClock();
  const keys = [
    { key: generateKey('ksk'), sign: true },
    { key: generateKey('zsk'), sign: true },
  ];
  const code = (fn: () => unknown, c: string) => assert.throws(fn, (e: { code?: string }) => e.code === c);
  const zone = bigZone('in.example', 2);
  code(
    () =>
      signZone(
        'in.example',
        [...zone, { type: 'A', name: 'notin.example', ttl: 60, class: 'IN', data: '192.0.2.1' }],
        keys,
        { clock },
      ),
    'recordOutsideZone',
  );
  code(
    () =>
      signZone(
        'in.example',
        [...zone, { type: 'A', name: 'xin.example', ttl: 60, class: 'IN', data: '192.0.2.1' }],
        keys,
        { clock },
      ),
    'recordOutsideZone',
  );
  code(
    () =>
      signZone(
        'in.example',
        zone.filter((r) => r.type !== 'SOA'),
        keys,
        { clock },
      ),
    'zoneHasNoSoa',
  );
  code(() => signZone('in.example', zone, keys.slice(1), { clock }), 'noActiveKey');
  // The zone name may come with its final dot and in any case.
  assert.ok(signZone('IN.example.', zone, keys, { clock }).records.length > zone.length);
});
