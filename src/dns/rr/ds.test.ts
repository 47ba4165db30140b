import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { test } from 'node:test';
import dnsPacket, { type Answer } from 'dns-packet';
import { checkZoneText, codeOf, importedAs } from './test-kit.ts';
import { DS, type DsData } from './ds.ts';
import { displayLine, type Fields, line } from './kit.ts';

const Z = 'example.org';
// RFC 4034 5.4's example, and RFC 4509's SHA-256 of the same key.
const SHA1 = '2BB183AF5F22588179A53B0A98631FAD1A292118';
const SHA256 = 'D4B7D520E7BB5F0F67674A0CCEB1E3E0614B93C4F9E99B8383F6A1E4469DA50A';
// RFC 6605 6.2's SHA-384 DS.
const SHA384 = '72d7b62976ce06438e9c0bf319013cf801f09ecc84b8d7e9495f27e305c6a9b0563a9b5f4d288405c3008a946df983d6';
const base: Fields = { name: 'child', keytag: '60485', algorithm: '5', digesttype: '1', digest: SHA1 };
const p = (change: Fields) => DS.parse({ ...base, ...change }, Z);
const add = (change: Fields) => codeOf(() => p(change));

/** A zone file's DS records read back as add fields, then parsed: the import's path. */
function imported(text: string): DsData[] {
  return importedAs(DS, text, Z);
}

test('the add: numbers as numbers, the digest as sent', () => {
  const d = DS.parse(base, Z);
  assert.deepEqual(d, { name: 'child', keytag: 60485, algorithm: 5, digesttype: 1, digest: SHA1 });
  assert.deepEqual(DS.reply(d), { name: 'child', keytag: 60485, algorithm: 5, digesttype: 1, digest: SHA1 });
  assert.equal(DS.owner(d), 'child');
  assert.equal(p({ name: 'Sub.Child.example.org.' }).name, 'sub.child');
  assert.equal(p({ name: '_acme-challenge' }).name, '_acme-challenge');
  assert.equal(p({ digesttype: '2', digest: SHA256.toLowerCase() }).digest, SHA256.toLowerCase(), 'any case, kept');
  assert.equal(p({ digest: '2BB183AF 5F22588179A53B0A 98631FAD1A292118' }).digest, SHA1, 'blanks taken out');
  assert.equal(p({ digesttype: '4', algorithm: '14', digest: SHA384 }).digest, SHA384);
  assert.equal(p({ digesttype: '3', algorithm: '12', digest: SHA256 }).digesttype, 3);
  assert.equal(p({ keytag: '0' }).keytag, 0);
  assert.equal(p({ keytag: '65535' }).keytag, 65535);
  for (const algorithm of [3, 5, 6, 7, 8, 10, 12, 13, 14, 15, 16, 17, 23, 253, 254])
    assert.equal(p({ algorithm: String(algorithm) }).algorithm, algorithm);
  assert.equal(displayLine(DS.display, DS.reply(d)), `child → key 60485, algorithm 5, digest type 1: ${SHA1}`);
  assert.equal(DS.rdata(p({ digest: SHA1.toLowerCase() })), `60485 5 1 ${SHA1}`, 'written upper case');
});

test('each bad field answers its own code', () => {
  for (const name of [undefined, '', '@', 'example.org.', 'a b', '*', 'x.other.net.'])
    assert.equal(add({ name }), 'syntaxInvalidHostname', `name ${name}: the apex's DS is the parent's`);
  for (const keytag of [undefined, '', '-1', '65536', '1.5', 'abc', ' 1', '0x10', '99999999999'])
    assert.equal(add({ keytag }), 'syntaxInvalidKeytag', `keytag ${keytag}`);
  const algorithms = ['0', '1', '2', '4', '9', '11', '18', '22', '24', '122', '123', '251', '252', '255', '256'];
  for (const algorithm of [undefined, '', 'RSASHA256', '-8', ...algorithms])
    assert.equal(add({ algorithm }), 'syntaxInvalidAlgorithm', `algorithm ${algorithm}`);
  for (const digesttype of [undefined, '', '0', '5', '6', '255', 'SHA-1'])
    assert.equal(add({ digesttype }), 'syntaxInvalidDigesttype', `digesttype ${digesttype}`);
  const digests: [string, string | undefined][] = [
    ['1', undefined],
    ['1', ''],
    ['1', SHA256], // 32 bytes for SHA-1's 20
    ['1', `${SHA1}00`],
    ['1', SHA1.slice(0, -1)], // half a byte
    ['1', `${SHA1.slice(0, -2)}zz`],
    ['1', `0x${SHA1.slice(2)}`],
    ['2', SHA1],
    ['2', SHA384],
    ['3', SHA384],
    ['4', SHA256],
    ['4', 'ab'.repeat(5000)],
  ];
  for (const [digesttype, digest] of digests)
    assert.equal(add({ digesttype, digest }), 'syntaxInvalidDigest', `type ${digesttype}, ${digest?.length} digits`);
});

test('the bound covers the largest record a transfer can store', () => {
  const d = { name: 'a'.repeat(253), keytag: 65535, algorithm: 255, digesttype: 255, digest: 'A'.repeat(96) };
  assert.equal(JSON.stringify({ ...d, ttl: 2147483647 }).length, DS.bound);
});

