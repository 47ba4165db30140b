import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { MAX_PARAMS_CHARS, normalizeParams, paramsFromWire, paramsToWire } from './svc-params.ts';

const hex = (text: string) => paramsToWire(text)?.toString('hex') ?? null;

test('params normalize: keys in ascending key number, one written form per value', () => {
  const cases: [string, string][] = [
    ['', ''],
    ['  \t ', ''],
    ['alpn=h2,h3 port=8443', 'alpn=h2,h3 port=8443'],
    ['port=8443   alpn="h2,h3"', 'alpn=h2,h3 port=8443'],
    ['port="8004" alpn="bar"', 'alpn=bar port=8004'], // RFC 9460 2.3's example, quotes dropped
    ['ipv4hint=192.0.2.1 alpn=h2 mandatory=ipv4hint,alpn', 'mandatory=alpn,ipv4hint alpn=h2 ipv4hint=192.0.2.1'],
    ['alpn=h2,http/1.1 no-default-alpn', 'alpn=h2,http/1.1 no-default-alpn'],
    ['no-default-alpn="" alpn=h3', 'alpn=h3 no-default-alpn'],
    ['port=080', 'port=80'],
    ['ipv6hint=2001:DB8:0:0:0:0:0:1,::ffff:192.0.2.1', 'ipv6hint=2001:db8::1,::ffff:c000:201'],
    ['ipv6hint=2001:db8:122:344::192.0.2.33', 'ipv6hint=2001:db8:122:344::c000:221'],
    ['ech=AAQAAQID', 'ech=AAQAAQID'],
    // The generic form of a named key is its wire value (RFC 9460 2.1, 7.1.1 `key1=\002h2`).
    ['key1=\\002h2 key3="\\000\\080"', 'alpn=h2 port=80'],
    ['key0=\\000\\003 key3=\\000\\080', 'mandatory=port port=80'],
    ['key65280 key123=""', 'key123 key65280'],
    ['key667=hello', 'key667=hello'],
    ['key667="hello\\210qoo"', 'key667="hello\\210qoo"'],
    ['key9="a b;c(d)\\"e"', 'key9="a b;c(d)\\"e"'],
    ['key7=/dns-query{?dns}', 'key7="/dns-query{?dns}"'],
    ['key8=é', 'key8="\\195\\169"'],
    // Appendix A: `\p` is `p`; A.1: `\,` and `\\` inside an alpn id, written quoted.
    ['alpn=h\\2', 'alpn=h2'],
    ['alpn="f\\\\\\\\oo\\\\,bar,h2"', 'alpn="f\\\\\\\\oo\\\\,bar,h2"'],
    ['alpn=f\\\\\\092oo\\092,bar,h2', 'alpn="f\\\\\\\\oo\\\\,bar,h2"'],
    ['alpn="part1,part2,part3\\\\,part4\\\\\\\\"', 'alpn="part1,part2,part3\\\\,part4\\\\\\\\"'],
    ['alpn=part1\\,\\p\\a\\r\\t2\\044part3\\092,part4\\092\\\\', 'alpn="part1,part2,part3\\\\,part4\\\\\\\\"'],
    ['alpn="a b"', 'alpn="a b"'],
  ];
  for (const [typed, canonical] of cases) {
    assert.equal(normalizeParams(typed), canonical, typed);
    assert.equal(normalizeParams(canonical), canonical, `${canonical} is a fixed point`);
  }
});

