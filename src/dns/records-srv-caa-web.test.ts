import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ApiError } from '../errors.ts';
import { RECORD_TYPES, type Fields, type RecordTypeName, zoneLines } from './records.ts';

const Z = 'example.com';
const codeOf = (fn: () => unknown) => {
  try {
    fn();
    return 'ok';
  } catch (e) {
    assert.ok(e instanceof ApiError, String(e));
    return e.code;
  }
};
/** The code an add answers for `base` with `change` applied (undefined removes a field). */
const add =
  (type: RecordTypeName, base: Fields) =>
  (change: Fields = {}) =>
    codeOf(() => RECORD_TYPES[type].parse({ ...base, ...change }, Z));
const parsed = (type: RecordTypeName, fields: Fields) => RECORD_TYPES[type].parse(fields, Z);
const reply = (type: RecordTypeName, fields: Fields) => RECORD_TYPES[type].reply(parsed(type, fields));
const lines = (type: RecordTypeName, fields: Fields) => zoneLines(type, parsed(type, fields), Z, 3600);

test('SRV: owner _srvc._prot.host, numbers bounded, target a host or "."', () => {
  const base = { srvc: '_SIP', prot: 'TCP', host: 'voice', pri: '0', weight: '65535', port: '5060', target: '.' };
  assert.deepEqual(reply('SRV', base), {
    srvc: 'sip',
    prot: 'tcp',
    host: 'voice',
    pri: 0,
    weight: 65535,
    port: 5060,
    target: '.',
  });
  assert.equal(RECORD_TYPES.SRV.owner(parsed('SRV', base)), '_sip._tcp.voice');
  assert.equal(RECORD_TYPES.SRV.owner(parsed('SRV', { ...base, host: '' })), '_sip._tcp');
  assert.equal(parsed('SRV', { ...base, host: 'voice.example.com.' }).host, 'voice');
  assert.equal(parsed('SRV', { ...base, prot: '_tls', target: 'sip.other.net.' }).target, 'sip.other.net.');
  assert.deepEqual(lines('SRV', { ...base, host: '', target: 'sip' }), [
    '_sip._tcp.example.com.\t3600\tIN\tSRV\t0 65535 5060 sip.example.com.',
  ]);
  const s = add('SRV', base);
  for (const srvc of ['123', 'si p', '-sip', 'a'.repeat(16), '__sip', '', undefined])
    assert.equal(s({ srvc }), 'syntaxInvalidSrvc', String(srvc));
  for (const prot of ['xyz', 'tcp.', '__tcp', '', undefined])
    assert.equal(s({ prot }), 'syntaxInvalidProt', String(prot));
  for (const host of [
    'a b',
    '*',
    '_x',
    'other.org.',
    `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(40)}`,
    undefined,
  ]) {
    assert.equal(s({ host }), 'syntaxInvalidHostname', String(host).slice(0, 20));
  }
  for (const pri of ['65536', '-1', 'x', '', undefined]) assert.equal(s({ pri }), 'syntaxInvalidPriority', String(pri));
  for (const weight of ['70000', '1.5', '', undefined])
    assert.equal(s({ weight }), 'syntaxInvalidWeight', String(weight));
  for (const port of ['65536', '0x50', '', undefined]) assert.equal(s({ port }), 'syntaxInvalidPort', String(port));
  for (const target of ['a b', '_sip.other.net.', '*.x.', '', '..', undefined])
    assert.equal(s({ target }), 'syntaxInvalidTarget', String(target));
});

