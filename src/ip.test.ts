import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseCidr, parseIP, parseIPv6 } from './ip.ts';
import { parsePattern, patternContains } from './audit/patterns.ts';
import { canonicalAddress, expandTargets, permitted } from './audit/targets.ts';
import { RECORD_TYPES, setOptions } from './dns/records.ts';

// Issue 12, item 7: ipaddr.js reads `::a.b.c.d` (IPv4-compatible) as `::ffff:a.b.c.d` (IPv4-mapped).
test('::a.b.c.d is the IPv4-compatible address ::xxxx:yyyy, never IPv4-mapped', () => {
  assert.equal(parseIPv6('::127.0.0.5')?.toString(), '::7f00:5');
  assert.equal(parseIPv6('::ffff:127.0.0.5')?.toString(), '::ffff:7f00:5');
  assert.equal(parseIPv6('1::1.2.3.4')?.toString(), '1::102:304');
  assert.equal(parseIP('127.0.0.5')?.toString(), '127.0.0.5');
  for (const bad of [
    '::127.0.0.05',
    '::1.2.3',
    '::256.1.1.1',
    'fe80::1%eth0',
    '127.1',
    '0x7f.0.0.1',
    '010.0.0.1',
    '',
    ':::',
  ]) {
    assert.equal(parseIP(bad), null, bad);
  }
  assert.equal(parseCidr('::127.0.0.0/104')?.join('/'), '::7f00:0/104');
  for (const bad of ['::/129', '10.0.0.0/33', '10.0.0.0/08', '::127.0.0.05/128', '10.0.0.0'])
    assert.equal(parseCidr(bad), null, bad);
});

test('AAAA add: ::127.0.0.5 is stored as ::7f00:5', () => {
  assert.equal(RECORD_TYPES.AAAA.parse({ name: 'v6', ip: '::127.0.0.5' }, 'example.com').data, '::7f00:5');
  assert.equal(RECORD_TYPES.AAAA.parse({ name: 'v6', ip: '::FFFF:127.0.0.5' }, 'example.com').data, '::ffff:7f00:5');
});

test('audit patterns and targets: ::127.0.0.5 is not 127.0.0.5', () => {
  assert.deepEqual(expandTargets('::127.0.0.5', '127.0.0.1').addresses, ['::7f00:5']);
  assert.deepEqual(expandTargets('::ffff:127.0.0.5', '127.0.0.1').addresses, ['127.0.0.5'], 'mapped stays IPv4');
  assert.equal(canonicalAddress('::127.0.0.5'), '::7f00:5');
  assert.ok(!patternContains(parsePattern('127.0.0.0/8')!, '::127.0.0.5'));
  assert.ok(!patternContains(parsePattern('::127.0.0.5')!, '127.0.0.5'));
  assert.ok(patternContains(parsePattern('::127.0.0.0/104')!, '::7f00:9'));
  // The fence: a grant of 127.0.0.0/8 does not let `::127.0.0.5` through as 127.0.0.5.
  assert.ok(!permitted(expandTargets('::127.0.0.5', '127.0.0.1').addresses, '127.0.0.0/8', ['127.0.0.0/8', '::1']));
});

test('Options: addresses stored in RFC 5952 form, so later ipaddr.js readers see the right address', () => {
  const o = setOptions(
    {
      masters: '::127.0.0.5, [::127.0.0.6]:5353, 127.0.0.7:5300',
      allowtransferacl: '::127.0.0.5,::127.0.0.0/104',
      notify: 'yes',
      alsonotify: '::127.0.0.8',
    },
    'slave',
  );
  assert.equal(o.masters, '::7f00:5,[::7f00:6]:5353,127.0.0.7:5300');
  assert.equal(o.allowtransferacl, '::7f00:5,::7f00:0/104');
  assert.equal(o.alsonotify, '::7f00:8');
});
