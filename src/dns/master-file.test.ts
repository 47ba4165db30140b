import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseMasterFile, ttlValue } from './master-file.ts';
import { RECORD_TYPES, type RecordTypeName } from './records.ts';

const text = (b: Uint8Array) => Buffer.from(b).toString('utf8');
/** Records as `owner ttl TYPE rdata…`, rdata by bytes (escapes undone). */
const read = (zone: string) => {
  const out = parseMasterFile(zone, 'example.com.');
  return {
    errors: out.errors,
    lines: out.records.map((r) => [r.owner, r.ttl, r.type, ...r.rdata.map((t) => text(t.bytes))].join(' ')),
  };
};

// The cases users report breaking other importers (issue 16); each was tried on the npm candidates (docs/dns.md).
test('parentheses across lines, comments inside them, and the SOA', () => {
  const r = read(`@ 3600 IN SOA ns1.example.com. hostmaster.example.com. ( ; opens here
      2024010101 ; serial
      10800      ; refresh
      3600 1209600
      300 )
`);
  assert.deepEqual(r.errors, []);
  assert.deepEqual(r.lines, [
    'example.com. 3600 SOA ns1.example.com. hostmaster.example.com. 2024010101 10800 3600 1209600 300',
  ]);
});

test('TXT with several strings and escapes; `;` inside quotes is text, after them a comment', () => {
  const r = read('txt 60 IN TXT "v=spf1; a" "say \\"hi\\"" "back\\\\slash" "\\195\\169t\\195\\169" ; a "comment"\n');
  assert.deepEqual(r.errors, []);
  const rec = parseMasterFile(
    'txt 60 IN TXT "v=spf1; a" "say \\"hi\\"" "back\\\\slash" "\\195\\169t\\195\\169"\n',
    'example.com.',
  ).records[0]!;
  assert.deepEqual(
    rec.rdata.map((t) => text(t.bytes)),
    ['v=spf1; a', 'say "hi"', 'back\\slash', 'été'],
  );
  assert.deepEqual(
    rec.rdata.map((t) => t.quoted),
    [true, true, true, true],
  );
  // The type table joins the strings into one text, as SPF and DKIM read them.
  assert.equal(RECORD_TYPES.TXT.fromText!('txt', rec.rdata, 'example.com.').txtdata, 'v=spf1; asay "hi"back\\slashété');
});

test('$ORIGIN (absolute and relative), $TTL with units, @, relative and absolute names', () => {
  const r = read(`$TTL 1h30m
@ NS ns1.example.net.
www A 192.0.2.1
abs.example.com. A 192.0.2.2
$ORIGIN sub
host A 192.0.2.3
@ MX 10 mail
$ORIGIN other.example.com.
x CNAME @
`);
  assert.deepEqual(r.errors, []);
  assert.deepEqual(r.lines, [
    'example.com. 5400 NS ns1.example.net.',
    'www.example.com. 5400 A 192.0.2.1',
    'abs.example.com. 5400 A 192.0.2.2',
    'host.sub.example.com. 5400 A 192.0.2.3',
    'sub.example.com. 5400 MX 10 mail',
    'x.other.example.com. 5400 CNAME @',
  ]);
  // Names in rdata are read against the $ORIGIN in force where the record stands.
  const mx = parseMasterFile('$ORIGIN sub.example.com.\n@ MX 10 mail\n', 'example.com.').records[0]!;
  assert.deepEqual(RECORD_TYPES.MX.fromText!('sub', mx.rdata, mx.origin), {
    name: 'sub',
    priority: '10',
    mxname: 'mail.sub.example.com.',
  });
});

test('class and TTL in either order; an omitted owner is the previous one; TTL carried from the previous record without $TTL', () => {
  const r = read(`www IN 300 A 192.0.2.1
    300 IN A 192.0.2.2
\tA 192.0.2.3
mail 600 A 192.0.2.4
`);
  assert.deepEqual(r.errors, []);
  assert.deepEqual(r.lines, [
    'www.example.com. 300 A 192.0.2.1',
    'www.example.com. 300 A 192.0.2.2',
    'www.example.com. 300 A 192.0.2.3',
    'mail.example.com. 600 A 192.0.2.4',
  ]);
  assert.equal(
    parseMasterFile('www A 192.0.2.1\n', 'example.com.').records[0]!.ttl,
    null,
    'no TTL anywhere: the zone default',
  );
});

