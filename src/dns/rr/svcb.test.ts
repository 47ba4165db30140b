import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { test } from 'node:test';
import dnsPacket, { type Answer, type Question } from 'dns-packet';
import { checkZoneText, codeOf, importedAs } from './test-kit.ts';
import { displayLine, type Fields, line } from './kit.ts';
import { HTTPS, SVCB, type SvcbData } from './svcb.ts';

const Z = 'example.com';
/** Either type: they differ only in name. */
type Svc = typeof SVCB | typeof HTTPS;
const base: Fields = { name: '', priority: '1', target: '.', params: 'alpn=h2,h3 port=8443' };
const add = (change: Fields) => codeOf(() => SVCB.parse({ ...base, ...change }, Z));
const hex = (d: SvcbData) => SVCB.wire.encode(d).toString('hex');

/** A zone file's records of one type read back as add fields, then parsed: the import's path. */
function imported(text: string, zone: string, type: Svc = SVCB): SvcbData[] {
  return importedAs<SvcbData>(type, text, zone);
}

test('the add: owner, priority, target and params, each with its code', () => {
  assert.deepEqual(SVCB.parse(base, Z), { name: '', priority: 1, target: '.', params: 'alpn=h2,h3 port=8443' });
  const p = (change: Fields) => SVCB.parse({ ...base, ...change }, Z);
  assert.equal(p({ name: '@' }).name, '');
  assert.equal(p({ name: '_8443._https.API' }).name, '_8443._https.api');
  assert.equal(p({ name: '*.svc' }).name, '*.svc');
  assert.equal(p({ name: 'www.example.com.' }).name, 'www');
  assert.equal(p({ target: 'svc.example.net' }).target, 'svc.example.net.', 'fully qualified without its dot');
  assert.equal(p({ target: 'SVC.example.net.' }).target, 'svc.example.net.');
  assert.equal(p({ target: 'svc.example.com' }).target, 'svc.example.com.');
  assert.equal(p({ target: '@' }).target, 'example.com.');
  assert.equal(p({ params: undefined }).params, '');
  assert.equal(p({ params: ' port=8443 alpn="h2,h3" ' }).params, 'alpn=h2,h3 port=8443');
  assert.deepEqual(p({ priority: '0', target: 'cdn.example.net.', params: '' }), {
    name: '',
    priority: 0,
    target: 'cdn.example.net.',
    params: '',
  });
  assert.equal(p({ priority: '65535' }).priority, 65535);

  for (const name of [undefined, 'a b', 'x.other.org.', '-x', 'a..b'])
    assert.equal(add({ name }), 'syntaxInvalidHostname');
  for (const priority of [undefined, '', '-1', '65536', '1.5', 'a', ' 1'])
    assert.equal(add({ priority }), 'syntaxInvalidPriority');
  for (const target of [undefined, '', 'svc', '_svc.example.net.', '*.example.net.', 'a b.', '..', 'x..y.'])
    assert.equal(add({ target }), 'syntaxInvalidTarget', String(target));
  for (const params of ['port=65536', 'alpn', 'mandatory=port', 'key65535', 'alpn=h2 alpn=h3', 'no-default-alpn'])
    assert.equal(add({ params }), 'syntaxInvalidParams', params);
  // RFC 9460 2.4.2: AliasMode carries no SvcParams.
  assert.equal(add({ priority: '0' }), 'syntaxInvalidParams');
  assert.equal(add({ priority: '0', params: ' ' }), 'ok');
  assert.equal(add({ params: `port=1${' '.repeat(2000)}` }), 'syntaxInvalidParams');
});

