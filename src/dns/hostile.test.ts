import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ApiError, type SpecCode } from '../errors.ts';
import { RECORD_TYPES, type Fields, type RecordTypeName, zoneLines } from './records.ts';

/**
 * Hostile input on every field of every add: each is refused with the
 * field's own code (never a crash), and whatever is accepted writes zone
 * lines that cannot break out of their record.
 */
const Z = 'example.com';

const ADDS: [RecordTypeName, Fields, Record<string, SpecCode>][] = [
  ['A', { name: 'www', ip: '192.0.2.1' }, { name: 'syntaxInvalidHostname', ip: 'syntaxInvalidIP' }],
  ['AAAA', { name: 'www', ip: '2001:db8::1' }, { name: 'syntaxInvalidHostname', ip: 'syntaxInvalidIP' }],
  ['CNAME', { alias: 'ftp', name: 'www' }, { alias: 'syntaxInvalidCNAME', name: 'syntaxInvalidHostname' }],
  [
    'MX',
    { name: '', mxname: 'mail', priority: '10' },
    { name: 'syntaxInvalidMX', mxname: 'syntaxInvalidHostname', priority: 'syntaxInvalidPriority' },
  ],
  [
    'NS',
    { subdomain: 'sub', nameserver: 'ns.other.net.' },
    { subdomain: 'syntaxInvalidSubdomain', nameserver: 'syntaxInvalidHostname' },
  ],
  ['TXT', { name: '', txtdata: 'v=spf1 -all' }, { name: 'syntaxInvalidTxtname' }],
  [
    'CAA',
    { subdomain: '', flag: '0', tag: 'issue', value: 'ca.example' },
    {
      subdomain: 'syntaxInvalidSubdomain',
      flag: 'syntaxInvalidFlag',
      tag: 'syntaxInvalidTag',
      value: 'unspecifiedError',
    },
  ],
  [
    'SRV',
    { srvc: 'sip', prot: 'tcp', host: '', pri: '1', weight: '1', port: '5060', target: 'sip' },
    {
      srvc: 'syntaxInvalidSrvc',
      prot: 'syntaxInvalidProt',
      host: 'syntaxInvalidHostname',
      pri: 'syntaxInvalidPriority',
      weight: 'syntaxInvalidWeight',
      port: 'syntaxInvalidPort',
      target: 'syntaxInvalidTarget',
    },
  ],
  [
    'WebForwarding',
    { host: 'www', target: 'https://example.org/' },
    { host: 'syntaxInvalidHostname', target: 'syntaxInvalidTarget' },
  ],
];

/** Refused in every field above (TXT data aside: quotes, `;` and `$` are fine text there). */
const HOSTILE = [
  'a\n$INCLUDE /etc/passwd',
  '\n$ORIGIN evil.',
  'x;comment',
  'x (',
  'x )',
  '"x"',
  'x\\',
  'a b',
  '\u0000',
  'a\u0000b',
  'a\r\nb',
  '\ufffd',
  'x\ufffd',
  '\ud800',
  '$TTL 0',
  '@ IN A 1.2.3.4',
  'x'.repeat(10_000),
  ' 1',
  '1 ',
  '\t',
  '\u2028',
  'a\u0085b',
];

const codeOf = (fn: () => unknown) => {
  try {
    fn();
    return 'ok';
  } catch (e) {
    assert.ok(e instanceof ApiError, `a crash, not an answer: ${String(e)}`);
    return e.code;
  }
};

test('every field refuses hostile values with its own code', () => {
  for (const [type, base, codes] of ADDS) {
    for (const [field, code] of Object.entries(codes)) {
      for (const value of HOSTILE) {
        if (field === 'value' && value.trim() === '1') continue; // ` 1` is an issuer domain with blanks around it (RFC 8659 4.2)
        const got = codeOf(() => RECORD_TYPES[type].parse({ ...base, [field]: value }, Z));
        assert.equal(got, code, `${type}.${field} = ${JSON.stringify(value.slice(0, 30))}`);
      }
    }
  }
});

