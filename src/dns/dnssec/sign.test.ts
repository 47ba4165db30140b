import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Answer } from 'dns-packet';
import { ManualClock } from '../../clock.ts';
import { bindVerify, everyTypeZone, HAVE_KZONECHECK, HAVE_VERIFY, knotCheck, ZONE } from './fixture.ts';
import { generateKey, type Algorithm } from './keys.ts';
import { nsec3Hash, base32hex } from './nsec3.ts';
import { masterFile } from './present.ts';
import { signZone, type KeyUse } from './zone.ts';

/**
 * The signer against real validators: BIND's dnssec-verify and Knot's
 * kzonecheck read the signed zone as master-file text and check every
 * signature, the NSEC chain and its bitmaps. The clock starts at the real
 * time because dnssec-verify can only validate at the system's time.
 */
const clock = () => new ManualClock(Date.now());
const nowSeconds = (c: ManualClock) => Math.floor(c.now() / 1000);

function keysFor(algorithm: Algorithm): KeyUse[] {
  return [
    { key: generateKey('ksk', algorithm), sign: true },
    { key: generateKey('zsk', algorithm), sign: true },
  ];
}

function sign(algorithm: Algorithm, c = clock(), denial: 'nsec' | 'nsec3' = 'nsec') {
  return { c, signed: signZone(ZONE, everyTypeZone(), keysFor(algorithm), { clock: c, denial }) };
}

for (const [algorithm, denial] of [
  [13, 'nsec'],
  [15, 'nsec'],
  [13, 'nsec3'],
  [15, 'nsec3'],
] as const) {
  test(`a zone with every record type, algorithm ${algorithm}, ${denial.toUpperCase()}, validates with dnssec-verify and kzonecheck`, (t) => {
    const { c, signed } = sign(algorithm, clock(), denial);
    const text = masterFile(signed.records);
    if (!HAVE_VERIFY) t.diagnostic('dnssec-verify not installed');
    else {
      const v = bindVerify(ZONE, text);
      assert.ok(v.ok, `${v.output}\n${text}`);
    }
    if (!HAVE_KZONECHECK) t.diagnostic('kzonecheck not installed');
    else {
      const k = knotCheck(ZONE, text, nowSeconds(c));
      assert.ok(k.ok, `${k.output}\n${text}`);
    }
  });
}

test('signed records: wildcard labels, empty non-terminals, the delegation and its glue', () => {
  const { signed } = sign(13);
  const rrsigs = signed.records.filter((r) => r.type === 'RRSIG') as Extract<Answer, { type: 'RRSIG' }>[];
  const nsecs = signed.records.filter((r) => r.type === 'NSEC') as Extract<Answer, { type: 'NSEC' }>[];
  // RFC 4034 3.1.3: a wildcard's signature counts labels without the `*`.
  const wild = rrsigs.find((r) => r.name === `*.dev.${ZONE}`)!;
  assert.equal(wild.data.labels, 3);
  // deep.er and er hold nothing: no NSEC of their own, the chain steps over them.
  const names = nsecs.map((n) => n.name);
  assert.ok(!names.includes(`deep.er.${ZONE}`) && !names.includes(`er.${ZONE}`));
  assert.ok(names.includes(`v6.deep.er.${ZONE}`));
  // The delegation: NSEC says NS only (no A: that is the child's), nothing signed but the NSEC; glue out of the chain.
  const cut = nsecs.find((n) => n.name === `sub.${ZONE}`)!;
  assert.deepEqual(cut.data.rrtypes, ['NS', 'RRSIG', 'NSEC']);
  assert.deepEqual(
    rrsigs.filter((r) => r.name === `sub.${ZONE}`).map((r) => r.data.typeCovered),
    ['NSEC'],
  );
  assert.ok(!names.includes(`ns1.sub.${ZONE}`));
  // A secure delegation: DS in the bitmap and signed, NS still not.
  assert.deepEqual(nsecs.find((n) => n.name === `secure.${ZONE}`)!.data.rrtypes, ['NS', 'DS', 'RRSIG', 'NSEC']);
  assert.deepEqual(
    rrsigs
      .filter((r) => r.name === `secure.${ZONE}`)
      .map((r) => r.data.typeCovered)
      .sort(),
    ['DS', 'NSEC'],
  );
  assert.ok(!rrsigs.some((r) => r.name === `ns1.sub.${ZONE}`));
  // The chain is a ring: the last points back to the apex.
  assert.equal(nsecs.at(-1)!.data.nextDomain, ZONE);
  // The DNSKEY set is signed by the KSK only, everything else by the ZSK.
  const dnskeySigs = rrsigs.filter((r) => r.data.typeCovered === 'DNSKEY');
  assert.equal(dnskeySigs.length, 1);
});