test('reply, owner, targets, display; HTTPS is SVCB under another name', () => {
  const d = SVCB.parse({ ...base, name: '_8443._foo.api', target: 'svc.example.net.' }, Z);
  const reply = { name: '_8443._foo.api', priority: 1, target: 'svc.example.net.', params: 'alpn=h2,h3 port=8443' };
  assert.deepEqual(SVCB.reply(d), reply);
  assert.equal(SVCB.owner(d), '_8443._foo.api');
  assert.deepEqual(SVCB.targets(d), ['svc.example.net.']);
  assert.deepEqual(SVCB.targets(SVCB.parse(base, Z)), [], '`.`: the owner itself');
  assert.deepEqual(SVCB.targets(SVCB.parse({ ...base, priority: '0', target: 'cdn.net.', params: '' }, Z)), [
    'cdn.net.',
  ]);
  assert.equal(displayLine(SVCB.display, reply), '_8443._foo.api 1 svc.example.net. alpn=h2,h3 port=8443');
  assert.equal(displayLine(SVCB.display, SVCB.reply(SVCB.parse(base, Z))), '@ 1 . alpn=h2,h3 port=8443');
  assert.deepEqual(HTTPS.parse(base, Z), SVCB.parse(base, Z));
  for (const t of [SVCB, HTTPS])
    assert.equal(
      codeOf(() => t.parse(t.add.example, 'example.org')),
      'ok',
    );
  assert.equal(SVCB.wire.type, 'UNKNOWN_64');
  assert.equal(HTTPS.wire.type, 'UNKNOWN_65');
  assert.equal(HTTPS.add.script, 'dnsAddHTTPS.php');
  // The add forms keep their literal types: the add scripts' contracts are typed from them.
  const names: (typeof HTTPS)['add']['fields'][number]['name'][] = ['name', 'priority', 'target', 'params'];
  // @ts-expect-error `domain` is every add's, not a field of the form
  names.push('domain');
  assert.deepEqual(
    HTTPS.add.fields.map((f) => [f.name, f.kind, f.required, f.code]),
    [
      ['name', 'owner', true, 'syntaxInvalidHostname'],
      ['priority', 'integer', true, 'syntaxInvalidPriority'],
      ['target', 'hostname', true, 'syntaxInvalidTarget'],
      ['params', 'text', false, 'syntaxInvalidParams'],
    ],
  );
});

test('the bound holds the longest record JSON can hold', () => {
  const zone = 'z.co';
  const label = 'a'.repeat(63);
  const owner = `${label}.${label}.${label}.${'a'.repeat(253 - 3 * 64 - zone.length - 1)}`;
  const target = `${label}.${label}.${label}.${'b'.repeat(61)}.`;
  // Params of 2000 characters, as many `\` and `"` (2 bytes in JSON) as a value can hold.
  const value = `key65534="${'\\\\\\"'.repeat(497)}x"`;
  const d = { ...SVCB.parse({ name: owner, priority: '65535', target, params: value }, zone), ttl: 2147483647 };
  assert.equal(d.params.length, 2000);
  assert.equal(d.target.length, 254);
  assert.ok(JSON.stringify(d).length <= SVCB.bound, `${JSON.stringify(d).length} > ${SVCB.bound}`);
  assert.ok(JSON.stringify(d).length > SVCB.bound - 32, 'and is not loose');
});

/** RFC 9460 appendix D: presentation RDATA and its wire form (D.1, D.2), spaces between fields. */
const FOO_COM = '03666f6f076578616d706c6503636f6d00';
const FOO_ORG = '03666f6f076578616d706c65036f726700';
const VECTORS: [string, string, string][] = [
  ['HTTPS', '0 foo.example.com.', `0000 ${FOO_COM}`],
  ['SVCB', '1 .', '0001 00'],
  ['SVCB', '16 foo.example.com. port=53', `0010 ${FOO_COM} 0003 0002 0035`],
  ['SVCB', '1 foo.example.com. key667=hello', `0001 ${FOO_COM} 029b 0005 68656c6c6f`],
  ['SVCB', '1 foo.example.com. key667="hello\\210qoo"', `0001 ${FOO_COM} 029b 0009 68656c6c6fd2716f6f`],
  [
    'SVCB',
    '1 foo.example.com. (\n ipv6hint="2001:db8::1,2001:db8::53:1"\n )',
    `0001 ${FOO_COM} 0006 0020 20010db8000000000000000000000001 20010db8000000000000000000530001`,
  ],
  [
    'SVCB',
    '1 example.com. ipv6hint="2001:db8:122:344::192.0.2.33"',
    '0001 076578616d706c6503636f6d00 0006 0010 20010db80122034400000000c0000221',
  ],
  [
    'SVCB',
    '16 foo.example.org. (\n alpn=h2,h3-19 mandatory=ipv4hint,alpn\n ipv4hint=192.0.2.1\n )',
    `0010 ${FOO_ORG} 0000 0004 0001 0004 0001 0009 02 6832 05 68332d3139 0004 0004 c0000201`,
  ],
  [
    'SVCB',
    '16 foo.example.org. alpn="f\\\\\\\\oo\\\\,bar,h2"',
    `0010 ${FOO_ORG} 0001 000c 08 665c6f6f2c626172 02 6832`,
  ],
  [
    'SVCB',
    '16 foo.example.org. alpn=f\\\\\\092oo\\092,bar,h2',
    `0010 ${FOO_ORG} 0001 000c 08 665c6f6f2c626172 02 6832`,
  ],
];

