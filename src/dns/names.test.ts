import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fqdn, looksLikeIp, normalizeDomain, normalizeOwner, normalizeTarget } from './names.ts';

const Z = 'example.com';
const ALL = { wildcard: true, underscore: true };
/** What hostile or broken input looks like, in every field that holds a name. */
const HOSTILE = [
  'a b',
  ' a',
  'a ',
  'a;b',
  'x;comment',
  'a"b',
  "a'b",
  'a\nb',
  'a\r',
  'a\\b',
  'x (',
  '(a)',
  'a)',
  '$INCLUDE',
  '$ORIGIN',
  'a\n$INCLUDE /etc/passwd',
  'a\u0000',
  'a\tb',
  'a\ufffd',
  'a\ud800b',
  'a/b',
  'a:b',
  'a,b',
  'a#b',
  'a%b',
  'a+b',
  'a=b',
  'a<b',
  'a`b',
  'a\u0085b',
  'a；b',
  'x'.repeat(10_000),
  'a..b',
  '.a',
  '-a',
  'a-',
  'xn--zz',
  `${'a'.repeat(64)}`,
];

test('domains: lower case, one trailing dot dropped, IDN to A-labels', () => {
  assert.equal(normalizeDomain('Example.COM.'), 'example.com');
  assert.equal(normalizeDomain('bücher.de'), 'xn--bcher-kva.de');
  assert.equal(normalizeDomain('BÜCHER.DE'), 'xn--bcher-kva.de');
  assert.equal(normalizeDomain('xn--bcher-kva.de'), 'xn--bcher-kva.de');
  assert.equal(normalizeDomain('ｅｘａｍｐｌｅ.com'), 'example.com', 'full-width letters map to ASCII (UTS 46)');
  assert.equal(normalizeDomain('a-b.c0.example'), 'a-b.c0.example');
  assert.equal(normalizeDomain(`${'a'.repeat(63)}.com`), `${'a'.repeat(63)}.com`);
  const long = `${'abcdefghi.'.repeat(24)}example.com`; // 251 characters
  assert.equal(normalizeDomain(long), long);
});

test('domains: everything that is not a zone name is refused', () => {
  const bad = [
    '',
    '.',
    'com',
    'com.',
    '.com',
    'a..b',
    '-a.com',
    'a-.com',
    'a_b.com',
    '_a.com',
    '*.a.com',
    'a.com..',
    '1.2.3.4',
    '192.0.2.1.',
    `${'abcdefghi.'.repeat(25)}comx.`,
    'a.com。',
    'xn--zz.com',
    'a@b.com',
    ...HOSTILE.map((h) => `${h}.com`),
    ...HOSTILE,
  ];
  for (const b of bad) assert.equal(normalizeDomain(b), null, JSON.stringify(b.slice(0, 40)));
});

test('owners: apex, hosts, multi-label, wildcard, underscore, absolute forms', () => {
  assert.equal(normalizeOwner('', Z, {}), '');
  assert.equal(normalizeOwner('@', Z, {}), '');
  assert.equal(normalizeOwner('WWW', Z, {}), 'www');
  assert.equal(normalizeOwner('a.b.c', Z, {}), 'a.b.c');
  assert.equal(normalizeOwner('www.example.com', Z, {}), 'www');
  assert.equal(normalizeOwner('www.Example.COM.', Z, {}), 'www');
  assert.equal(normalizeOwner('example.com', Z, {}), '');
  assert.equal(normalizeOwner('example.com.', Z, {}), '');
  assert.equal(normalizeOwner('*', Z, { wildcard: true }), '*');
  assert.equal(normalizeOwner('*.sub', Z, { wildcard: true }), '*.sub');
  assert.equal(normalizeOwner('*.example.com.', Z, { wildcard: true }), '*');
  assert.equal(normalizeOwner('*', Z, {}), null);
  assert.equal(normalizeOwner('_dmarc', Z, { underscore: true }), '_dmarc');
  assert.equal(normalizeOwner('_sip._tcp', Z, { underscore: true }), '_sip._tcp');
  assert.equal(normalizeOwner('_dmarc', Z, {}), null);
  assert.equal(normalizeOwner('bücher', Z, {}), 'xn--bcher-kva');
  assert.equal(normalizeOwner('www.bücher.de', 'xn--bcher-kva.de', {}), 'www');
  assert.equal(normalizeOwner('www.other.org.', Z, {}), null, 'absolute, out of zone');
  assert.equal(normalizeOwner('www.', Z, {}), null);
  for (const b of ['a*b', 'sub.*', '*.*', '**', '.']) assert.equal(normalizeOwner(b, Z, ALL), null, b);
});

