import assert from 'node:assert/strict';
import { test } from 'node:test';
import { defaultSoa, RECORD_TYPES, type Fields } from './records.ts';
import { presentName, txtStrings } from './text.ts';
import { buildZone, nextSerial, soaOf, type ZoneModel, type ZoneRecord } from './zone.ts';

const Z = 'example.com';
let seq = 0;
const rec = (type: ZoneRecord['type'], fields: Fields): ZoneRecord => ({
  seq: ++seq,
  type,
  data: RECORD_TYPES[type].parse(fields, Z),
});
const model = (...records: ZoneRecord[]): ZoneModel => ({
  zone: Z,
  serial: 2026112301,
  records: [
    { seq: ++seq, type: 'SOA', data: defaultSoa(Z, 'ns.vigil.test') },
    rec('NS', { subdomain: '', nameserver: 'ns1.ns.vigil.test.' }),
    ...records,
  ],
});

test('serials: YYYYMMDDnn in UTC, always rising', () => {
  const d = new Date(Date.UTC(2026, 10, 23, 23, 59));
  assert.equal(nextSerial(null, d), 2026112301);
  assert.equal(nextSerial(0, d), 2026112301);
  assert.equal(nextSerial(2025010199, d), 2026112301);
  assert.equal(nextSerial(2026112301, d), 2026112302);
  assert.equal(nextSerial(2026112399, d), 2026112400, 'past 99 a day it keeps rising');
  assert.equal(nextSerial(2026112400, d), 2026112401, 'and stays monotonic the same day');
  assert.equal(nextSerial(null, new Date('2026-01-02T00:30:00+01:00')), 2026010101, 'UTC, not local time');
});

test('zone text: header, SOA first, sorted, absolute owners, TTL = SOA minimum', () => {
  const text = buildZone(model(rec('A', { name: 'www', ip: '192.0.2.1' }), rec('A', { name: '', ip: '192.0.2.2' })));
  assert.ok(text.endsWith('\n'));
  assert.deepEqual(text.trimEnd().split('\n'), [
    '$ORIGIN example.com.',
    '$TTL 86400',
    'example.com.\t86400\tIN\tSOA\tns1.ns.vigil.test. hostmaster.example.com. 2026112301 10800 3600 1209600 86400',
    'example.com.\t86400\tIN\tA\t192.0.2.2',
    'example.com.\t86400\tIN\tNS\tns1.ns.vigil.test.',
    'www.example.com.\t86400\tIN\tA\t192.0.2.1',
  ]);
});

test('zone text: owners in tree order, then type, then seq; Options and forwarding left out', () => {
  const m = model(
    rec('A', { name: 'www', ip: '192.0.2.3' }),
    rec('A', { name: 'ns1.sub', ip: '192.0.2.9' }),
    rec('TXT', { name: 'a', txtdata: 'x' }),
    rec('A', { name: 'a', ip: '192.0.2.4' }),
    rec('NS', { subdomain: 'sub', nameserver: 'ns1.sub.example.com' }),
    rec('A', { name: 'www', ip: '192.0.2.1' }),
    rec('A', { name: 'a-b', ip: '192.0.2.5' }),
    rec('WebForwarding', { host: 'go', target: 'https://example.org/' }),
    { seq: ++seq, type: 'Options', data: { masters: '', allowtransferacl: '', notify: 'yes', alsonotify: '' } },
  );
  const owners = buildZone(m)
    .trimEnd()
    .split('\n')
    .slice(3)
    .map((l) => l.split('\t').slice(0, 5).join(' '));
  assert.deepEqual(owners, [
    'example.com. 86400 IN NS ns1.ns.vigil.test.',
    'a.example.com. 86400 IN A 192.0.2.4',
    'a.example.com. 86400 IN TXT "x"',
    'a-b.example.com. 86400 IN A 192.0.2.5',
    'sub.example.com. 86400 IN NS ns1.sub.example.com.',
    'ns1.sub.example.com. 86400 IN A 192.0.2.9',
    'www.example.com. 86400 IN A 192.0.2.3',
    'www.example.com. 86400 IN A 192.0.2.1',
  ]);
  const shuffled = { ...m, records: [...m.records].reverse() };
  assert.equal(buildZone(shuffled), buildZone(m), 'the order records come in does not matter');
});

test('zone text: the SOA minimum is every record TTL', () => {
  const m = model(rec('MX', { name: '', mxname: 'mail', priority: '5' }));
  (soaOf(m) as { min: number }).min = 600;
  const text = buildZone(m);
  assert.match(text, /^\$TTL 600$/m);
  for (const l of text.trimEnd().split('\n').slice(2)) assert.equal(l.split('\t')[1], '600');
});

test('zone text: a model without SOA is a fault, not a zone', () => {
  assert.throws(() => buildZone({ zone: Z, serial: 1, records: [] }), /no SOA/);
});

test('TXT: split at 255 bytes, quotes, backslashes and other bytes escaped', () => {
  assert.equal(txtStrings('plain text; (ok)'), '"plain text; (ok)"');
  assert.equal(txtStrings('a"b\\c'), '"a\\"b\\\\c"');
  assert.equal(txtStrings('x\ny'), '"x\\010y"');
  assert.equal(txtStrings('ü'), '"\\195\\188"');
  assert.equal(txtStrings(''), '""');
  assert.equal(txtStrings('a'.repeat(600)), `"${'a'.repeat(255)}" "${'a'.repeat(255)}" "${'a'.repeat(90)}"`);
  // 255 bytes per string, counted before escaping: 300 quotes make two strings of 255 and 45.
  assert.equal(txtStrings('"'.repeat(300)), `"${'\\"'.repeat(255)}" "${'\\"'.repeat(45)}"`);
});

test('names in zone text: safe names pass, anything else is byte-escaped', () => {
  assert.equal(presentName('_sip._tcp.example.com.'), '_sip._tcp.example.com.');
  assert.equal(presentName('john\\.doe.example.com.'), 'john\\.doe.example.com.');
  assert.equal(presentName('a b;c.'), 'a\\032b\\059c.');
  assert.equal(presentName('$x\n.'), '\\036x\\010.');
  assert.equal(presentName('ü.'), '\\195\\188.');
  assert.equal(presentName('a\\b.'), 'a\\092b.');
});