test('params that RFC 9460 refuses are refused', () => {
  const bad = [
    // 2.1: each key once, lower-case names, keyNNNNN without leading zeros, 65535 reserved (14.3.2)
    'key123=abc key123=def',
    'alpn=h2 key1=\\002h3',
    'ALPN=h2',
    'key0667=a',
    'key65535=a',
    'key65536=a',
    'dohpath=/q{?dns}', // no name Vigil knows: key7 then
    'foo=bar',
    '=h2',
    'alpn =h2',
    // Values that must not be empty (D.3)
    'mandatory',
    'alpn',
    'port',
    'ipv4hint',
    'ipv6hint',
    'ech',
    'key123=', // `=` with no value: not in the ABNF (Knot refuses it)
    'alpn=',
    // 7.1.1
    'no-default-alpn=abc',
    'no-default-alpn', // without alpn: not self-consistent
    'alpn=h2,,h3',
    'alpn=,h2',
    'alpn=h2,',
    'alpn=a\\\\b', // a lone `\` in an item (A.1)
    `alpn=${'x'.repeat(256)}`,
    'key1=\\003h2', // alpn wire value that does not fill the value
    'key1=\\000',
    // 7.2
    'port=65536',
    'port=-1',
    'port=80,81',
    'port=\\056\\048', // escapes refused in port (7.2)
    'port=0x50',
    // 7.3
    'ipv4hint=192.0.2.1,,192.0.2.2',
    'ipv4hint=192.0.2.256',
    'ipv4hint=2001:db8::1',
    'ipv4hint=192.0.2.01',
    'ipv6hint=192.0.2.1',
    'ipv6hint=fe80::1%eth0',
    'ipv6hint=2001:db8::1\\,2001:db8::2',
    'key4=\\192\\000\\002',
    // ech: canonical padded base64 of an ECHConfigList (its own length prefix)
    'ech=AAA=',
    'ech=AAQAAQI',
    'ech=AAQA AQID',
    'ech="AAQA AQID"',
    'ech=AAQAAQID=',
    'ech=!!!!',
    // 7.4, 8 (D.3)
    'mandatory=key123',
    'mandatory=mandatory',
    'mandatory=key0 alpn=h2',
    'mandatory=key123,key123 key123=abc',
    'mandatory=alpn,,port alpn=h2 port=1',
    'mandatory=alpn\\,port alpn=h2 port=1',
    'mandatory=alpn ipv4hint=192.0.2.1', // alpn is not there
    'key0=\\000\\003\\000\\001 alpn=h2 port=1', // wire list not ascending
    // Presentation syntax (appendix A)
    'alpn="h2',
    'alpn=h2"x"',
    'alpn="h2"x',
    'key9=a;b',
    'key9=a(b',
    'key9="a\nb"',
    'key9="a\\\nb"',
    'key9=\\256',
    'key9=a\\',
    'alpn=h2\0',
  ];
  for (const text of bad) assert.equal(normalizeParams(text), null, text);
  assert.equal(normalizeParams('alpn=h2='), 'alpn=h2=', '`=` may stand in an id');
});

test('params are at most MAX_PARAMS_CHARS characters, typed and stored', () => {
  const hints = (n: number) =>
    `ipv4hint=${Array.from({ length: n }, (_, i) => `192.0.${i >> 8}.${i & 255}`).join(',')}`;
  let n = 1;
  while (hints(n + 1).length <= MAX_PARAMS_CHARS) n++;
  assert.equal(normalizeParams(hints(n)), hints(n));
  assert.equal(normalizeParams(hints(n + 1)), null);
  assert.equal(normalizeParams(` ${' '.repeat(MAX_PARAMS_CHARS)}`), null, 'typed text over the cap');
  // Short as typed, long as stored (every octet becomes \DDD): refused too.
  assert.equal(normalizeParams(`key9=${'é'.repeat(MAX_PARAMS_CHARS / 4)}`), null);
});

test('wire form: keys ascending with 2-octet key and length (RFC 9460 2.2)', () => {
  assert.equal(hex(''), '');
  assert.equal(hex('port=53'), '000300020035');
  assert.equal(hex('key667=hello'), '029b000568656c6c6f');
  assert.equal(
    hex('alpn=h2,h3-19 mandatory=ipv4hint,alpn ipv4hint=192.0.2.1'),
    '00000004000100040001000902683205' + '68332d313900040004c0000201',
  );
  assert.equal(hex('alpn="f\\\\\\\\oo\\\\,bar,h2"'), '0001000c08665c6f6f2c626172026832');
  assert.equal(hex('mandatory=port'), null, 'invalid text has no wire form');
});

