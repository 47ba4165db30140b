import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ApiError } from '../errors.ts';
import { canonicalAddress, expandTargets, MAX_TARGETS, permitted } from './targets.ts';

const code = (fn: () => unknown) => {
  try {
    fn();
    return 'ok';
  } catch (err) {
    return (err as ApiError).code;
  }
};

test('patterns expand exactly: *, ranges, lists, CIDRs, duplicates once', () => {
  assert.deepEqual(expandTargets('10.0.0.1-3', '127.0.0.1').addresses, ['10.0.0.1', '10.0.0.2', '10.0.0.3']);
  assert.equal(expandTargets('10.0.1.*', '127.0.0.1').addresses.length, 256);
  assert.deepEqual(expandTargets('10.0.0-1.7', '127.0.0.1').addresses, ['10.0.0.7', '10.0.1.7']);
  assert.deepEqual(expandTargets('10.0.0.1, 10.0.0.1-2', '127.0.0.1').addresses, ['10.0.0.1', '10.0.0.2']);
  assert.deepEqual(expandTargets('192.0.2.0/30', '127.0.0.1').addresses, [
    '192.0.2.0',
    '192.0.2.1',
    '192.0.2.2',
    '192.0.2.3',
  ]);
  assert.deepEqual(expandTargets('2001:DB8::1', '127.0.0.1').addresses, ['2001:db8::1']);
  assert.deepEqual(expandTargets('2001:db8::/126', '127.0.0.1').addresses, [
    '2001:db8::',
    '2001:db8::1',
    '2001:db8::2',
    '2001:db8::3',
  ]);
  assert.equal(expandTargets(' 10.0.0.1 ,10.0.0.2', '127.0.0.1').hostip, '10.0.0.1,10.0.0.2');
});

test('absent or blank ipaddr is the caller’s own address (mapped IPv4 unwrapped)', () => {
  assert.deepEqual(expandTargets(undefined, '127.0.0.5').addresses, ['127.0.0.5']);
  assert.deepEqual(expandTargets('  ', '::ffff:127.0.0.5').addresses, ['127.0.0.5']);
  assert.equal(expandTargets(undefined, '::1').hostip, '::1');
});

test(`bounds: more than ${MAX_TARGETS} addresses is refused before anything is expanded`, () => {
  assert.equal(
    code(() => expandTargets('10.0.0-1.*', '127.0.0.1')),
    'IPPermissionsProblem',
  );
  assert.equal(
    code(() => expandTargets('*.*.*.*', '127.0.0.1')),
    'IPPermissionsProblem',
  );
  assert.equal(
    code(() => expandTargets('0.0.0.0/0', '127.0.0.1')),
    'IPPermissionsProblem',
  );
  assert.equal(
    code(() => expandTargets('::/0', '127.0.0.1')),
    'IPPermissionsProblem',
  );
  assert.equal(
    code(() => expandTargets('10.0.1.*,10.0.2.1', '127.0.0.1')),
    'IPPermissionsProblem',
  );
  assert.equal(
    code(() => expandTargets('10.0.1.*', '127.0.0.1')),
    'ok',
  );
});

test('malformed patterns: leading zeros (never octal), reversed ranges, junk', () => {
  for (const bad of [
    '010.0.0.1',
    '10.0.0.01',
    '10.0.0.5-1',
    '10.0.0.256',
    '10.0.0',
    '10.0.0.1,',
    ',10.0.0.1',
    'localhost',
    '0x7f.0.0.1',
    '10.0.0.1/33',
    '\u0000',
    '1.2.3.4 5',
  ]) {
    assert.equal(
      code(() => expandTargets(bad, '127.0.0.1')),
      'IPPermissionsProblem',
      bad,
    );
  }
});

test('permission: every address inside a grant and inside --scan-allow', () => {
  const fence = ['127.0.0.0/8', '::1'];
  assert.ok(permitted(['127.0.0.1', '127.0.0.2'], '127.0.0.1-2', fence));
  assert.ok(!permitted(['127.0.0.1', '127.0.0.3'], '127.0.0.1-2', fence));
  assert.ok(!permitted(['10.0.0.1'], '10.0.0.0/8', fence), 'granted but outside the server fence');
  assert.ok(!permitted(['127.0.0.1'], '', fence), 'no grants: nothing');
  assert.ok(permitted(['::1'], '::1', fence));
});

test('canonical addresses', () => {
  assert.equal(canonicalAddress('::FFFF:10.1.2.3'), '10.1.2.3');
  assert.equal(canonicalAddress('2001:0db8:0000::0001'), '2001:db8::1');
  assert.equal(canonicalAddress('nope'), null);
});
