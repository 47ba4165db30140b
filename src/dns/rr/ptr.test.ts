import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { test } from 'node:test';
import dnsPacket, { type Answer } from 'dns-packet';
import { checkZoneText, codeOf, importedAs } from './test-kit.ts';
import { displayLine, type Fields, line } from './kit.ts';
import { PTR, type PtrData } from './ptr.ts';

const Z = 'example.org';
const REV = '2.0.192.in-addr.arpa';
const base: Fields = { name: '', host: 'www.example.net.' };
const p = (change: Fields, zone = Z) => PTR.parse({ ...base, ...change }, zone);
const add = (change: Fields, zone = Z) => codeOf(() => p(change, zone));

/** A zone file's PTR records read back as add fields, then parsed: the import's path. */
function imported(text: string, zone: string): PtrData[] {
  return importedAs(PTR, text, zone);
}

test('the add: owner relative to the domain, host fully qualified with or without its final dot', () => {
  assert.deepEqual(PTR.parse(base, Z), { name: '', host: 'www.example.net.' });
  assert.equal(p({ name: '@' }).name, '');
  assert.equal(p({ name: 'WWW.example.org.' }).name, 'www');
  assert.equal(p({ name: '_ipp._tcp' }).name, '_ipp._tcp', 'DNS-SD service enumeration (RFC 6763 4.1)');
  assert.equal(p({ host: 'www.example.net' }).host, 'www.example.net.', 'absolute without its final dot, as NS');
  assert.equal(p({ host: 'Mail.Example.ORG' }).host, 'mail.example.org.', 'not mail.example.org.example.org.');
  assert.equal(p({ host: 'bücher.example' }).host, 'xn--bcher-kva.example.');
  assert.equal(p({ host: 'Printer._IPP._tcp.example.org.' }).host, 'printer._ipp._tcp.example.org.');
  assert.deepEqual(p({ name: '1', host: 'host.example.org' }, REV), { name: '1', host: 'host.example.org.' });
  assert.deepEqual(PTR.reply(p({ name: 'x' })), { name: 'x', host: 'www.example.net.' });
  assert.equal(PTR.owner(p({ name: 'x' })), 'x');
  assert.equal(displayLine(PTR.display, PTR.reply(p({}))), '@ → www.example.net.');
  assert.equal(displayLine(PTR.display, PTR.reply(p({ name: '7' }, REV))), '7 → www.example.net.');
  assert.equal('targets' in PTR, false, "a PTR's host is not a name this zone must resolve");
});

test('each bad field answers syntaxInvalidHostname', () => {
  for (const name of [undefined, 'a b', '*', '*.x', 'x.other.net.', '-x', 'a..b', 'x;y', `${'a'.repeat(64)}`])
    assert.equal(add({ name }), 'syntaxInvalidHostname', `name ${name}`);
  const hosts = [
    undefined,
    '',
    '.',
    '@',
    'www', // a single label without its dot: a relative name typed by mistake
    'a..example.net',
    'host name.example.net',
    '-bad.example.net.',
    `${'a'.repeat(64)}.example.net.`,
    `${'abcdefghi.'.repeat(26)}net.`,
    '*.example.net.',
    'a"b.example.net',
    'a\nb.example.net',
    'ex\\046ample.net.',
  ];
  for (const host of hosts) assert.equal(add({ host }), 'syntaxInvalidHostname', `host ${JSON.stringify(host)}`);
  // A reverse zone's PTR names a host: BIND's check-names refuses an underscore there.
  assert.equal(add({ name: '1', host: '_x.example.org.' }, REV), 'syntaxInvalidHostname');
  assert.equal(add({ name: '1', host: 'a_b.example.org.' }, 'ip6.arpa'), 'syntaxInvalidHostname');
  assert.equal(add({ name: '1', host: '_x.example.org.' }, Z), 'ok');
});

test('the bound covers the largest record, a transferred host with every character escaped in JSON', () => {
  const d = { name: 'a'.repeat(253), host: '"'.repeat(254), ttl: 2147483647 };
  assert.equal(JSON.stringify(d).length, PTR.bound);
});

const FORWARD: Fields[] = [
  PTR.add.example,
  { name: '', host: 'www.example.net' },
  { name: '_http._tcp', host: 'Printer._http._tcp.example.org.' },
  { name: 'b', host: 'xn--bcher-kva.example.' },
];
const REVERSE: Fields[] = [
  { name: '1', host: 'host1.example.org' },
  { name: '2', host: 'host2.example.org.' },
];
const SOA = (zone: string) => [
  `$ORIGIN ${zone}.`,
  '$TTL 3600',
  `@\t3600\tIN\tSOA\tns1.example.net. hostmaster.example.net. 1 7200 900 1209600 300`,
  `@\t3600\tIN\tNS\tns1.example.net.`,
];
const text = (zone: string, fields: Fields[]) =>
  [
    ...SOA(zone),
    ...fields.map((f) => PTR.parse(f, zone)).map((d) => line(d.name, zone, 300, 'PTR', PTR.rdata(d))),
    '',
  ].join('\n');

