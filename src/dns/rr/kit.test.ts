import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import dnsPacket, { type Answer } from 'dns-packet';
import { hasTool } from '../../../test/helpers/tools.ts';
import { parseMasterFile } from '../master-file.ts';
import { buildZone, type ZoneModel } from '../zone.ts';
import {
  ADDABLE,
  answerOf,
  displayOf,
  isZoneRecord,
  parseRecord,
  RECORD_TYPES,
  replyOf,
  type StoredData,
  typeByWire,
  zoneLines,
} from './index.ts';
import { defaultSoa } from './soa.ts';

/**
 * Every type of the table, by its own example (its `add.example`), through
 * every conversion it owns: form -> stored -> records reply -> zone text ->
 * import -> wire -> transfer -> signed text. A new type is tested here by
 * the line that lists it; its own test file has its RFC rules.
 */
const ZONE = 'example.org';
const parsed = (t: (typeof ADDABLE)[number]) => parseRecord(t.type, { ...t.add!.example, ttl: '3600' }, ZONE);

/** The stored data as a transfer or an import gives it back: the TTL rides beside it. */
const sameData = (a: StoredData, b: StoredData) => assert.deepEqual({ ...a, ttl: undefined }, { ...b, ttl: undefined });

for (const t of ADDABLE) {
  describe(`record type ${t.type}`, () => {
    test('its example parses, within its declared size bound, and reads back in the records reply', () => {
      const d = parsed(t);
      assert.ok(JSON.stringify(d).length <= t.bound, `${JSON.stringify(d).length} > bound ${t.bound}`);
      const reply = replyOf(t.type, d);
      assert.equal(reply.ttl, 3600);
      assert.ok(displayOf(t.type, d).length > 0);
      for (const f of t.add!.fields) {
        assert.ok(f.code === undefined || f.code.startsWith('syntaxInvalid') || f.code === 'unspecifiedError');
      }
    });

    test('the form refuses each required field when it is absent, with a code', () => {
      for (const f of t.add!.fields.filter((f) => f.required && !f.blank)) {
        const fields: Record<string, string | undefined> = { ...t.add!.example, [f.name]: undefined };
        assert.throws(() => parseRecord(t.type, fields, ZONE), { name: 'ApiError' }, f.name);
      }
    });

    if (!isZoneRecord(t)) return;

    test('zone text reads back (import) to the same stored data', () => {
      const d = parsed(t);
      const lines = zoneLines(t.type, d, ZONE, 3600);
      assert.equal(lines.length, 1);
      const file = parseMasterFile(`${lines[0]}\n`, `${ZONE}.`);
      assert.deepEqual(file.errors, []);
      const r = file.records[0]!;
      const rel = r.owner === `${ZONE}.` ? '' : r.owner.slice(0, -ZONE.length - 2);
      sameData(parseRecord(t.type, { ...t.fromText!(rel, r.rdata, r.origin) }, ZONE), d);
    });

    test('the wire form (answers, transfers) round-trips, and presents as its zone text does', () => {
      const d = parsed(t);
      const answer = answerOf(t.type, d, ZONE, 3600)!;
      const packet = dnsPacket.decode(dnsPacket.encode({ type: 'response', id: 1, answers: [answer] }));
      const back = packet.answers![0]! as Answer & { data: unknown };
      const kit = typeByWire(back.type)!;
      assert.equal(kit.type, t.type);
      const rel = back.name === ZONE ? '' : back.name.slice(0, -ZONE.length - 1);
      sameData(kit.wire!.decode(back.data, rel)!, d);
      assert.equal(kit.wire!.present(back.data), t.rdata!(d));
    });
  });
}

test("BIND's and Knot's checkers accept a zone of every type's example", { skip: !hasTool('named-checkzone') }, () => {
  const records = ADDABLE.filter(isZoneRecord).map((t, i) => ({ seq: i + 2, type: t.type, data: parsed(t) }));
  const model: ZoneModel = {
    zone: ZONE,
    serial: 2026112701,
    records: [
      { seq: 1, type: RECORD_TYPES.SOA.type, data: defaultSoa(ZONE, 'ns.example.net') },
      ...records,
      // The NS example's delegation needs its glue.
      { seq: 99, type: RECORD_TYPES.A.type, data: { name: 'ns1.lab', data: '192.0.2.53' } },
      { seq: 100, type: RECORD_TYPES.NS.type, data: { name: '', data: 'ns1.ns.example.net.' } },
    ],
  };
  const dir = mkdtempSync(join(tmpdir(), 'vigil-kit-'));
  const file = join(dir, `${ZONE}.zone`);
  writeFileSync(file, buildZone(model));
  execFileSync('named-checkzone', ['-i', 'local', '-k', 'fail', ZONE, file]);
  if (hasTool('kzonecheck')) execFileSync('kzonecheck', ['-o', ZONE, file]);
});
