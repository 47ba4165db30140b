import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ManualClock } from '../../clock.ts';
import { cdsRecords, generateKey, signZone } from './index.ts';
import { everyTypeZone, ZONE } from './fixture.ts';
import { masterFile } from './present.ts';
import { decodeSigned, encodeSigned } from './wire.ts';

const SIGNER = new Set(['DNSKEY', 'RRSIG', 'NSEC', 'NSEC3', 'NSEC3PARAM', 'CDS', 'CDNSKEY']);

for (const denial of ['nsec', 'nsec3'] as const) {
  test(`the signer's records (${denial}) round-trip through the stored wire form unchanged`, () => {
    const ksk = generateKey('ksk');
    const zsk = generateKey('zsk');
    const input = [...everyTypeZone(), ...cdsRecords(ZONE, [ksk], 3600)];
    const signed = signZone(
      ZONE,
      input,
      [
        { key: ksk, sign: true },
        { key: zsk, sign: true },
      ],
      { clock: new ManualClock(Date.UTC(2026, 10, 1)), denial },
    );
    const added = signed.records.filter((r) => SIGNER.has(r.type));
    const back = decodeSigned(encodeSigned(added));
    // Presentation form compares every field, Buffers included.
    assert.equal(masterFile(back), masterFile(added));
    assert.ok(back.some((r) => r.type === (denial === 'nsec' ? 'NSEC' : 'NSEC3')));
  });
}
