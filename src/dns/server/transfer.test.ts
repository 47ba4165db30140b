import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Packet } from 'dns-packet';
import { defaultSoa } from '../records.ts';
import type { ZoneModel } from '../zone.ts';
import { ServingSet } from './serving-set.ts';
import { transferAllowed, transferRecords } from './transfer.ts';

const Z = 'ixfr.example';
const model = (serial: number, ip: string): ZoneModel => ({
  zone: Z,
  serial,
  records: [
    { seq: 1, type: 'SOA', data: defaultSoa(Z, 'ns.vigil.test') },
    { seq: 2, type: 'NS', data: { name: '', data: 'ns1.ns.vigil.test.' } },
    { seq: 3, type: 'A', data: { name: 'www', data: ip } },
    { seq: 4, type: 'Options', data: { masters: '', allowtransferacl: '192.0.2.0/24', notify: '', alsonotify: '' } },
  ],
});
const ixfr = (serial: number): Packet => ({
  type: 'query',
  id: 1,
  questions: [{ type: 'IXFR', name: Z, class: 'IN' }],
  authorities: [
    {
      type: 'SOA',
      name: Z,
      ttl: 0,
      class: 'IN',
      data: { mname: 'x', rname: 'x', serial, refresh: 0, retry: 0, expire: 0, minimum: 0 },
    },
  ],
});
const show = (rrs: any[]) => rrs.map((a) => (a.type === 'SOA' ? `SOA ${a.data.serial}` : `${a.type} ${a.data}`));

test('IXFR: the difference from the previous version, the SOA when up to date, else a full transfer', () => {
  const set = new ServingSet();
  set.replace([model(2026010101, '192.0.2.1')]);
  set.replace([model(2026010102, '192.0.2.2')]);
  const zone = set.find(Z)!;
  assert.deepEqual(show(transferRecords(zone, ixfr(2026010101))), [
    'SOA 2026010102',
    'SOA 2026010101',
    'A 192.0.2.1',
    'SOA 2026010102',
    'A 192.0.2.2',
    'SOA 2026010102',
  ]);
  assert.deepEqual(show(transferRecords(zone, ixfr(2026010102))), ['SOA 2026010102']);
  const full = show(transferRecords(zone, ixfr(2025010101)));
  assert.deepEqual([full[0], full.at(-1)], ['SOA 2026010102', 'SOA 2026010102']);
  assert.ok(full.includes('A 192.0.2.2') && !full.includes('A 192.0.2.1'));
});

test('transfer ACL: secondaries and the zone allowtransferacl only', () => {
  const set = new ServingSet();
  set.replace([model(1, '192.0.2.1')]);
  const zone = set.find(Z)!;
  assert.ok(transferAllowed(zone, '192.0.2.77', []));
  assert.ok(transferAllowed(zone, '::ffff:192.0.2.77', []));
  assert.ok(!transferAllowed(zone, '198.51.100.1', []));
  assert.ok(transferAllowed(zone, '198.51.100.1', [{ address: '198.51.100.1', port: 53 }]));
});

test('transfer ACL: an entry stored as ::a.b.c.d (IPv4-compatible) is not the IPv4 address', () => {
  const set = new ServingSet();
  const m = model(1, '192.0.2.1');
  const options = m.records.find((r) => r.type === 'Options');
  if (options) options.data = { ...options.data, allowtransferacl: '::192.0.2.77' };
  else
    m.records.push({
      seq: 99,
      type: 'Options',
      data: { masters: '', allowtransferacl: '::192.0.2.77', notify: '', alsonotify: '' },
    });
  set.replace([m]);
  const zone = set.find(Z)!;
  assert.ok(!transferAllowed(zone, '192.0.2.77', []), 'ipaddr.js alone read it as ::ffff:192.0.2.77');
  assert.ok(transferAllowed(zone, '::c000:24d', []));
});
