import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parsePattern, parsePatternList, patternContains } from './patterns.ts';

test('octet patterns: *, ranges, plain numbers', () => {
  const p = parsePattern('10.0.*.1-20')!;
  assert.ok(patternContains(p, '10.0.7.1'));
  assert.ok(patternContains(p, '10.0.255.20'));
  assert.ok(!patternContains(p, '10.0.7.21'));
  assert.ok(!patternContains(p, '10.1.7.1'));
  assert.ok(!patternContains(p, '::1'));
});

test('leading zeros, reversed and out-of-range octets are rejected', () => {
  for (const bad of [
    '10.0.0.01',
    '010.0.0.1',
    '10.0.0.20-1',
    '10.0.0.256',
    '10.0.0',
    '10.0.0.1-2-3',
    '1.2.3.4.5',
    'x',
    '',
    '10.0.0.-1',
  ]) {
    assert.equal(parsePattern(bad), null, bad);
  }
});

test('CIDRs: only dotted decimal or IPv6 before the slash, a plain prefix length after', () => {
  for (const bad of [
    '0x7f.0.0.1/32',
    '127.1/8',
    '0177.0.0.1/32',
    '127.0.0.1/032',
    '127.0.0.1/33',
    '127.0.0.1/8/8',
    '/8',
    '127.0.0.1/',
  ]) {
    assert.equal(parsePattern(bad), null, bad);
  }
  assert.ok(parsePattern('::ffff:127.0.0.1/128'));
});

test('CIDRs and single addresses, IPv4 and IPv6; mapped IPv4 matches IPv4', () => {
  assert.ok(patternContains(parsePattern('192.0.2.0/24')!, '192.0.2.200'));
  assert.ok(!patternContains(parsePattern('192.0.2.0/24')!, '192.0.3.1'));
  assert.ok(patternContains(parsePattern('::1')!, '::1'));
  assert.ok(patternContains(parsePattern('2001:db8::/32')!, '2001:db8:1::5'));
  assert.ok(patternContains(parsePattern('127.0.0.1')!, '::ffff:127.0.0.1'));
});

test('lists: one bad item rejects the list', () => {
  assert.equal(parsePatternList('127.0.0.1, 10.*.*.*')?.length, 2);
  assert.equal(parsePatternList('127.0.0.1,nope'), null);
});