test('CAA: flag and tag codes; issuer and iodef values checked', () => {
  const c = add('CAA', { subdomain: '', flag: '0', tag: 'issue', value: 'ca.example' });
  assert.deepEqual(reply('CAA', { subdomain: '', flag: '128', tag: 'issuewild', value: 'ca.example' }), {
    name: '',
    flag: 128,
    tag: 'issuewild',
    caaval: 'ca.example',
  });
  for (const value of [
    ';',
    'ca.example;',
    'letsencrypt.org; validationmethods=dns-01',
    'ca.example; a=1; b-c=x/y',
    ' ca.example ',
  ])
    assert.equal(c({ value }), 'ok', value);
  for (const value of ['mailto:security@example.com', 'https://example.com/caa', 'http://example.com'])
    assert.equal(c({ tag: 'iodef', value }), 'ok', value);
  for (const subdomain of ['a b', '*', undefined])
    assert.equal(c({ subdomain }), 'syntaxInvalidSubdomain', String(subdomain));
  for (const flag of ['256', '-1', '', 'x', undefined]) assert.equal(c({ flag }), 'syntaxInvalidFlag', String(flag));
  for (const tag of ['ISSUE', 'issuer', 'contactemail', '', undefined])
    assert.equal(c({ tag }), 'syntaxInvalidTag', String(tag));
  for (const value of [
    '',
    undefined,
    'a b',
    'ca..x;',
    'ca.example; =x',
    'ca.example; a=b c',
    'x'.repeat(256),
    'ca\u00e9.example',
    'a\nb',
  ]) {
    assert.equal(c({ value }), 'unspecifiedError', JSON.stringify(value?.slice(0, 20)));
  }
  for (const value of ['security@example.com', 'ftp://example.com', 'mailto:nobody', 'https://'])
    assert.equal(c({ tag: 'iodef', value }), 'unspecifiedError', value);
  assert.deepEqual(lines('CAA', { subdomain: '', flag: '0', tag: 'iodef', value: 'mailto:a"b@example.com' }), [
    'example.com.\t3600\tIN\tCAA\t0 iodef "mailto:a\\"b@example.com"',
  ]);
});

test('CAA: a value built to make a regex backtrack is answered at once', () => {
  const started = process.hrtime.bigint();
  assert.equal(
    add('CAA', { subdomain: '', flag: '0', tag: 'issue' })({ value: `${';  '.repeat(80)}!` }),
    'unspecifiedError',
  );
  // A guard against exponential matching (seconds to years), not a timing assertion on normal work.
  assert.ok(process.hrtime.bigint() - started < 1_000_000_000n);
});

test('WebForwarding: http(s) target, cloak 0 or 1, not a zone record', () => {
  const w = add('WebForwarding', { host: 'www', target: 'https://example.org/' });
  assert.deepEqual(reply('WebForwarding', { host: 'go', target: 'https://example.org/a?b=1', cloak: '1' }), {
    host: 'go',
    target: 'https://example.org/a?b=1',
    cloak: 1,
  });
  assert.equal(parsed('WebForwarding', { host: '', target: 'HTTP://Example.ORG' }).target, 'http://example.org/');
  assert.equal(
    parsed('WebForwarding', { host: 'x', target: 'https://example.org/"q"<2>' }).target,
    'https://example.org/%22q%22%3C2%3E',
  );
  assert.equal(parsed('WebForwarding', { host: 'x', target: 'https://example.org/', cloak: '' }).cloak, 0);
  assert.deepEqual(lines('WebForwarding', { host: 'www', target: 'https://example.org/' }), []);
  for (const host of ['a b', '*', undefined]) assert.equal(w({ host }), 'syntaxInvalidHostname', String(host));
  for (const target of [
    'ftp://x',
    'javascript:alert(1)',
    'https://',
    'example.org',
    'https://a b',
    'https://x/\u0000',
    `https://x/${'a'.repeat(2000)}`,
    '',
    undefined,
  ]) {
    assert.equal(w({ target }), 'syntaxInvalidTarget', String(target).slice(0, 20));
  }
  for (const cloak of ['2', 'yes', ' 1', '01']) assert.equal(w({ cloak }), 'unspecifiedError', cloak);
});

test('SOA and Options are not added through parse', () => {
  assert.equal(
    codeOf(() => RECORD_TYPES.SOA.parse({}, Z)),
    'unspecifiedError',
  );
  assert.equal(
    codeOf(() => RECORD_TYPES.Options.parse({}, Z)),
    'unspecifiedError',
  );
  assert.equal(RECORD_TYPES.Options.owner({}), null);
  assert.deepEqual(zoneLines('Options', { masters: '', allowtransferacl: '', notify: '', alsonotify: '' }, Z, 60), []);
});
