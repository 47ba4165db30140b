import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Answer } from 'dns-packet';
import { ManualClock } from '../../clock.ts';
import { everyTypeZone, HAVE_KZONECHECK, knotCheck, ZONE } from './fixture.ts';
import { generateKey } from './keys.ts';
import { masterFile } from './present.ts';
import { signZone, type KeyUse, type SignedZone } from './zone.ts';

/**
 * Re-signing keeps what has not changed (reuse.ts), on the injected clock;
 * Knot's kzonecheck checks each result at the clock's time (-t).
 */
const DAY = 86400_000;
const ksk = generateKey('ksk');
const zsk = generateKey('zsk');
const next = generateKey('zsk');

function again(clock: ManualClock, records: Answer[], keys: KeyUse[], previous: SignedZone): SignedZone {
  const signed = signZone(ZONE, records, keys, { clock, previous: previous.signatures });
  if (HAVE_KZONECHECK) {
    const v = knotCheck(ZONE, masterFile(signed.records), Math.floor(clock.now() / 1000));
    assert.ok(v.ok, v.output);
  }
  return signed;
}

test('re-signing reuses the signatures of unchanged RRsets, re-makes changed ones, and all of them once due', (t) => {
  if (!HAVE_KZONECHECK) t.diagnostic('kzonecheck not installed: signatures not validated');
  const clock = new ManualClock(Date.UTC(2026, 5, 1));
  const keys: KeyUse[] = [
    { key: ksk, sign: true },
    { key: zsk, sign: true },
  ];
  const records = everyTypeZone();
  const first = signZone(ZONE, records, keys, { clock });
  const total = first.signatures.made;
  assert.equal(first.signatures.reused, 0);

  // A day later, nothing changed: every signature is the previous one.
  clock.advance(DAY);
  const same = again(clock, records, keys, first);
  assert.deepEqual([same.signatures.made, same.signatures.reused], [0, total]);
  assert.equal(same.refreshAt, first.refreshAt);

  // One address changed: its A set only. A new name: its set, its NSEC and the NSEC before it (mail: both its sets).
  const changed = records.map((r) => (r.type === 'A' && r.name === `mail.${ZONE}` ? { ...r, data: '192.0.2.26' } : r));
  changed.push({ type: 'A', name: `mailer.${ZONE}`, ttl: 3600, class: 'IN', data: '192.0.2.27' });
  const edited = again(clock, changed, keys, same);
  assert.equal(edited.signatures.made, 1 + 1 + 1 + 1);
  assert.equal(edited.signatures.reused, total - 2);

  // A pre-published ZSK changes the DNSKEY set: its KSK signature only.
  const prepub = again(clock, changed, [...keys, { key: next, sign: false }], edited);
  assert.equal(prepub.signatures.made, 1);

  // The new ZSK signs, the old one stays published: every ZSK signature is new.
  const rolled = again(
    clock,
    changed,
    [
      { key: ksk, sign: true },
      { key: zsk, sign: false },
      { key: next, sign: true },
    ],
    prepub,
  );
  assert.equal(rolled.signatures.made, total + 2 - 1);

  // Within the refresh margin (7 days left of 14): everything re-made, and refreshAt moves on.
  clock.set(rolled.refreshAt);
  const refreshed = again(
    clock,
    changed,
    [
      { key: ksk, sign: true },
      { key: next, sign: true },
    ],
    rolled,
  );
  assert.equal(refreshed.signatures.reused, 0);
  assert.equal(refreshed.refreshAt, clock.now() + 7 * DAY);
});