function check(tool: string, args: (file: string) => string[], zoneText: string) {
  return checkZoneText(tool, args, zoneText);
}

test("BIND's named-checkzone accepts the zone text, forward and reverse (check-names fail)", (t) => {
  if (!existsSync('/usr/bin/named-checkzone')) return t.skip('named-checkzone absent (Debian: bind9-utils)');
  for (const [zone, fields] of [
    [Z, FORWARD],
    [REV, REVERSE],
  ] as const) {
    const zoneText = text(zone, fields);
    const r = check('/usr/bin/named-checkzone', (f) => ['-i', 'local', '-k', 'fail', zone, f], zoneText);
    assert.ok(r.ok, `${r.output}\n${zoneText}`);
  }
  // What the add refuses, BIND refuses too: an underscore host in a reverse zone.
  const bad = `${SOA(REV).join('\n')}\n1 PTR _x.example.org.\n`;
  assert.equal(check('/usr/bin/named-checkzone', (f) => ['-i', 'local', '-k', 'fail', REV, f], bad).ok, false);
});

test("Knot's kzonecheck accepts the zone text", (t) => {
  if (!existsSync('/usr/bin/kzonecheck')) return t.skip('kzonecheck absent (Debian: knot-dnssecutils)');
  for (const [zone, fields] of [
    [Z, FORWARD],
    [REV, REVERSE],
  ] as const) {
    const zoneText = text(zone, fields);
    const r = check('/usr/bin/kzonecheck', (f) => ['-o', zone, f], zoneText);
    assert.ok(r.ok, `${r.output}\n${zoneText}`);
  }
});

test('zone text -> fromText -> parse gives the same stored data', () => {
  assert.deepEqual(
    imported(text(Z, FORWARD), Z),
    FORWARD.map((f) => PTR.parse(f, Z)),
  );
  assert.deepEqual(
    imported(text(REV, REVERSE), REV),
    REVERSE.map((f) => PTR.parse(f, REV)),
  );
  // Relative names in rdata are relative to the $ORIGIN in force, `@` is it.
  assert.deepEqual(imported('$ORIGIN sub.example.org.\nx PTR host\ny PTR @\n', Z), [
    { name: 'x.sub', host: 'host.sub.example.org.' },
    { name: 'y.sub', host: 'sub.example.org.' },
  ]);
  assert.equal(
    codeOf(() => imported('a PTR b. c.\n', Z)),
    'syntaxInvalidHostname',
  );
  assert.equal(
    codeOf(() => imported('a PTR\n', Z)),
    'syntaxInvalidHostname',
  );
});

test('the wire: a whole response through dns-packet gives the same data, and present is rdata', () => {
  for (const f of [...FORWARD.map((x) => [x, Z] as const), ...REVERSE.map((x) => [x, REV] as const)]) {
    const d = PTR.parse(f[0], f[1]);
    const answer = { type: PTR.wire.type, name: 'x.example.org', ttl: 300, class: 'IN', data: PTR.wire.encode(d) };
    const packet = dnsPacket.encode({ type: 'response', id: 7, answers: [answer as unknown as Answer] });
    const [got] = dnsPacket.decode(packet).answers ?? [];
    assert.equal(got?.type, 'PTR');
    const rd = (got as { data: unknown }).data;
    assert.deepEqual(PTR.wire.decode(rd, d.name), d);
    assert.equal(PTR.wire.present(rd), PTR.rdata(d));
  }
  // Signing lowercases the name (RFC 4034 6.2); a transferred name keeps its case otherwise.
  assert.equal(PTR.wire.canonical('Host.Example.NET'), 'host.example.net');
  assert.deepEqual(PTR.wire.decode('Host.Example.NET', 'x'), { name: 'x', host: 'Host.Example.NET.' });
  assert.equal(PTR.wire.decode('a\x01b.example', 'x'), null, 'a control character is not held');
  assert.equal(PTR.wire.decode(7, 'x'), null);
  // A hostile transferred name is written escaped: BIND reads it back as one name.
  const hostile = PTR.wire.decode('a b;c"d\\e($x).example.net', 'h')!;
  assert.equal(PTR.rdata(hostile), 'a\\032b\\059c\\034d\\092e\\040\\036x\\041.example.net.');
});