test('$INCLUDE, other directives, other classes, bad TTLs, open quotes and parentheses are errors with their line', () => {
  assert.deepEqual(read('$INCLUDE /etc/passwd\n').errors, [
    'line 1: $INCLUDE is refused: the import reads only the text it is sent',
  ]);
  assert.match(read('$GENERATE 1-9 h$ A 192.0.2.$\n').errors[0]!, /^line 1: the directive \$GENERATE is not supported/);
  assert.match(read('www CH TXT "x"\n').errors[0]!, /^line 1: class CH/);
  assert.match(read('\nwww 99999999999 A 192.0.2.1\n').errors[0]!, /^line 2: 99999999999 is not a TTL/);
  assert.match(read('www TXT "open\nnext A 192.0.2.1\n').errors[0]!, /^line 1: a quoted string is not closed/);
  assert.match(read('@ SOA a. b. (\n1 2 3 4 5\n').errors[0]!, /^line 1: "\(" is never closed/);
  assert.match(read('  A 192.0.2.1\n').errors[0]!, /^line 1: the record has no owner/);
  assert.match(read('www TXT "\\300"\n').errors[0]!, /bad escape/);
});

test('CRLF line ends and escaped characters in bare tokens', () => {
  const r = read('www\tIN\tA\t192.0.2.1\r\nt TXT a\\;b\r\n');
  assert.deepEqual(r.errors, []);
  assert.deepEqual(r.lines, ['www.example.com.  A 192.0.2.1', 't.example.com.  TXT a;b']);
});

test('TTL units', () => {
  assert.equal(ttlValue('1w'), 604800);
  assert.equal(ttlValue('1D2h'), 93600);
  assert.equal(ttlValue('2147483647'), 2147483647);
  assert.equal(ttlValue('2147483648'), null);
  assert.equal(ttlValue('1x'), null);
});

test('every zone record type of the table reads its presentation form into its add fields', () => {
  const zone = 'example.com.';
  const one = (line: string) => {
    const r = parseMasterFile(line, zone).records[0]!;
    const rel = r.owner === zone ? '' : r.owner.slice(0, -zone.length - 1);
    return RECORD_TYPES[r.type as RecordTypeName].parse(
      RECORD_TYPES[r.type as RecordTypeName].fromText!(rel, r.rdata, r.origin),
      'example.com',
    );
  };
  assert.deepEqual(one('www A 192.0.2.1'), { name: 'www', data: '192.0.2.1' });
  assert.deepEqual(one('www AAAA 2001:DB8:0::1'), { name: 'www', data: '2001:db8::1' });
  assert.deepEqual(one('alias CNAME www'), { name: 'alias', data: 'www.example.com.' });
  assert.deepEqual(one('@ MX 10 mx.example.net.'), { host: '', data: 'mx.example.net.', pri: 10 });
  assert.deepEqual(one('sub NS ns1.sub'), { name: 'sub', data: 'ns1.sub.example.com.' });
  assert.deepEqual(one('_sip._tcp.voice SRV 1 2 5060 pbx'), {
    srvc: 'sip',
    prot: 'tcp',
    host: 'voice',
    pri: 1,
    weight: 2,
    port: 5060,
    target: 'pbx.example.com.',
  });
  assert.deepEqual(one('_sip._udp SRV 0 0 0 .'), {
    srvc: 'sip',
    prot: 'udp',
    host: '',
    pri: 0,
    weight: 0,
    port: 0,
    target: '.',
  });
  assert.deepEqual(one('@ CAA 0 issue "letsencrypt.org; validationmethods=dns-01"'), {
    name: '',
    flag: 0,
    tag: 'issue',
    caaval: 'letsencrypt.org; validationmethods=dns-01',
  });
});
