import assert from 'node:assert/strict';
import { createHash, generateKeyPairSync, X509Certificate } from 'node:crypto';
import { existsSync } from 'node:fs';
import { test } from 'node:test';
import dnsPacket, { type Answer } from 'dns-packet';
import { generate } from 'selfsigned';
import { checkZoneText, codeOf, importedAs } from './test-kit.ts';
import { displayLine, type Fields, line, MAX_HEX_BYTES } from './kit.ts';
import { TLSA, type TlsaData } from './tlsa.ts';

const Z = 'example.org';
// Real association data: a certificate, its public key, their digests.
const pems = await generate([{ name: 'commonName', value: 'www.example.org' }], { keyType: 'ec' });
const CERT = new X509Certificate(pems.cert).raw;
const SPKI = generateKeyPairSync('ed25519').publicKey.export({ type: 'spki', format: 'der' });
const hex = (b: Buffer) => b.toString('hex');
const sha = (alg: 'sha256' | 'sha512', b: Buffer) => createHash(alg).update(b).digest('hex');
/** A DER SEQUENCE of `n` bytes in all. */
const sequence = (n: number) => {
  const len = n - 4;
  return `3082${len.toString(16).padStart(4, '0')}${'00'.repeat(len)}`;
};

const base: Fields = { name: '_443._tcp.www', usage: '3', selector: '1', matchingtype: '1', data: sha('sha256', SPKI) };
const p = (change: Fields) => TLSA.parse({ ...base, ...change }, Z);
const add = (change: Fields) => codeOf(() => p(change));

/** A zone file's TLSA records read back as add fields, then parsed: the import's path. */
function imported(text: string): TlsaData[] {
  return importedAs(TLSA, text, Z);
}

test('the add: `_port._proto` owner, numbers as numbers, the data as sent', () => {
  const d = TLSA.parse(base, Z);
  assert.deepEqual(d, { name: '_443._tcp.www', usage: 3, selector: 1, matchingtype: 1, data: sha('sha256', SPKI) });
  assert.deepEqual(TLSA.reply(d), { ...d });
  assert.equal(TLSA.owner(d), '_443._tcp.www');
  assert.equal(p({ name: '_443._TCP.WWW.example.org.' }).name, '_443._tcp.www');
  assert.equal(p({ name: '_443._tcp' }).name, '_443._tcp', 'the domain itself');
  assert.equal(p({ name: '_853._udp.dns' }).name, '_853._udp.dns');
  assert.equal(p({ name: '_5061._sctp.sip' }).name, '_5061._sctp.sip');
  assert.equal(p({ name: '_65535._tcp.a.b' }).name, '_65535._tcp.a.b');
  const upper = sha('sha512', CERT).toUpperCase();
  assert.equal(p({ usage: '0', selector: '0', matchingtype: '2', data: upper }).data, upper, 'any case, kept');
  assert.equal(p({ matchingtype: '0', data: hex(SPKI) }).data, hex(SPKI), 'a whole SubjectPublicKeyInfo');
  assert.equal(p({ selector: '0', matchingtype: '0', data: hex(CERT) }).data, hex(CERT), 'a whole certificate');
  assert.equal(p({ matchingtype: '0', data: sequence(MAX_HEX_BYTES) }).data.length, 2 * MAX_HEX_BYTES);
  assert.equal(p({ matchingtype: '0', data: '3000' }).data, '3000', 'an empty SEQUENCE is still one');
  assert.equal(
    displayLine(TLSA.display, TLSA.reply(d)),
    `_443._tcp.www → usage 3, selector 1, matching type 1: ${d.data}`,
  );
  assert.equal(TLSA.rdata(d), `3 1 1 ${d.data.toUpperCase()}`, 'written upper case');
});

test('each bad field answers its own code', () => {
  for (const name of [undefined, '_443._tcp.a b', '*._tcp', '_443._tcp.x.other.net.', 'a..b'])
    assert.equal(add({ name }), 'syntaxInvalidHostname', `name ${name}`);
  // Valid records that no client asks for: added, and publish warns (RFC 6698 3).
  for (const name of [
    '',
    '@',
    'www',
    '_443.www',
    '_tcp._443.www',
    '_0._tcp',
    '_65536._tcp',
    '_0443._tcp',
    '_443._quic',
  ]) {
    assert.equal(add({ name }), 'ok', `name ${name}`);
    assert.ok(TLSA.lint(TLSA.parse({ ...base, name }, Z)), `name ${name} is warned of`);
  }
  assert.equal(TLSA.lint(TLSA.parse(base, Z)), null);
  for (const usage of [undefined, '', '4', '255', '-1', 'DANE-EE', '3.0'])
    assert.equal(add({ usage }), 'syntaxInvalidUsage', `usage ${usage}`);
  for (const selector of [undefined, '', '2', '255', 'SPKI'])
    assert.equal(add({ selector }), 'syntaxInvalidSelector', `selector ${selector}`);
  for (const matchingtype of [undefined, '', '3', '255', 'SHA2-256'])
    assert.equal(add({ matchingtype }), 'syntaxInvalidMatchingtype', `matchingtype ${matchingtype}`);
  const data: [string, string | undefined][] = [
    ['1', undefined],
    ['1', ''],
    ['1', sha('sha256', SPKI).slice(2)], // 31 bytes
    ['1', `${sha('sha256', SPKI)}00`], // 33 bytes
    ['1', sha('sha512', SPKI)],
    ['2', sha('sha256', SPKI)],
    ['1', `${sha('sha256', SPKI).slice(1)}`], // half a byte
    ['1', `${sha('sha256', SPKI).slice(2)}zz`],
    ['0', sha('sha256', SPKI)], // a digest given as matching type 0: no DER
    ['0', `${hex(SPKI)}00`], // trailing bytes
    ['0', hex(SPKI).slice(0, -2)], // cut short
    ['0', '3081050000000000'], // length in two octets where one would do: BER, not DER
    ['0', '30800000'], // indefinite length
    ['0', '30'], // a tag without its length
    ['0', sequence(MAX_HEX_BYTES + 2)], // over MAX_HEX_BYTES
  ];
  for (const [matchingtype, d] of data)
    assert.equal(add({ matchingtype, data: d }), 'syntaxInvalidData', `type ${matchingtype}, ${d?.slice(0, 20)}`);
});