test('RFC 9460 appendix D.1 and D.2: zone text read, encoded byte for byte, decoded back', () => {
  for (const [type, rdata, wire] of VECTORS) {
    const t = type === 'HTTPS' ? HTTPS : SVCB;
    const [d] = imported(`example.com. 3600 IN ${type} ${rdata}\n`, Z, t);
    assert.ok(d, rdata);
    assert.equal(hex(d), wire.replace(/ /g, ''), rdata);
    const back = t.wire.decode(Buffer.from(wire.replace(/ /g, ''), 'hex'), '');
    assert.deepEqual(back, d, rdata);
    assert.equal(t.wire.present(t.wire.encode(d)), t.rdata(d), rdata);
  }
});

test('RFC 9460 appendix D.3: the failure cases are refused with syntaxInvalidParams', () => {
  for (const params of [
    'key123=abc key123=def',
    'mandatory',
    'alpn',
    'port',
    'ipv4hint',
    'ipv6hint',
    'no-default-alpn=abc',
    'mandatory=key123',
    'mandatory=mandatory',
    'mandatory=key123,key123 key123=abc',
  ]) {
    const text = `example.com. SVCB 1 foo.example.com. ${params}\n`;
    assert.equal(
      codeOf(() => imported(text, Z)),
      'syntaxInvalidParams',
      params,
    );
  }
});

const ZONE = 'example.org';
const RECORDS: [Svc, Fields][] = [
  [HTTPS, { name: '', priority: '0', target: 'cdn.example.net.' }],
  [HTTPS, { name: 'www', priority: '1', target: '.', params: 'alpn=h2,h3 ipv4hint=192.0.2.1 ipv6hint=2001:db8::1' }],
  [HTTPS, { name: '*', priority: '2', target: 'svc.example.org', params: 'port=8443 no-default-alpn alpn=h3' }],
  [HTTPS, { name: '_8443._https.api', priority: '1', target: '@', params: 'ech=AAQAAQID mandatory=ech' }],
  [SVCB, { name: '_dns', priority: '1', target: 'dns.example.net', params: 'alpn=dot,doq key7="/q{?dns}"' }],
  [
    SVCB,
    { name: '_foo', priority: '3', target: '.', params: 'alpn="f\\\\\\\\oo\\\\,bar,h2" key65280 key9="a b;c(d)"' },
  ],
  [SVCB, { name: '_bar', priority: '65535', target: '.', params: 'key667="hello\\210qoo\\"\\\\" mandatory=key667' }],
];
const data = RECORDS.map(([t, f]) => [t, t.parse(f, ZONE)] as const);
const zoneText = [
  '$ORIGIN example.org.',
  '$TTL 3600',
  'example.org.\t3600\tIN\tSOA\tns1.example.org. hostmaster.example.org. 1 7200 900 1209600 300',
  'example.org.\t3600\tIN\tNS\tns1.example.org.',
  'ns1.example.org.\t3600\tIN\tA\t192.0.2.53',
  'svc.example.org.\t3600\tIN\tA\t192.0.2.80',
  ...data.map(([t, d]) => line(d.name, ZONE, 300, t.type, t.rdata(d)!)),
  '',
].join('\n');

function check(tool: string, args: (file: string) => string[]): { ok: boolean; output: string } {
  return checkZoneText(tool, args, zoneText);
}

test("BIND's named-checkzone accepts the zone text", (t) => {
  if (!existsSync('/usr/bin/named-checkzone')) return t.skip('named-checkzone absent (Debian: bind9-utils)');
  const r = check('/usr/bin/named-checkzone', (file) => ['-i', 'local', ZONE, file]);
  assert.ok(r.ok, `${r.output}\n${zoneText}`);
});

test("Knot's kzonecheck accepts the zone text", (t) => {
  if (!existsSync('/usr/bin/kzonecheck')) return t.skip('kzonecheck absent (Debian: knot-dnssecutils)');
  const r = check('/usr/bin/kzonecheck', (file) => ['-o', ZONE, file]);
  assert.ok(r.ok, `${r.output}\n${zoneText}`);
});