test('NSEC3: hashes as RFC 5155 appendix A, empty non-terminals in the chain, an insecure delegation without RRSIG in its bitmap', () => {
  // RFC 5155 appendix A: salt aabbccdd, 12 iterations.
  assert.equal(base32hex(nsec3Hash('example', 12, Buffer.from('aabbccdd', 'hex'))), '0p9mhaveqvm6t7vbl5lop2u3t2rp3tom');
  assert.equal(
    base32hex(nsec3Hash('a.example', 12, Buffer.from('aabbccdd', 'hex'))),
    '35mthgpgcu1qg68fab165klnsnk3dpvl',
  );
  const { signed } = sign(13, clock(), 'nsec3');
  const byHash = new Map(
    signed.records
      .filter((r) => r.type === 'NSEC3')
      .map((r) => [r.name.split('.')[0], (r.data as { rrtypes: string[] }).rrtypes]),
  );
  const of = (name: string) => byHash.get(base32hex(nsec3Hash(name)));
  assert.deepEqual(of(`deep.er.${ZONE}`), []);
  assert.deepEqual(of(`sub.${ZONE}`), ['NS']);
  assert.deepEqual(of(`secure.${ZONE}`), ['NS', 'DS', 'RRSIG']);
  assert.equal(of(`ns1.sub.${ZONE}`), undefined);
  assert.ok(of(ZONE)!.includes('NSEC3PARAM'));
  assert.ok(!signed.records.some((r) => r.type === 'NSEC'));
  // Both validators miss the empty non-terminal's NSEC3 when it is taken out.
  const ent = base32hex(nsec3Hash(`deep.er.${ZONE}`));
  const broken = masterFile(signed.records.filter((r) => !r.name.startsWith(ent)));
  if (HAVE_VERIFY) assert.match(bindVerify(ZONE, broken).output, /Missing NSEC3 record for deep\.er/);
  if (HAVE_KZONECHECK) assert.equal(knotCheck(ZONE, broken, Math.floor(Date.now() / 1000)).ok, false);
});

test('a tampered record, a missing signature and expired signatures fail both validators', (t) => {
  if (!HAVE_VERIFY || !HAVE_KZONECHECK) return t.skip('dnssec-verify or kzonecheck not installed');
  const { c, signed } = sign(13);
  const good = masterFile(signed.records);
  // One address changed after signing.
  const tampered = good.replace('\tA\t192.0.2.25', '\tA\t192.0.2.26');
  assert.notEqual(tampered, good);
  assert.equal(bindVerify(ZONE, tampered).ok, false);
  assert.equal(knotCheck(ZONE, tampered, nowSeconds(c)).ok, false);
  // An RRset whose signature was dropped.
  const unsigned = masterFile(
    signed.records.filter(
      (r) =>
        !(r.type === 'RRSIG' && r.name === `mail.${ZONE}` && (r.data as { typeCovered: string }).typeCovered === 'A'),
    ),
  );
  assert.equal(bindVerify(ZONE, unsigned).ok, false);
  assert.equal(knotCheck(ZONE, unsigned, nowSeconds(c)).ok, false);
  // Signed a month ago: past the 14-day validity at the real time.
  const old = new ManualClock(c.now() - 30 * 86400_000);
  const expired = masterFile(signZone(ZONE, everyTypeZone(), keysFor(13), { clock: old }).records);
  assert.equal(knotCheck(ZONE, expired, nowSeconds(c)).ok, false);
  assert.equal(bindVerify(ZONE, expired).ok, false);
});
