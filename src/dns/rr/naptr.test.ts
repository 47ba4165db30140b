import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { test } from 'node:test';
import dnsPacket, { type Answer } from 'dns-packet';
import { quoted } from '../text.ts';
import { checkZoneText, codeOf, importedAs } from './test-kit.ts';
import { displayLine, type Fields, line } from './kit.ts';
import { NAPTR, type NaptrData } from './naptr.ts';

const Z = 'example.org';
// ENUM (RFC 6116 2.4.1): a number's name rewritten to a SIP URI.
const base: Fields = {
  name: '4.3.2.1',
  order: '100',
  preference: '10',
  flags: 'u',
  service: 'E2U+sip',
  regexp: '!^.*$!sip:info@example.com!',
  replacement: '.',
};
const p = (change: Fields) => NAPTR.parse({ ...base, ...change }, Z);
const add = (change: Fields) => codeOf(() => p(change));

/** A zone file's NAPTR records read back as add fields, then parsed: the import's path. */
function imported(text: string): NaptrData[] {
  return importedAs(NAPTR, text, Z);
}

const HEAD = [
  '$ORIGIN example.org.',
  '$TTL 3600',
  '@\t3600\tIN\tSOA\tns1.example.net. hostmaster.example.net. 1 7200 900 1209600 300',
  '@\t3600\tIN\tNS\tns1.example.net.',
];
function check(tool: string, args: (file: string) => string[], text: string) {
  return checkZoneText(tool, args, text);
}
const BIND = '/usr/bin/named-checkzone';
const bind = (text: string) => check(BIND, (file) => ['-i', 'local', '-k', 'fail', Z, file], text);
/** named-checkzone's verdict on one NAPTR with this regexp (the replacement `.`). */
const bindTakes = (regexp: string) =>
  bind(`${[...HEAD, `x NAPTR 1 1 "u" "E2U+sip" ${quoted(Buffer.from(regexp))} .`].join('\n')}\n`).ok;

// RFC 3402 3.2 substitution expressions, as BIND's txt_valid_regex and isc_regex_validate take them.
const GOOD_REGEXPS = [
  '',
  '!^.*$!sip:info@example.com!',
  '!^\\+44(.*)$!sip:\\1@example.com!i',
  '/^(a)(b)?$/\\2\\1/',
  '!^a\\!b$!x\\!y!',
  '!^.*$!sip:bücher@example.com!',
  '!a)!x!', // a stray `)` is an ordinary character to BIND
  '![]a]!x!',
  '![^]a-]!x!',
  '![[:digit:]a-z]{2,}!x!',
  '!a{2}b{0,255}!x!',
  '!()!x!',
  '!^(a|b)+$!\\1!ii',
  ' a b ', // any delimiter but a digit, `\` or `i`
];
const BAD_REGEXPS = [
  '!^.*$!sip:x', // no final delimiter
  '!^.*$!sip:x!!', // one too many
  '1^.*$1x1', // a digit cannot delimit (RFC 3402 3.2)
  '0a0b0', // nor 0, to BIND
  'i^.*$ixi', // nor the flag
  '\\a\\b\\', // nor the escape
  '!!x!', // an empty ERE
  '!(a!x!',
  '!a**!x!',
  '!*a!x!',
  '!^*!x!',
  '!a|!x!',
  '!|a!x!',
  '!(a|)!x!',
  '!a{256}!x!',
  '!a{3,2}!x!',
  '!a{1,2!x!',
  '!a{1}{2}!x!',
  '![a!x!',
  '![z-a]!x!',
  '![a-c-e]!x!',
  '![[:foo:]]!x!',
  '!^(a)$!\\2!', // a back-reference beyond the groups
  '!^a$!\\1!',
  '!^a$!\\0!', // \0 is no back-reference (POS-DIGIT)
  '!^a\\1(b)$!x!', // nor before its group, in the ERE
  '!^.*$!x!g', // the only flag is i
  '!^.*$!x!\\i',
  '!a\\',
  '!\\(a\\)\\1!x!', // `\(` is a literal parenthesis: no group
  'é^.*$éxé', // BIND takes the first byte for the delimiter; here only printable ASCII delimits
];
// Refused here though BIND takes them: collating elements, equivalence classes, control characters.
const STRICTER = ['![[.a.]]!x!', '![[=a=]]!x!', '!^.*$!x\u0001!', '!^.*$!x\n!'];