test('zone text -> fromText -> parse gives the same stored data', () => {
  const back = [...imported(zoneText, ZONE, HTTPS), ...imported(zoneText, ZONE, SVCB)];
  assert.deepEqual(
    back,
    [...data.filter(([t]) => t === HTTPS), ...data.filter(([t]) => t === SVCB)].map(([, d]) => d),
  );
  // Quoted tokens only as a value right after `key=`; priority and target missing get their own codes.
  const one = (rdata: string) => codeOf(() => imported(`@ SVCB ${rdata}\n`, ZONE));
  assert.equal(one('1 . "alpn=h2"'), 'syntaxInvalidParams');
  assert.equal(one('1 . alpn=h2 "x"'), 'syntaxInvalidParams');
  assert.equal(one('1 . alpn= "h2"'), 'ok');
  assert.equal(one('1'), 'syntaxInvalidTarget');
  assert.equal(one(''), 'syntaxInvalidPriority');
  assert.equal(one('1 svc'), 'ok', 'a relative target is relative to $ORIGIN in zone text');
  assert.deepEqual(imported('$ORIGIN sub.example.org.\nx SVCB 1 svc\n', ZONE)[0]?.target, 'svc.sub.example.org.');
});

test('the wire: a whole response through dns-packet gives the same data, and present is rdata', () => {
  for (const [t, d] of data) {
    const answer = { type: t.wire.type, name: 'x.example.org', ttl: 300, class: 'IN', data: t.wire.encode(d) };
    const packet = dnsPacket.encode({ type: 'response', id: 7, answers: [answer as unknown as Answer] });
    const [got] = dnsPacket.decode(packet).answers ?? [];
    assert.equal(got?.type, t.wire.type);
    const rd = (got as { data: unknown }).data;
    assert.deepEqual(t.wire.decode(rd, d.name), d);
    assert.equal(t.wire.present(rd), t.rdata(d));
    assert.equal(t.wire.canonical(rd), rd, 'not lower-cased (RFC 3597 7)');
  }
  // dns-packet knows types 64 and 65 only by number: a question for them decodes as UNKNOWN_64/65,
  // and the name `SVCB` or `HTTPS` encodes as type 0.
  const q = dnsPacket.decode(
    dnsPacket.encode({
      type: 'query',
      id: 1,
      questions: [{ type: 'UNKNOWN_65', name: 'example.org' } as unknown as Question],
    }),
  );
  assert.equal(q.questions?.[0]?.type, 'UNKNOWN_65');
  const wrong = dnsPacket.encode({
    type: 'query',
    id: 1,
    questions: [{ type: 'HTTPS', name: 'a' } as unknown as Question],
  });
  assert.equal(dnsPacket.decode(wrong).questions?.[0]?.type, 'UNKNOWN_0');
});

test('transferred RDATA: kept as sent (case too), refused when malformed', () => {
  const w = SVCB.wire;
  const rd = (h: string) => Buffer.from(h.replace(/ /g, ''), 'hex');
  assert.deepEqual(w.decode(rd('0001 03 466f6f 03 4e6574 00 0003 0002 0035'), 'a'), {
    name: 'a',
    priority: 1,
    target: 'Foo.Net.',
    params: 'port=53',
  });
  assert.equal(w.present(rd('0001 03 466f6f 03 4e6574 00 0003 0002 0035')), '1 Foo.Net. port=53');
  const bad = [
    '0001',
    '000100 0003',
    '0001 c00c',
    '0001 03666f6f',
    '0001 03 612e62 00',
    '0001 03 612062 00',
    '0000 00 0003 0002 0035',
    '0001 00 0003 0002 0035 0001 0003 026832',
    '0001 00 ffff 0000',
  ];
  for (const h of bad) {
    assert.equal(w.decode(rd(h), ''), null, h);
    assert.equal(w.present(rd(h)), null, `${h}: the caller writes RFC 3597's generic form`);
  }
  assert.equal(w.decode('0001 00', ''), null, 'not a Buffer');
  assert.equal(
    SVCB.rdata({ name: '', priority: 1, target: '.', params: 'port=x' }),
    null,
    'unreadable params: no line',
  );
});