const RECORDS: Fields[] = [
  base,
  DS.add.example,
  { name: 'child', keytag: '60485', algorithm: '5', digesttype: '2', digest: SHA256.toLowerCase() },
  { name: 'ec', keytag: '10771', algorithm: '14', digesttype: '4', digest: SHA384 },
  { name: 'ed.sub', keytag: '0', algorithm: '15', digesttype: '2', digest: SHA256 },
];
const data = RECORDS.map((f) => DS.parse(f, Z));
const zoneText = [
  '$ORIGIN example.org.',
  '$TTL 3600',
  '@\t3600\tIN\tSOA\tns1.example.net. hostmaster.example.net. 1 7200 900 1209600 300',
  '@\t3600\tIN\tNS\tns1.example.net.',
  // A DS belongs at a zone cut (RFC 4035 2.4): each owner is delegated.
  ...[...new Set(data.map((d) => d.name))].map((n) => line(n, Z, 3600, 'NS', 'ns1.example.net.')),
  ...data.map((d) => line(d.name, Z, 300, 'DS', DS.rdata(d)!)),
  '',
].join('\n');

function check(tool: string, args: (file: string) => string[], text = zoneText) {
  return checkZoneText(tool, args, text);
}

test("BIND's named-checkzone accepts the zone text, and refuses a DS at the apex as the add does", (t) => {
  if (!existsSync('/usr/bin/named-checkzone')) return t.skip('named-checkzone absent (Debian: bind9-utils)');
  const r = check('/usr/bin/named-checkzone', (file) => ['-i', 'local', '-k', 'fail', Z, file]);
  assert.ok(r.ok, `${r.output}\n${zoneText}`);
  const apex = check('/usr/bin/named-checkzone', (file) => ['-i', 'local', Z, file], `${zoneText}@ DS 1 8 1 ${SHA1}\n`);
  assert.match(apex.output, /DS record at top of zone/);
});

test("Knot's kzonecheck accepts the zone text", (t) => {
  if (!existsSync('/usr/bin/kzonecheck')) return t.skip('kzonecheck absent (Debian: knot-dnssecutils)');
  const r = check('/usr/bin/kzonecheck', (file) => ['-o', Z, file]);
  assert.ok(r.ok, `${r.output}\n${zoneText}`);
});

test('zone text -> fromText -> parse gives the same stored data (hex upper case, as written)', () => {
  const upper = (d: DsData) => ({ ...d, digest: d.digest.toUpperCase() });
  assert.deepEqual(imported(zoneText), data.map(upper));
  // A digest split over tokens and lines, the algorithm by its mnemonic (RFC 4034 5.3).
  const split = `child DS 60485 RSASHA1 1 ( 2BB183AF5F22588179A5\n  3B0A98631FAD1A292118 ) ; RFC 4034 5.4\n`;
  assert.deepEqual(imported(split), [DS.parse(base, Z)]);
  assert.equal(
    imported('x DS 1 ecdsap256sha256 2 00\t00000000000000000000000000000000000000000000000000000000000000\n')[0]
      ?.algorithm,
    13,
  );
  assert.equal(
    codeOf(() => imported('x DS 1 8 2\n')),
    'syntaxInvalidKeytag',
  );
  assert.equal(
    codeOf(() => imported(`x DS 1 RSAMD5 1 ${SHA1}\n`)),
    'syntaxInvalidAlgorithm',
  );
  assert.equal(
    codeOf(() => imported(`x DS 1 NOSUCH 1 ${SHA1}\n`)),
    'syntaxInvalidAlgorithm',
  );
  assert.equal(
    codeOf(() => imported(`@ DS 1 8 1 ${SHA1}\n`)),
    'syntaxInvalidHostname',
  );
});

test('the wire: a whole response through dns-packet gives the same data, and present is rdata', () => {
  for (const d of data) {
    const answer = { type: DS.wire.type, name: 'x.example.org', ttl: 300, class: 'IN', data: DS.wire.encode(d) };
    const packet = dnsPacket.encode({ type: 'response', id: 7, answers: [answer as unknown as Answer] });
    const [got] = dnsPacket.decode(packet).answers ?? [];
    assert.equal(got?.type, 'DS');
    const rd = (got as { data: unknown }).data;
    // dns-packet carries the digest as bytes: it comes back upper case, whatever case was sent.
    assert.deepEqual(DS.wire.decode(rd, d.name), { ...d, digest: d.digest.toUpperCase() });
    assert.equal(DS.wire.present(rd), DS.rdata(d));
    assert.equal('canonical' in DS.wire, false, 'DS RDATA holds no name');
  }
  const wire = (digest: Buffer) => ({ keyTag: 1, algorithm: 200, digestType: 9, digest });
  assert.deepEqual(DS.wire.decode(wire(Buffer.alloc(3, 0xab)), 'x'), {
    name: 'x',
    keytag: 1,
    algorithm: 200,
    digesttype: 9,
    digest: 'ABABAB',
  });
  assert.equal(DS.wire.decode(wire(Buffer.alloc(0)), 'x'), null);
  assert.equal(DS.wire.decode(wire(Buffer.alloc(49)), 'x'), null, 'longer than any digest: the bound holds');
  assert.equal(DS.wire.present(wire(Buffer.alloc(0))), null, 'RFC 3597 generic form');
  assert.equal(DS.rdata({ ...data[0]!, digest: 'AB CD\n$ORIGIN x.' }), null, 'a stored digest that is not hex');
});