test('the add: numbers as numbers, strings as sent, the replacement fully qualified or `.`', () => {
  const d = NAPTR.parse(base, Z);
  assert.deepEqual(d, {
    name: '4.3.2.1',
    order: 100,
    preference: 10,
    flags: 'u',
    service: 'E2U+sip',
    regexp: '!^.*$!sip:info@example.com!',
    replacement: '.',
  });
  assert.deepEqual(NAPTR.reply(d), { ...d });
  assert.equal(NAPTR.owner(p({ name: '@' })), '');
  const sip = { flags: 'S', service: 'SIP+D2U', regexp: '', replacement: '_sip._udp.example.org' };
  assert.equal(p(sip).replacement, '_sip._udp.example.org.', 'a service name (RFC 3263 4.1), final dot optional');
  assert.equal(p({ ...sip, replacement: '_Diameter._TCP.Example.NET.' }).replacement, '_diameter._tcp.example.net.');
  assert.equal(
    p({ flags: undefined, service: undefined, regexp: undefined, replacement: 'next.example.net' }).flags,
    '',
  );
  assert.equal(
    p({ flags: 'A', service: 'aaa+ap1:diameter.tcp', regexp: '', replacement: 'aaa.example.net.' }).flags,
    'A',
  );
  for (const flags of ['', 'U', 's', 'P', 'x', 'U1', 'xyz09', 'uZ']) assert.equal(p({ flags }).flags, flags);
  assert.equal(p({ order: '0', preference: '65535' }).preference, 65535);
  assert.equal(p({ order: '65535' }).order, 65535);
  for (const regexp of GOOD_REGEXPS) assert.equal(p({ regexp }).regexp, regexp);
  assert.equal(
    displayLine(NAPTR.display, NAPTR.reply(d)),
    '4.3.2.1 → 100 10 "u" "E2U+sip" "!^.*$!sip:info@example.com!" .',
  );
  assert.equal(NAPTR.rdata(d), '100 10 "u" "E2U+sip" "!^.*$!sip:info@example.com!" .');
  assert.equal(NAPTR.rdata(p({ regexp: '!^(.*)$!\\1"x!' })), '100 10 "u" "E2U+sip" "!^(.*)$!\\\\1\\"x!" .');
});

test('each bad field answers its own code', () => {
  for (const name of [undefined, 'a b', '*', 'x.other.net.', 'a..b'])
    assert.equal(add({ name }), 'syntaxInvalidHostname', `name ${name}`);
  for (const order of [undefined, '', '65536', '-1', 'a', '1e3'])
    assert.equal(add({ order }), 'syntaxInvalidOrder', `order ${order}`);
  for (const preference of [undefined, '', '65536', '-1', '0x1'])
    assert.equal(add({ preference }), 'syntaxInvalidPreference', `preference ${preference}`);
  // At most one of S, A, U, P (RFC 3404 4.3), letters and digits only (RFC 3403 4.1).
  for (const flags of ['SU', 'Su', 'sa', 'AP', 'uu', 'S U', 'U!', 'é', '"', 'x'.repeat(256)])
    assert.equal(add({ flags }), 'syntaxInvalidFlags', `flags ${flags}`);
  for (const service of ['E2U +sip', 'E2U\tsip', 'E2U+sip\n', 'x'.repeat(256), 'E2U+sïp'])
    assert.equal(add({ service }), 'syntaxInvalidService', `service ${service}`);
  for (const regexp of [...BAD_REGEXPS, ...STRICTER, `!${'a'.repeat(252)}!x!`])
    assert.equal(add({ regexp }), 'syntaxInvalidRegexp', `regexp ${regexp}`);
  assert.equal(add({ regexp: `!${'a'.repeat(251)}!x!` }), 'ok', '255 bytes');
  assert.equal(add({ regexp: `!${'ü'.repeat(127)}!!` }), 'syntaxInvalidRegexp', '257 bytes of UTF-8');
  // "The fields are also mutually exclusive" (RFC 3403 4.1): a regexp leaves the replacement `.`.
  assert.equal(add({ replacement: 'sip.example.com.' }), 'syntaxInvalidReplacement');
  for (const replacement of [undefined, '', 'www', '@', 'a b.example.net', '*.example.net.', '..', 'a..b.net'])
    assert.equal(add({ regexp: '', replacement }), 'syntaxInvalidReplacement', `replacement ${replacement}`);
});

test("BIND's named-checkzone agrees on every regexp the add takes or refuses", (t) => {
  if (!existsSync(BIND)) return t.skip('named-checkzone absent (Debian: bind9-utils)');
  for (const regexp of GOOD_REGEXPS) assert.equal(bindTakes(regexp), true, `BIND refuses ${regexp}`);
  for (const regexp of BAD_REGEXPS) assert.equal(bindTakes(regexp), false, `BIND takes ${regexp}`);
  for (const regexp of STRICTER) assert.equal(bindTakes(regexp), true, `BIND refuses ${regexp} too`);
});