test('wire form back to the canonical text; malformed wire is refused', () => {
  for (const text of [
    'alpn=h2,h3 port=8443',
    'mandatory=alpn,ipv4hint alpn=h2 ipv4hint=192.0.2.1',
    'alpn=h3 no-default-alpn ech=AAQAAQID ipv6hint=2001:db8::1 key65280 key65534="\\000"',
  ]) {
    const wire = paramsToWire(text)!;
    assert.equal(paramsFromWire(wire), text);
    assert.equal(paramsFromWire(wire.subarray(0, wire.length - 1)), null, `${text}: ends inside a SvcParam`);
  }
  const w = (h: string) => paramsFromWire(Buffer.from(h, 'hex'));
  assert.equal(w('00030002003500010003026832'), null, 'keys not ascending');
  assert.equal(w('000300020035000300020035'), null, 'a key twice');
  assert.equal(w('0003000100'), null, 'port of one octet');
  assert.equal(w('000200010000010003026832'), null, 'no-default-alpn with a value');
  assert.equal(w('00020000'), null, 'no-default-alpn without alpn');
  assert.equal(w('0000000200030001000302683200'), null, 'mandatory names a key that is absent');
  assert.equal(w('ffff0000'), null, 'key 65535');
  assert.equal(w('000400050102030405'), null, 'ipv4hint not whole addresses');
  assert.equal(w('00050002ffff'), null, 'ech length prefix wrong');
  assert.equal(w('000300'), null, 'truncated header');
  assert.equal(w('0001000401680162'), 'alpn=h,b');
});

test('any octets in alpn ids and opaque values survive wire -> text -> wire', () => {
  const u16 = (n: number) => [n >> 8, n & 255];
  const param = (key: number, value: number[]) => [...u16(key), ...u16(value.length), ...value];
  fc.assert(
    fc.property(
      fc.array(fc.uint8Array({ minLength: 1, maxLength: 12 }), { maxLength: 4 }),
      fc.uniqueArray(fc.integer({ min: 7, max: 65534 }), { maxLength: 4 }),
      fc.array(fc.uint8Array({ maxLength: 12 }), { minLength: 4, maxLength: 4 }),
      (ids, keys, values) => {
        const alpn = ids.flatMap((id) => [id.length, ...id]);
        const opaque = keys.sort((a, b) => a - b).flatMap((k, i) => param(k, [...values[i]!]));
        const wire = Buffer.from([...(ids.length ? param(1, alpn) : []), ...opaque]);
        const text = paramsFromWire(wire);
        assert.notEqual(text, null, wire.toString('hex'));
        assert.match(text!, /^[\x20-\x7e]*$/, 'printable ASCII only: safe in zone text');
        assert.equal(normalizeParams(text!), text);
        assert.deepEqual(paramsToWire(text!), wire);
      },
    ),
  );
});

test('ipv6hint: any 16 octets written as RFC 5952 text (as the WHATWG URL serializer does) and read back', () => {
  assert.equal(
    normalizeParams('ipv6hint=::1.2.3.4,::ffff:1.2.3.4,1:0:0:2:0:0:0:3'),
    'ipv6hint=::102:304,::ffff:102:304,1:0:0:2::3',
  );
  const group = fc.oneof(fc.constant(0), fc.constant(0), fc.integer({ min: 0, max: 0xffff }));
  fc.assert(
    fc.property(fc.array(group, { minLength: 8, maxLength: 8 }), (groups) => {
      const wire = Buffer.from([0, 6, 0, 16, ...groups.flatMap((g) => [g >> 8, g & 255])]);
      const text = paramsFromWire(wire)!.slice('ipv6hint='.length);
      assert.equal(`[${text}]`, new URL(`http://[${text}]/`).hostname);
      assert.deepEqual(paramsToWire(`ipv6hint=${text}`), wire);
    }),
  );
});
