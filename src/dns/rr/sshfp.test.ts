import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash, generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import dnsPacket, { type Answer } from 'dns-packet';
import { checkZoneText, codeOf, importedAs } from './test-kit.ts';
import { displayLine, type Fields, line } from './kit.ts';
import { SSHFP, type SshfpData } from './sshfp.ts';

const Z = 'example.org';
// A real host key: the SSH public key blob (RFC 4253 6.6, RFC 8709 4) and its fingerprints (RFC 4255 3.1.2).
const raw = Buffer.from(generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' }).x!, 'base64url');
const str = (b: Buffer) => Buffer.concat([Buffer.from([0, 0, 0, b.length]), b]);
const BLOB = Buffer.concat([str(Buffer.from('ssh-ed25519')), str(raw)]);
const SHA1 = createHash('sha1').update(BLOB).digest('hex');
const SHA256 = createHash('sha256').update(BLOB).digest('hex');

const base: Fields = { name: '', algorithm: '4', fptype: '2', fingerprint: SHA256 };
const p = (change: Fields) => SSHFP.parse({ ...base, ...change }, Z);
const add = (change: Fields) => codeOf(() => p(change));

/** A zone file's SSHFP records read back as add fields, then parsed: the import's path. */
function imported(text: string): SshfpData[] {
  return importedAs(SSHFP, text, Z);
}

test('the add: numbers as numbers, the fingerprint as sent', () => {
  const d = SSHFP.parse(base, Z);
  assert.deepEqual(d, { name: '', algorithm: 4, fptype: 2, fingerprint: SHA256 });
  assert.deepEqual(SSHFP.reply(d), { name: '', algorithm: 4, fptype: 2, fingerprint: SHA256 });
  assert.equal(SSHFP.owner(p({ name: 'Host.example.org.' })), 'host');
  assert.equal(p({ name: '@' }).name, '');
  assert.equal(p({ fptype: '1', fingerprint: SHA1.toUpperCase() }).fingerprint, SHA1.toUpperCase(), 'any case, kept');
  for (const algorithm of [1, 2, 3, 4, 6]) assert.equal(p({ algorithm: String(algorithm) }).algorithm, algorithm);
  assert.equal(displayLine(SSHFP.display, SSHFP.reply(d)), `@ → algorithm 4, fingerprint type 2: ${SHA256}`);
  assert.equal(SSHFP.rdata(d), `4 2 ${SHA256.toUpperCase()}`, 'written upper case');
});

test('each bad field answers its own code', () => {
  for (const name of [undefined, 'a b', '*', 'x.other.net.', '-x', 'a..b'])
    assert.equal(add({ name }), 'syntaxInvalidHostname', `name ${name}`);
  for (const algorithm of [undefined, '', '0', '5', '7', '255', 'ED25519', '-4', '4.0'])
    assert.equal(add({ algorithm }), 'syntaxInvalidAlgorithm', `algorithm ${algorithm}`);
  for (const fptype of [undefined, '', '0', '3', '255', 'SHA-256'])
    assert.equal(add({ fptype }), 'syntaxInvalidFptype', `fptype ${fptype}`);
  const fingerprints: [string, string | undefined][] = [
    ['2', undefined],
    ['2', ''],
    ['2', SHA1], // 20 bytes for SHA-256's 32
    ['1', SHA256],
    ['2', `${SHA256}00`],
    ['2', SHA256.slice(1)],
    ['2', `${SHA256.slice(2)}zz`],
    ['1', `SHA1:${SHA1}`],
    ['2', Buffer.from(SHA256, 'hex').toString('base64')], // what `ssh-keygen -l` prints
  ];
  for (const [fptype, fingerprint] of fingerprints)
    assert.equal(add({ fptype, fingerprint }), 'syntaxInvalidFingerprint', `type ${fptype}, ${fingerprint}`);
});

test('the bound covers the largest record a transfer can store', () => {
  const d = { name: 'a'.repeat(253), algorithm: 255, fptype: 2, fingerprint: 'A'.repeat(64) };
  assert.equal(JSON.stringify({ ...d, ttl: 2147483647 }).length, SSHFP.bound);
});

const RECORDS: Fields[] = [
  base,
  SSHFP.add.example,
  { name: '', algorithm: '4', fptype: '1', fingerprint: SHA1 },
  { name: 'git', algorithm: '1', fptype: '2', fingerprint: SHA256.toUpperCase() },
  { name: 'git', algorithm: '3', fptype: '2', fingerprint: SHA256 },
  { name: 'old.hosts', algorithm: '2', fptype: '1', fingerprint: SHA1 },
  { name: 'new', algorithm: '6', fptype: '2', fingerprint: SHA256 },
];
const data = RECORDS.map((f) => SSHFP.parse(f, Z));
const zoneText = [
  '$ORIGIN example.org.',
  '$TTL 3600',
  '@\t3600\tIN\tSOA\tns1.example.net. hostmaster.example.net. 1 7200 900 1209600 300',
  '@\t3600\tIN\tNS\tns1.example.net.',
  ...data.map((d) => line(d.name, Z, 300, 'SSHFP', SSHFP.rdata(d)!)),
  // Split by blanks, as BIND and Knot take it (and fromText joins).
  `split\t300\tIN\tSSHFP\t4 2 ${SHA256.slice(0, 30)} ${SHA256.slice(30)}`,
  '',
].join('\n');

function check(tool: string, args: (file: string) => string[]) {
  return checkZoneText(tool, args, zoneText);
}

test("BIND's named-checkzone accepts the zone text", (t) => {
  if (!existsSync('/usr/bin/named-checkzone')) return t.skip('named-checkzone absent (Debian: bind9-utils)');
  const r = check('/usr/bin/named-checkzone', (file) => ['-i', 'local', '-k', 'fail', Z, file]);
  assert.ok(r.ok, `${r.output}\n${zoneText}`);
});

test("Knot's kzonecheck accepts the zone text", (t) => {
  if (!existsSync('/usr/bin/kzonecheck')) return t.skip('kzonecheck absent (Debian: knot-dnssecutils)');
  const r = check('/usr/bin/kzonecheck', (file) => ['-o', Z, file]);
  assert.ok(r.ok, `${r.output}\n${zoneText}`);
});

test('zone text -> fromText -> parse gives the same stored data (hex upper case, as written)', () => {
  const upper = (d: SshfpData) => ({ ...d, fingerprint: d.fingerprint.toUpperCase() });
  assert.deepEqual(imported(zoneText), [...data.map(upper), { ...data[0]!, name: 'split' }]);
  assert.equal(
    codeOf(() => imported('x SSHFP 4 2\n')),
    'syntaxInvalidAlgorithm',
  );
  assert.equal(
    codeOf(() => imported(`x SSHFP 4 1 ${SHA256}\n`)),
    'syntaxInvalidFingerprint',
  );
});

test('what `ssh-keygen -r` prints imports as the same records', (t) => {
  if (!existsSync('/usr/bin/ssh-keygen')) return t.skip('ssh-keygen absent');
  const dir = mkdtempSync(join(tmpdir(), 'vigil-sshfp-'));
  try {
    writeFileSync(join(dir, 'key.pub'), `ssh-ed25519 ${BLOB.toString('base64')} test\n`);
    const r = spawnSync('ssh-keygen', ['-r', 'host', '-f', join(dir, 'key.pub')], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(imported(r.stdout), [
      { name: 'host', algorithm: 4, fptype: 1, fingerprint: SHA1 },
      { name: 'host', algorithm: 4, fptype: 2, fingerprint: SHA256 },
    ]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the wire: a whole response through dns-packet gives the same data, and present is rdata', () => {
  for (const d of data) {
    const answer = { type: SSHFP.wire.type, name: 'x.example.org', ttl: 300, class: 'IN', data: SSHFP.wire.encode(d) };
    const packet = dnsPacket.encode({ type: 'response', id: 7, answers: [answer as unknown as Answer] });
    const [got] = dnsPacket.decode(packet).answers ?? [];
    assert.equal(got?.type, 'SSHFP');
    const rd = (got as { data: unknown }).data;
    // dns-packet upper-cases the fingerprint: it comes back so, whatever case was sent.
    assert.deepEqual(SSHFP.wire.decode(rd, d.name), { ...d, fingerprint: d.fingerprint.toUpperCase() });
    assert.equal(SSHFP.wire.present(rd), SSHFP.rdata(d));
    assert.equal('canonical' in SSHFP.wire, false, 'SSHFP RDATA holds no name');
  }
  // dns-packet reads as many bytes as the type fixes: any other type decodes to no fingerprint, not held.
  assert.equal(SSHFP.wire.decode({ algorithm: 4, hash: 3, fingerprint: '' }, 'x'), null);
  assert.equal(SSHFP.wire.decode({ algorithm: 4, hash: 1, fingerprint: SHA256 }, 'x'), null);
  assert.equal(SSHFP.wire.present({ algorithm: 4, hash: 3, fingerprint: '' }), null, 'RFC 3597 generic form');
  assert.deepEqual(SSHFP.wire.decode({ algorithm: 200, hash: 1, fingerprint: SHA1.toUpperCase() }, 'x'), {
    name: 'x',
    algorithm: 200,
    fptype: 1,
    fingerprint: SHA1.toUpperCase(),
  });
  assert.equal(SSHFP.rdata({ ...data[0]!, fingerprint: 'AB\n@ NS evil.' }), null, 'a stored fingerprint not hex');
});

test('an SSHFP of a type dns-packet does not know leaves the rest of a message readable (RDLENGTH is followed)', () => {
  const sshfp = Buffer.from([0, 6, 4, 3, 1, 2, 3, 4]); // RDLENGTH 6: algorithm 4, fptype 3, four bytes
  const head = (type: number) => {
    const b = Buffer.alloc(10);
    b.writeUInt16BE(type, 2);
    b.writeUInt16BE(1, 4);
    b.writeUInt32BE(60, 6);
    return Buffer.concat([Buffer.from([1, 120, 0]), b.subarray(2)]); // owner "x."
  };
  const a = Buffer.concat([head(1), Buffer.from([0, 4, 192, 0, 2, 1])]);
  const header = Buffer.from([0, 1, 0x84, 0, 0, 0, 0, 2, 0, 0, 0, 0]);
  const packet = dnsPacket.decode(Buffer.concat([header, head(44), sshfp, a]));
  const [first, second] = packet.answers as { type: string; data: unknown }[];
  assert.equal(first!.type, 'SSHFP');
  assert.deepEqual(first!.data, { algorithm: 4, hash: 3, fingerprint: '01020304' });
  assert.equal(second!.type, 'A');
  assert.equal(second!.data, '192.0.2.1');
  assert.equal(SSHFP.wire.decode(first!.data, 'x'), null, 'a type Vigil does not hold');
});