test('the bound covers the largest record a transfer can store', () => {
  const q = (n: number) => '"'.repeat(n);
  const d = { name: 'a'.repeat(253), order: 65535, preference: 65535, flags: q(255), service: q(255), regexp: q(255) };
  assert.equal(JSON.stringify({ ...d, replacement: q(254), ttl: 2147483647 }).length, NAPTR.bound);
});

const RECORDS: Fields[] = [
  base,
  NAPTR.add.example,
  { ...base, order: '100', preference: '20', service: 'E2U+voice:tel', regexp: '!^.*$!tel:+4412345!' },
  { ...base, name: '', regexp: '!^\\+44(.*)$!sip:\\1@example.com!i' },
  { name: '', order: '10', preference: '50', flags: 'S', service: 'SIP+D2U', regexp: '', replacement: '_sip._udp' },
  { name: 'x', order: '0', preference: '0', flags: '', service: '', regexp: '', replacement: 'next.example.net' },
  { ...base, name: 'q', regexp: '!^(.*)$!\\1"\\\\;()$x!', flags: 'P', service: 'a"b\\c;d' },
  { ...base, name: 'u', regexp: '!^.*$!sip:bücher@example.com!' },
];
const data = RECORDS.map((f) => NAPTR.parse(f, Z));
const zoneText = [...HEAD, ...data.map((d) => line(d.name, Z, 300, 'NAPTR', NAPTR.rdata(d))), ''].join('\n');

test("BIND's named-checkzone and Knot's kzonecheck accept the zone text", (t) => {
  if (existsSync(BIND)) assert.ok(bind(zoneText).ok, `${bind(zoneText).output}\n${zoneText}`);
  else t.diagnostic('named-checkzone absent (Debian: bind9-utils)');
  if (!existsSync('/usr/bin/kzonecheck')) return t.skip('kzonecheck absent (Debian: knot-dnssecutils)');
  const r = check('/usr/bin/kzonecheck', (file) => ['-o', Z, file], zoneText);
  assert.ok(r.ok, `${r.output}\n${zoneText}`);
});

test('zone text -> fromText -> parse gives the same stored data', () => {
  assert.deepEqual(imported(zoneText), data);
  // Bare character-strings, `\DDD` escapes, a relative replacement (RFC 1035 5.1).
  assert.deepEqual(imported('x NAPTR 10 50 S SIP\\043D2U "" _sip._udp\n')[0], {
    name: 'x',
    order: 10,
    preference: 50,
    flags: 'S',
    service: 'SIP+D2U',
    regexp: '',
    replacement: '_sip._udp.example.org.',
  });
  assert.equal(
    codeOf(() => imported('x NAPTR 10 50 "S" "SIP+D2U" ""\n')),
    'syntaxInvalidOrder',
  );
  assert.equal(
    codeOf(() => imported('x NAPTR 10 50 "S" "SIP+D2U" "" . .\n')),
    'syntaxInvalidOrder',
  );
  assert.equal(
    codeOf(() => imported('x NAPTR 10 50 "US" "" "" .\n')),
    'syntaxInvalidFlags',
  );
  assert.equal(
    codeOf(() => imported('x NAPTR 1 1 "u" "E2U+sip" "!^.*$!x!" next\n')),
    'syntaxInvalidReplacement',
  );
});

test('the wire: a whole response through dns-packet gives the same data, and present is rdata', () => {
  for (const d of data) {
    const answer = { type: NAPTR.wire.type, name: 'x.example.org', ttl: 300, class: 'IN', data: NAPTR.wire.encode(d) };
    const packet = dnsPacket.encode({ type: 'response', id: 7, answers: [answer as unknown as Answer] });
    const [got] = dnsPacket.decode(packet).answers ?? [];
    assert.equal(got?.type, 'NAPTR');
    const rd = (got as { data: unknown }).data;
    assert.deepEqual(NAPTR.wire.decode(rd, d.name), d);
    assert.equal(NAPTR.wire.present(rd), NAPTR.rdata(d));
  }
  // Signing lowercases the replacement only (RFC 4034 6.2, RFC 3597 7): the strings are data.
  const w = { order: 1, preference: 2, flags: 'U', services: 'E2U+SIP', regexp: '!^A$!B!', replacement: 'X.Example' };
  assert.deepEqual(NAPTR.wire.canonical(w), { ...w, replacement: 'x.example' });
  assert.deepEqual(NAPTR.wire.decode(w, 'n'), {
    name: 'n',
    order: 1,
    preference: 2,
    flags: 'U',
    service: 'E2U+SIP',
    regexp: '!^A$!B!',
    replacement: 'X.Example.',
  });
  assert.equal(NAPTR.wire.decode({ ...w, regexp: 'a\u0000b' }, 'n'), null, 'a control character is not held');
  assert.equal(NAPTR.wire.present({ ...w, flags: 7 }), null, 'RFC 3597 generic form');
});