test('the bound covers the largest record a transfer can store', () => {
  const d = { name: 'a'.repeat(253), usage: 255, selector: 255, matchingtype: 255, data: 'A'.repeat(8192) };
  assert.equal(JSON.stringify({ ...d, ttl: 2147483647 }).length, TLSA.bound);
});

const RECORDS: Fields[] = [
  base,
  TLSA.add.example,
  { name: '_25._tcp.mail', usage: '2', selector: '0', matchingtype: '2', data: sha('sha512', CERT).toUpperCase() },
  { name: '_443._tcp', usage: '1', selector: '0', matchingtype: '0', data: hex(CERT) },
  { name: '_853._udp.dns', usage: '3', selector: '1', matchingtype: '0', data: hex(SPKI) },
  { name: '_5061._sctp.sip', usage: '0', selector: '0', matchingtype: '1', data: sha('sha256', CERT) },
];
const data = RECORDS.map((f) => TLSA.parse(f, Z));
const zoneText = [
  '$ORIGIN example.org.',
  '$TTL 3600',
  '@\t3600\tIN\tSOA\tns1.example.net. hostmaster.example.net. 1 7200 900 1209600 300',
  '@\t3600\tIN\tNS\tns1.example.net.',
  ...data.map((d) => line(d.name, Z, 300, 'TLSA', TLSA.rdata(d)!)),
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
  assert.deepEqual(
    imported(zoneText),
    data.map((d) => ({ ...d, data: d.data.toUpperCase() })),
  );
  // The data split by blanks and over lines (RFC 6698 2.2).
  const h = sha('sha256', SPKI);
  const split = `_443._tcp.www TLSA 3 1 1 ( ${h.slice(0, 20)} ${h.slice(20, 40)}\n ${h.slice(40)} )\n`;
  assert.deepEqual(imported(split), [TLSA.parse(base, Z)]);
  assert.equal(
    codeOf(() => imported('_443._tcp TLSA 3 1 1\n')),
    'syntaxInvalidUsage',
  );
  assert.equal(
    codeOf(() => imported(`_443._tcp TLSA 3 1 1 ${h}00\n`)),
    'syntaxInvalidData',
  );
  // Imported at a name no client asks for: taken, and publish warns (as for an add).
  assert.equal(
    codeOf(() => imported(`www TLSA 3 1 1 ${h}\n`)),
    'ok',
  );
});

test('the wire: a whole response through dns-packet gives the same data, and present is rdata', () => {
  for (const d of data) {
    const answer = { type: TLSA.wire.type, name: 'x.example.org', ttl: 300, class: 'IN', data: TLSA.wire.encode(d) };
    const packet = dnsPacket.encode({ type: 'response', id: 7, answers: [answer as unknown as Answer] });
    const [got] = dnsPacket.decode(packet).answers ?? [];
    assert.equal(got?.type, 'TLSA');
    const rd = (got as { data: unknown }).data;
    // dns-packet carries the data as bytes: it comes back upper case, whatever case was sent.
    assert.deepEqual(TLSA.wire.decode(rd, d.name), { ...d, data: d.data.toUpperCase() });
    assert.equal(TLSA.wire.present(rd), TLSA.rdata(d));
    assert.equal('canonical' in TLSA.wire, false, 'TLSA RDATA holds no name');
  }
  const wire = (certificate: Buffer) => ({ usage: 255, selector: 7, matchingType: 9, certificate });
  assert.deepEqual(TLSA.wire.decode(wire(Buffer.from([1, 0xfe])), '_1._tcp'), {
    name: '_1._tcp',
    usage: 255,
    selector: 7,
    matchingtype: 9,
    data: '01FE',
  });
  assert.equal(TLSA.wire.decode(wire(Buffer.alloc(0)), 'x'), null);
  assert.equal(TLSA.wire.decode(wire(Buffer.alloc(MAX_HEX_BYTES + 1)), 'x'), null, 'the bound holds');
  assert.equal(TLSA.wire.present(wire(Buffer.alloc(0))), null, 'RFC 3597 generic form');
  assert.equal(TLSA.rdata({ ...data[0]!, data: '00\n$INCLUDE /etc/passwd' }), null, 'stored data that is not hex');
});
