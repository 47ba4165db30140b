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

test('A: owner forms and dotted quads', () => {
  assert.deepEqual(reply('A', { name: 'WWW', ip: '192.0.2.1' }), { name: 'www', data: '192.0.2.1' });
  assert.deepEqual(reply('A', { name: '', ip: '0.0.0.0' }), { name: '', data: '0.0.0.0' });
  assert.deepEqual(reply('A', { name: '*.sub', ip: '255.255.255.255' }), { name: '*.sub', data: '255.255.255.255' });
  assert.deepEqual(lines('A', { name: 'www', ip: '192.0.2.1' }), ['www.example.com.\t3600\tIN\tA\t192.0.2.1']);
  const a = add('A', { name: 'www', ip: '192.0.2.1' });
  for (const name of ['_x', 'a b', undefined]) assert.equal(a({ name }), 'syntaxInvalidHostname', String(name));
  for (const ip of ['192.0.2.01', '192.0.2', '256.0.0.1', '2001:db8::1', ' 192.0.2.1', '', undefined])
    assert.equal(a({ ip }), 'syntaxInvalidIP', String(ip));
});

test('AAAA: stored compressed and lower case', () => {
  assert.deepEqual(reply('AAAA', { name: 'v6', ip: '2001:DB8:0:0:0:0:0:1' }), { name: 'v6', data: '2001:db8::1' });
  assert.deepEqual(lines('AAAA', { name: '', ip: '::1' }), ['example.com.\t3600\tIN\tAAAA\t::1']);
  const a = add('AAAA', { name: 'v6', ip: '2001:db8::1' });
  assert.equal(a({ name: 'a;b' }), 'syntaxInvalidHostname');
  for (const ip of ['192.0.2.1', 'fe80::1%eth0', '2001:db8::g', '1:2:3:4:5:6:7:8:9', '', undefined])
    assert.equal(a({ ip }), 'syntaxInvalidIP', String(ip));
});

test('CNAME: alias is the owner, name the target', () => {
  assert.deepEqual(reply('CNAME', { alias: 'ftp', name: 'www' }), { name: 'ftp', data: 'www.example.com.' });
  assert.deepEqual(reply('CNAME', { alias: 's1._domainkey', name: 's1.dkim.other.net.' }), {
    name: 's1._domainkey',
    data: 's1.dkim.other.net.',
  });
  assert.deepEqual(
    reply('CNAME', { alias: '_acme-challenge', name: '_acme-challenge.auth.other.net.' }).data,
    '_acme-challenge.auth.other.net.',
  );
  assert.deepEqual(lines('CNAME', { alias: '*', name: 'www' }), ['*.example.com.\t3600\tIN\tCNAME\twww.example.com.']);
  const c = add('CNAME', { alias: 'ftp', name: 'www' });
  for (const alias of ['a b', 'a*', undefined]) assert.equal(c({ alias }), 'syntaxInvalidCNAME', String(alias));
  for (const name of ['a b', '*.x.', '', undefined]) assert.equal(c({ name }), 'syntaxInvalidHostname', String(name));
});

test('MX: priority 0..99, target relative unless it ends with a dot', () => {
  assert.deepEqual(reply('MX', { name: '', mxname: 'mail', priority: '10' }), {
    pri: 10,
    host: '',
    data: 'mail.example.com.',
  });
  assert.deepEqual(reply('MX', { name: 'sub', mxname: 'mx.other.org.', priority: '0' }), {
    pri: 0,
    host: 'sub',
    data: 'mx.other.org.',
  });
  assert.deepEqual(lines('MX', { name: '', mxname: 'mail', priority: '99' }), [
    'example.com.\t3600\tIN\tMX\t99 mail.example.com.',
  ]);
  const m = add('MX', { name: '', mxname: 'mail', priority: '10' });
  for (const name of ['a;b', '_x', undefined]) assert.equal(m({ name }), 'syntaxInvalidMX', String(name));
  for (const mxname of ['x y', '_mail', '', undefined])
    assert.equal(m({ mxname }), 'syntaxInvalidHostname', String(mxname));
  for (const priority of ['100', '-1', '+1', ' 1', '1 ', '1e1', '0x10', '1.0', '', undefined])
    assert.equal(m({ priority }), 'syntaxInvalidPriority', String(priority));
});