test('TXT data: injection attempts are kept as text, escaped in the zone line', () => {
  for (const txtdata of [
    'a";\n$INCLUDE /etc/passwd',
    '$INCLUDE /etc/passwd',
    'x;comment',
    'x (',
    '") (',
    '\\',
    '\\"',
  ]) {
    const parsed = codeOf(() => RECORD_TYPES.TXT.parse({ name: '', txtdata }, Z));
    if (txtdata.includes('\n')) {
      assert.equal(parsed, 'syntaxInvalidTxtdata');
      continue;
    }
    const lines = zoneLines('TXT', RECORD_TYPES.TXT.parse({ name: '', txtdata }, Z), Z, 60);
    assert.equal(lines.length, 1);
    assertSafe(lines[0]!);
  }
  assert.equal(
    zoneLines('TXT', { name: '', data: '") $INCLUDE x (' }, Z, 60)[0],
    'example.com.\t60\tIN\tTXT\t"\\") $INCLUDE x ("',
  );
});

test('IDN input is converted, not refused', () => {
  assert.equal(RECORD_TYPES.A.parse({ name: 'bücher', ip: '192.0.2.1' }, Z).name, 'xn--bcher-kva');
  assert.equal(RECORD_TYPES.CNAME.parse({ alias: 'x', name: 'bücher.de.' }, Z).data, 'xn--bcher-kva.de.');
  assert.equal(
    RECORD_TYPES.MX.parse({ name: '', mxname: 'Bücher', priority: '1' }, Z).data,
    'xn--bcher-kva.example.com.',
  );
});

/**
 * A zone line: outside escaped quotes only name, number and address
 * characters, a byte escape (\DDD) or an escaped dot: no space in a name,
 * no `;`, `(`, `)`, `$` or quote that the master-file parser would act on.
 */
const SAFE_TEXT = String.raw`(?:[A-Za-z0-9_*+.:-]|\\\d{3}|\\\.)`;
const SAFE_LINE = new RegExp(`^${SAFE_TEXT}+\\.\\t\\d+\\tIN\\t[A-Z]+\\t(?:${SAFE_TEXT}| )*$`);
function assertSafe(line: string): void {
  assert.ok(!/[\n\r]/.test(line), 'one line');
  const bare = line.replace(/"(?:[^"\\]|\\.)*"/g, '');
  assert.match(bare, SAFE_LINE, JSON.stringify(line.slice(0, 80)));
}

test('random junk: whatever an add accepts writes safe zone lines', () => {
  // Deterministic pseudo-random strings over an alphabet of trouble.
  let seed = 42;
  const rnd = (n: number) => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) % n;
  const alphabet = [
    'a',
    'z',
    '0',
    '9',
    '-',
    '_',
    '.',
    '*',
    '@',
    ' ',
    '\t',
    '\n',
    ';',
    '"',
    '\\',
    '(',
    ')',
    '$',
    'ü',
    '\u0000',
    '\ufffd',
    '/',
    ':',
    '=',
  ];
  const junk = () => Array.from({ length: 1 + rnd(12) }, () => alphabet[rnd(alphabet.length)]).join('');
  let accepted = 0;
  for (let i = 0; i < 20_000; i++) {
    const [type, base, codes] = ADDS[rnd(ADDS.length)]!;
    const fields = Object.keys(codes);
    const field = fields[rnd(fields.length)]!;
    let data;
    try {
      data = RECORD_TYPES[type].parse({ ...base, [field]: junk() }, Z);
    } catch (e) {
      assert.ok(e instanceof ApiError, String(e));
      continue;
    }
    accepted++;
    for (const l of zoneLines(type, data, Z, 60)) assertSafe(l);
  }
  assert.ok(accepted > 100, `some junk is a valid name (${accepted})`);
});

test('records from elsewhere (a transferred slave zone) are escaped, never trusted', () => {
  const evil = 'x\n$INCLUDE /etc/passwd';
  const lines = [
    ...zoneLines('A', { name: evil, data: '192.0.2.1' }, Z, 60),
    ...zoneLines('A', { name: 'a', data: '1.2.3.4\n$INCLUDE x' }, Z, 60),
    ...zoneLines('CNAME', { name: 'a', data: `${evil}.` }, Z, 60),
    ...zoneLines('MX', { host: '', pri: '1\n$INCLUDE x', data: 'a (.' }, Z, 60),
    ...zoneLines('CAA', { name: '', flag: 0, tag: 'issue\n$INCLUDE', caaval: 'x' }, Z, 60),
    ...zoneLines('SRV', { srvc: 's;', prot: 'tcp', host: '', pri: 1, weight: 1, port: 1, target: 'a b.' }, Z, 60),
  ];
  assert.equal(lines.length, 4, 'an address or CAA tag that is not one is left out');
  for (const l of lines) assertSafe(l);
  assert.equal(lines[0], 'x\\010\\036INCLUDE\\032\\047etc\\047passwd.example.com.\t60\tIN\tA\t192.0.2.1');
});
