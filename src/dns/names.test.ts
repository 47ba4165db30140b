import assert from 'node:assert/strict';
import { test } from 'node:test';
import { looksLikeIp, normalizeDomain, normalizeOwner, normalizeTarget } from './names.ts';

test('domains: lower case, trailing dot dropped, IDN to A-labels', () => {
  assert.equal(normalizeDomain('Example.COM.'), 'example.com');
  assert.equal(normalizeDomain('bücher.de'), 'xn--bcher-kva.de');
  assert.equal(normalizeDomain('xn--bcher-kva.de'), 'xn--bcher-kva.de');
});

test('domains: everything that is not a zone name is refused', () => {
  const bad = ['', 'com', '.com', 'a..b', '-a.com', 'a-.com', 'a_b.com', 'a b.com', ' a.com', 'a.com ', 'a.com\n', 'a.com;', '$ORIGIN.com',
    `${'a'.repeat(64)}.com`, `${'abcdefghi.'.repeat(26)}com`, 'x'.repeat(10_000), '1.2.3.4', 'a\u0000.com', '*.a.com', 'a.com..'];
  for (const b of bad) assert.equal(normalizeDomain(b), null, JSON.stringify(b.slice(0, 30)));
});

test('owners: apex, hosts, multi-label, wildcard, underscore, absolute forms', () => {
  const z = 'example.com';
  assert.equal(normalizeOwner('', z), '');
  assert.equal(normalizeOwner('@', z), '');
  assert.equal(normalizeOwner('WWW', z), 'www');
  assert.equal(normalizeOwner('a.b.c', z), 'a.b.c');
  assert.equal(normalizeOwner('www.example.com', z), 'www');
  assert.equal(normalizeOwner('www.example.com.', z), 'www');
  assert.equal(normalizeOwner('example.com.', z), '');
  assert.equal(normalizeOwner('*', z, { wildcard: true }), '*');
  assert.equal(normalizeOwner('*.sub', z, { wildcard: true }), '*.sub');
  assert.equal(normalizeOwner('*', z), null);
  assert.equal(normalizeOwner('_dmarc', z, { underscore: true }), '_dmarc');
  assert.equal(normalizeOwner('_dmarc', z), null);
  assert.equal(normalizeOwner('café', z), 'xn--caf-dma');
  assert.equal(normalizeOwner('www.other.org.', z), null, 'out of zone');
  assert.equal(normalizeOwner('a*b', z, { wildcard: true }), null);
  assert.equal(normalizeOwner('sub.*', z, { wildcard: true }), null);
});

test('owners: injection attempts never pass', () => {
  for (const b of ['a b', 'a;b', 'a"b', 'a\nb', 'a\\b', '(a)', '$INCLUDE', 'a\u0000', 'a\tb', "a'b", 'x'.repeat(300)]) {
    assert.equal(normalizeOwner(b, 'example.com', { wildcard: true, underscore: true }), null, JSON.stringify(b));
  }
});

test('targets: relative to the zone unless they end with a dot', () => {
  assert.equal(normalizeTarget('mail', 'example.com'), 'mail.example.com.');
  assert.equal(normalizeTarget('mx.other.org.', 'example.com'), 'mx.other.org.');
  assert.equal(normalizeTarget('MX.Other.ORG.', 'example.com'), 'mx.other.org.');
  assert.equal(normalizeTarget('', 'example.com'), 'example.com.');
  assert.equal(normalizeTarget('a b', 'example.com'), null);
  assert.equal(normalizeTarget('*.x.', 'example.com'), null);
  assert.equal(normalizeTarget('192.0.2.1.', 'example.com'), '192.0.2.1.');
  assert.ok(looksLikeIp('192.0.2.1.'));
  assert.ok(!looksLikeIp('mail.example.com.'));
});