test('NS: a delegation or an extra apex name server', () => {
  assert.deepEqual(reply('NS', { subdomain: 'sub', nameserver: 'ns1.sub.example.com.' }), {
    name: 'sub',
    data: 'ns1.sub.example.com.',
  });
  assert.deepEqual(reply('NS', { subdomain: '', nameserver: 'ns9.other.net.' }), { name: '', data: 'ns9.other.net.' });
  assert.deepEqual(
    reply('NS', { subdomain: '_acme-challenge', nameserver: 'acme.other.net.' }).name,
    '_acme-challenge',
  );
  assert.deepEqual(lines('NS', { subdomain: 'sub', nameserver: 'ns.sub.example.com' }), [
    'sub.example.com.\t3600\tIN\tNS\tns.sub.example.com.',
  ]);
  const n = add('NS', { subdomain: 'sub', nameserver: 'ns.example.net.' });
  for (const subdomain of ['a b', '*', undefined])
    assert.equal(n({ subdomain }), 'syntaxInvalidSubdomain', String(subdomain));
  for (const nameserver of ['bad name', '_ns.example.net.', '', undefined, 'ns1', '@'])
    assert.equal(n({ nameserver }), 'syntaxInvalidHostname', String(nameserver));
});

// Issue 12, item 8: spec 4.1 calls `nameserver` "the fully qualified host name".
test('NS: nameserver is fully qualified with or without the final dot; MX keeps its trailing-dot rule', () => {
  assert.equal(reply('NS', { subdomain: 'sub', nameserver: 'ns1.example.net' }).data, 'ns1.example.net.');
  assert.equal(reply('NS', { subdomain: 'sub', nameserver: 'NS1.Example.NET.' }).data, 'ns1.example.net.');
  assert.equal(
    reply('NS', { subdomain: 'sub', nameserver: 'ns1.sub.example.com' }).data,
    'ns1.sub.example.com.',
    'a name in the zone: the same',
  );
  assert.equal(reply('NS', { subdomain: '', nameserver: 'ns1.bücher.de' }).data, 'ns1.xn--bcher-kva.de.');
  assert.deepEqual(lines('NS', { subdomain: 'sub', nameserver: 'ns1.example.net' }), [
    'sub.example.com.\t3600\tIN\tNS\tns1.example.net.',
  ]);
  assert.equal(
    reply('MX', { name: '', mxname: 'mail.example.net', priority: '1' }).data,
    'mail.example.net.example.com.',
    'MX: relative without the dot',
  );
});

test('TXT: any clean text up to 4000 bytes, service-label owners', () => {
  assert.deepEqual(reply('TXT', { name: '_dmarc', txtdata: 'v=DMARC1; p=none' }), {
    name: '_dmarc',
    data: 'v=DMARC1; p=none',
  });
  assert.deepEqual(reply('TXT', { name: '', txtdata: 'ünïcode ✓' }).data, 'ünïcode ✓');
  assert.deepEqual(lines('TXT', { name: '', txtdata: 'v=spf1 -all' }), ['example.com.\t3600\tIN\tTXT\t"v=spf1 -all"']);
  assert.equal(add('TXT', { name: '', txtdata: 'x'.repeat(4000) })(), 'ok');
  const t = add('TXT', { name: '', txtdata: 'x' });
  for (const name of ['bad name', 'a"b', undefined]) assert.equal(t({ name }), 'syntaxInvalidTxtname', String(name));
  for (const txtdata of [
    '',
    undefined,
    'x'.repeat(4001),
    'ü'.repeat(2001),
    'a\u0000b',
    'a\nb',
    'a\tb',
    'a\u007fb',
    'a\ufffdb',
    'a\ud800b',
  ]) {
    assert.equal(t({ txtdata }), 'syntaxInvalidTxtdata', JSON.stringify(txtdata?.slice(0, 20)));
  }
});