test('owners: the fully qualified name stays within 253 octets', () => {
  const zone = `${'z'.repeat(60)}.example.com`; // 72
  const rel = `${'a'.repeat(60)}.${'b'.repeat(60)}.${'c'.repeat(58)}`; // 180: 180 + 1 + 72 = 253
  assert.equal(normalizeOwner(rel, zone, {}), rel);
  assert.equal(normalizeOwner(`x${rel}`, zone, {}), null);
});

test('owners: injection attempts and junk never pass, whatever the rules', () => {
  for (const b of HOSTILE) {
    assert.equal(normalizeOwner(b, Z, ALL), null, JSON.stringify(b.slice(0, 40)));
    assert.equal(normalizeOwner(`${b}.example.com.`, Z, ALL), null, JSON.stringify(b.slice(0, 40)));
  }
});

test('targets: relative to the zone unless they end with a dot', () => {
  assert.equal(normalizeTarget('mail', Z), 'mail.example.com.');
  assert.equal(normalizeTarget('a.b', Z), 'a.b.example.com.');
  assert.equal(normalizeTarget('mx.other.org.', Z), 'mx.other.org.');
  assert.equal(normalizeTarget('MX.Other.ORG.', Z), 'mx.other.org.');
  assert.equal(normalizeTarget('@', Z), 'example.com.');
  assert.equal(normalizeTarget('bücher.de.', Z), 'xn--bcher-kva.de.');
  assert.equal(normalizeTarget('_acme-challenge.other.org.', Z), '_acme-challenge.other.org.');
  assert.equal(normalizeTarget('localhost.', Z), 'localhost.');
});

test('targets: a relative name already ending in the zone is not doubled', () => {
  assert.equal(normalizeTarget('mail.example.com', Z), 'mail.example.com.');
  assert.equal(normalizeTarget('example.com', Z), 'example.com.');
  assert.equal(normalizeTarget('mail.example.org', Z), 'mail.example.org.example.com.');
});

test('targets: no name, wildcards, junk and over-long names are refused', () => {
  for (const b of [
    '',
    '.',
    '*.x.',
    '*',
    'a..',
    'a.b..',
    '-a.b.',
    'a@b.',
    `${'abcdefghi.'.repeat(25)}comx.`,
    ...HOSTILE,
  ]) {
    assert.equal(normalizeTarget(b, Z), null, JSON.stringify(b.slice(0, 40)));
  }
});

test('targets: an all-numeric name is a host name; looksLikeIp tells it apart', () => {
  assert.equal(normalizeTarget('192.0.2.1.', Z), '192.0.2.1.');
  assert.ok(looksLikeIp('192.0.2.1.'));
  assert.ok(looksLikeIp('2001:db8::1'));
  assert.ok(!looksLikeIp('mail.example.com.'));
  assert.ok(!looksLikeIp('1.2.3.'));
});

test('fqdn: absolute with the trailing dot', () => {
  assert.equal(fqdn('', Z), 'example.com.');
  assert.equal(fqdn('www', Z), 'www.example.com.');
  assert.equal(fqdn('*.sub', Z), '*.sub.example.com.');
});
