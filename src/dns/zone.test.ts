import assert from 'node:assert/strict';
import { test } from 'node:test';
import { defaultSoa, RECORD_TYPES } from './records.ts';
import { txtStrings } from './text.ts';
import { validateZone } from './validate.ts';
import { buildZone, nextSerial, type ZoneModel, type ZoneRecord } from './zone.ts';

const Z = 'example.com';
let seq = 0;
const rec = (type: ZoneRecord['type'], fields: Record<string, string>): ZoneRecord => ({ seq: ++seq, type, data: RECORD_TYPES[type].parse(fields, Z) });
const model = (...records: ZoneRecord[]): ZoneModel => ({
  zone: Z,
  serial: 2026112301,
  records: [{ seq: ++seq, type: 'SOA', data: defaultSoa(Z, 'ns.vigil.test') }, rec('NS', { subdomain: '', nameserver: 'ns1.ns.vigil.test.' }), ...records],
});

test('serials: YYYYMMDDnn, always rising', () => {
  const d = new Date(Date.UTC(2026, 10, 23, 23, 59));
  assert.equal(nextSerial(null, d), 2026112301);
  assert.equal(nextSerial(2025010199, d), 2026112301);
  assert.equal(nextSerial(2026112301, d), 2026112302);
  assert.equal(nextSerial(2026112399, d), 2026112400, 'past 99 a day it keeps rising');
});

test('zone text: header, SOA first, sorted, absolute owners, TTL = SOA minimum', () => {
  const text = buildZone(model(rec('A', { name: 'www', ip: '192.0.2.1' }), rec('A', { name: '', ip: '192.0.2.2' })));
  const lines = text.trimEnd().split('\n');
  assert.equal(lines[0], '$ORIGIN example.com.');
  assert.equal(lines[1], '$TTL 86400');
  assert.match(lines[2]!, /^example\.com\.\t86400\tIN\tSOA\tns1\.ns\.vigil\.test\. hostmaster\.example\.com\. 2026112301 10800 3600 1209600 86400$/);
  assert.deepEqual(lines.slice(3), [
    'example.com.\t86400\tIN\tA\t192.0.2.2',
    'example.com.\t86400\tIN\tNS\tns1.ns.vigil.test.',
    'www.example.com.\t86400\tIN\tA\t192.0.2.1',
  ]);
});

test('TXT: split at 255 bytes, quotes, backslashes and control bytes escaped', () => {
  assert.equal(txtStrings('a"b\\c'), '"a\\"b\\\\c"');
  assert.equal(txtStrings('x\ny'), '"x\\010y"');
  assert.equal(txtStrings('ü'), '"\\195\\188"');
  const long = txtStrings('a'.repeat(600));
  assert.equal(long, `"${'a'.repeat(255)}" "${'a'.repeat(255)}" "${'a'.repeat(90)}"`);
});

test('validation errors', () => {
  const errs = (m: ZoneModel) => validateZone(m).errors.join(' | ');
  assert.match(errs(model(rec('CNAME', { alias: '', name: 'www' }))), /CNAME at the zone apex/);
  assert.match(errs(model(rec('CNAME', { alias: 'x', name: 'www' }), rec('A', { name: 'x', ip: '192.0.2.1' }))), /beside other records/);
  assert.match(errs(model(rec('CNAME', { alias: 'x', name: 'a' }), rec('CNAME', { alias: 'x', name: 'b' }))), /more than one CNAME/);
  assert.match(errs(model(rec('NS', { subdomain: 'sub', nameserver: 'ns.sub' }))), /needs a glue/);
  assert.equal(errs(model(rec('NS', { subdomain: 'sub', nameserver: 'ns.sub' }), rec('A', { name: 'ns.sub', ip: '192.0.2.9' }))), '');
  assert.match(errs(model(rec('MX', { name: '', mxname: '192.0.2.1.', priority: '1' }))), /IP address/);
  assert.match(errs(model(rec('SRV', { srvc: 'sip', prot: 'tcp', host: '', pri: '1', weight: '1', port: '1', target: '192.0.2.1.' }))), /IP address/);
  const noNs: ZoneModel = { zone: Z, serial: 1, records: [{ seq: 1, type: 'SOA', data: defaultSoa(Z, 'ns.vigil.test') }] };
  assert.match(errs(noNs), /no NS record/);
});

test('validation warnings', () => {
  const warns = (m: ZoneModel) => validateZone(m).warnings.join(' | ');
  assert.match(warns(model(rec('MX', { name: '', mxname: 'mx', priority: '1' }), rec('CNAME', { alias: 'mx', name: 'www' }))), /which is a CNAME/);
  assert.match(warns(model(rec('A', { name: 'a', ip: '192.0.2.1' }), rec('A', { name: 'a', ip: '192.0.2.1' }))), /duplicate A/);
  const low = model();
  (low.records[0]!.data as { min: number }).min = 60;
  assert.match(warns(low), /below 300/);
  assert.match(warns(model(rec('NS', { subdomain: 'sub', nameserver: 'ns.other.org.' }), rec('A', { name: 'www.sub', ip: '192.0.2.1' }))), /below the delegation/);
  assert.equal(validateZone(model(rec('A', { name: 'www', ip: '192.0.2.1' }))).warnings.length, 0);
});
