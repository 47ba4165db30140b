import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ManualClock } from '../../clock.ts';
import { cdsRecords, deleteCds } from './cds.ts';
import { bigZone, bindVerify, HAVE_KZONECHECK, HAVE_VERIFY, knotCheck } from './fixture.ts';
import { dsText, generateKey } from './keys.ts';
import { masterFile } from './present.ts';
import { signZone } from './zone.ts';

/** CDS/CDNSKEY for the parent (RFC 7344, 8078), checked by Knot (which matches CDNSKEY to DNSKEY) and BIND. */
const Z = 'cds.example';

test('CDS and CDNSKEY: the KSK as its DS, signed by the KSK; one naming a key not published is refused; the delete form', (t) => {
  if (!HAVE_KZONECHECK || !HAVE_VERIFY) t.diagnostic('a validator is missing: checks skipped');
  const clock = new ManualClock(Date.now());
  const ksk = generateKey('ksk');
  const zsk = generateKey('zsk');
  const keys = [
    { key: ksk, sign: true },
    { key: zsk, sign: true },
  ];
  const check = (extra: ReturnType<typeof cdsRecords>) => {
    const signed = signZone(Z, [...bigZone(Z, 2), ...extra], keys, { clock });
    const text = masterFile(signed.records);
    return {
      text,
      signed,
      bind: HAVE_VERIFY ? bindVerify(Z, text).ok : null,
      knot: HAVE_KZONECHECK ? knotCheck(Z, text, Math.floor(clock.now() / 1000)).ok : null,
    };
  };
  const good = check(cdsRecords(Z, [ksk], 3600));
  assert.match(good.text, new RegExp(`\\tCDS\\t${dsText(Z, ksk)}\\n`));
  const sigs = good.signed.records.filter(
    (r) =>
      r.type === 'RRSIG' &&
      ['CDS', 'CDNSKEY'].includes(((r as { data: unknown }).data as { typeCovered: string }).typeCovered),
  );
  assert.deepEqual(
    sigs.map((r) => ((r as { data: unknown }).data as { keyTag: number }).keyTag),
    [ksk.tag, ksk.tag],
  );
  if (HAVE_VERIFY) assert.equal(good.bind, true);
  if (HAVE_KZONECHECK) assert.equal(good.knot, true);
  if (HAVE_KZONECHECK) assert.equal(check(cdsRecords(Z, [generateKey('ksk')], 3600)).knot, false);
  const del = check(deleteCds(Z, 3600));
  assert.match(del.text, /\tCDS\t0 0 0 00\n/);
  assert.match(del.text, /\tCDNSKEY\t0 3 0 AA==\n/);
  if (HAVE_KZONECHECK) assert.equal(del.knot, true);
});
