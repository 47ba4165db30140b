import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { DnssecError } from './errors.ts';
import { dnskeyRdata, dsData, dsText, exportPrivateKey, generateKey, importKey, keyTag } from './keys.ts';
import { recordLine } from './present.ts';
import { openPrivateKey, sealPrivateKey } from './seal.ts';

const HAVE_BIND =
  spawnSync('which', ['dnssec-dsfromkey']).status === 0 && spawnSync('which', ['dnssec-keygen']).status === 0;
const Z = 'keys.example';

function inTmp<T>(fn: (dir: string) => T): T {
  const dir = mkdtempSync(join(tmpdir(), 'vigil-keys-'));
  try {
    return fn(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('keys: P-256 and Ed25519, KSK 257 and ZSK 256, public key fields of the RFC sizes', () => {
  const p = generateKey('ksk');
  assert.equal(p.algorithm, 13);
  assert.equal(p.flags, 257);
  assert.equal(p.publicKey.length, 64); // RFC 6605 4: x | y
  const e = generateKey('zsk', 15);
  assert.equal(e.flags, 256);
  assert.equal(e.publicKey.length, 32); // RFC 8080 3
  assert.throws(
    () => generateKey('zsk', 8 as 13),
    (err: DnssecError) => err.code === 'unsupportedAlgorithm',
  );
});

test("key tag and DS agree with BIND's dnssec-dsfromkey, both algorithms", (t) => {
  if (!HAVE_BIND) return t.skip('BIND tools not installed');
  for (const alg of [13, 15] as const) {
    const key = generateKey('ksk', alg);
    const line = recordLine({
      type: 'DNSKEY',
      name: Z,
      ttl: 3600,
      class: 'IN',
      data: { flags: key.flags, algorithm: key.algorithm, key: key.publicKey },
    });
    const bind = inTmp((dir) => {
      writeFileSync(join(dir, 'k'), `${line}\n`);
      return spawnSync('dnssec-dsfromkey', ['-2', '-f', join(dir, 'k'), Z], { encoding: 'utf8' });
    });
    assert.equal(bind.status, 0, bind.stderr);
    // "keys.example. IN DS 12345 13 2 ABCDEF…"
    assert.equal(bind.stdout.trim().split(/\s+/).slice(3).join(' '), dsText(Z, key));
    assert.equal(dsData(Z, key).keyTag, key.tag);
  }
});

test("key tag of keys BIND made: the tag in dnssec-keygen's file name", (t) => {
  if (!HAVE_BIND) return t.skip('BIND tools not installed');
  for (const [alg, name] of [
    [13, 'ECDSAP256SHA256'],
    [15, 'ED25519'],
  ] as const) {
    inTmp((dir) => {
      const r = spawnSync('dnssec-keygen', ['-q', '-K', dir, '-a', name, '-f', 'KSK', Z], { encoding: 'utf8' });
      assert.equal(r.status, 0, r.stderr);
      const file = readdirSync(dir).find((f) => f.endsWith('.key'))!;
      const tag = Number(/\+\d{3}\+(\d{5})\.key$/.exec(file)![1]);
      const rr = readFileSync(join(dir, file), 'utf8')
        .split('\n')
        .find((l) => /\sDNSKEY\s/.test(l))!;
      const [flags, , algorithm, ...b64] = rr
        .split(/\sDNSKEY\s/)[1]!
        .trim()
        .split(/\s+/);
      assert.equal(Number(algorithm), alg);
      assert.equal(
        keyTag(dnskeyRdata({ flags: Number(flags), algorithm: alg, key: Buffer.from(b64.join(''), 'base64') })),
        tag,
      );
    });
  }
});

test('a key exported and imported is the same key', () => {
  for (const alg of [13, 15] as const) {
    const key = generateKey('zsk', alg);
    const back = importKey('zsk', alg, exportPrivateKey(key));
    assert.equal(back.tag, key.tag);
    assert.deepEqual(back.publicKey, key.publicKey);
    // An Ed25519 private key read as P-256 is refused, not mis-keyed.
    assert.throws(
      () => importKey('zsk', alg === 13 ? 15 : 13, exportPrivateKey(key)),
      (e: DnssecError) => e.code === 'unsupportedAlgorithm',
    );
  }
});

test('sealed private keys: open with the same key and binding only; tampering, truncation and wrong keys fail', () => {
  const kek = Buffer.alloc(32, 7);
  const der = exportPrivateKey(generateKey('ksk'));
  const sealed = sealPrivateKey(der, kek, 'keys.example/ksk/1');
  assert.match(sealed, /^v1\.[A-Za-z0-9+/]+=*$/);
  assert.deepEqual(openPrivateKey(sealed, kek, 'keys.example/ksk/1'), der);
  // A fresh IV each time: the same key sealed twice gives two blobs.
  assert.notEqual(sealPrivateKey(der, kek, 'keys.example/ksk/1'), sealed);
  const fails = (fn: () => unknown, code = 'keyUnsealFailed') =>
    assert.throws(fn, (e: DnssecError) => e instanceof DnssecError && e.code === code);
  fails(() => openPrivateKey(sealed, Buffer.alloc(32, 8), 'keys.example/ksk/1'));
  fails(() => openPrivateKey(sealed, kek, 'other.example/ksk/1'));
  const raw = Buffer.from(sealed.slice(3), 'base64');
  raw[20] = raw[20]! ^ 1;
  fails(() => openPrivateKey(`v1.${raw.toString('base64')}`, kek, 'keys.example/ksk/1'));
  fails(() => openPrivateKey(sealed.slice(0, 30), kek, 'keys.example/ksk/1'));
  fails(() => openPrivateKey(`v2.${sealed.slice(3)}`, kek, 'keys.example/ksk/1'));
  fails(() => sealPrivateKey(der, Buffer.alloc(31), 'x'), 'badKeyEncryptionKey');
  fails(() => openPrivateKey(sealed, Buffer.alloc(16), 'x'), 'badKeyEncryptionKey');
});
