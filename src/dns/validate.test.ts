import assert from 'node:assert/strict';
import { test } from 'node:test';
import { defaultSoa, RECORD_TYPES, type Fields } from './records.ts';
import { validateZone } from './validate.ts';
import type { ZoneModel, ZoneRecord } from './zone.ts';

const Z = 'example.com';
let seq = 0;
const rec = (type: ZoneRecord['type'], fields: Fields): ZoneRecord => ({
  seq: ++seq,
  type,
  data: RECORD_TYPES[type].parse(fields, Z),
});
const model = (...records: ZoneRecord[]): ZoneModel => ({
  zone: Z,
  serial: 2026112301,
  records: [
    { seq: ++seq, type: 'SOA', data: defaultSoa(Z, 'ns.vigil.test') },
    rec('NS', { subdomain: '', nameserver: 'ns1.ns.vigil.test.' }),
    ...records,
  ],
});
const errs = (...r: ZoneRecord[]) => validateZone(model(...r)).errors;
const warns = (...r: ZoneRecord[]) => validateZone(model(...r)).warnings;
const A = (name: string, ip = '192.0.2.1') => rec('A', { name, ip });

test('a plain zone validates clean', () => {
  const r = validateZone(
    model(
      A(''),
      A('www'),
      A('mail'),
      rec('MX', { name: '', mxname: 'mail', priority: '10' }),
      rec('CNAME', { alias: 'ftp', name: 'www' }),
      rec('TXT', { name: '', txtdata: 'v=spf1 mx -all' }),
      rec('SRV', { srvc: 'sip', prot: 'tcp', host: '', pri: '1', weight: '1', port: '5060', target: 'www' }),
      rec('CAA', { subdomain: '', flag: '0', tag: 'issue', value: 'ca.example' }),
      rec('WebForwarding', { host: 'go', target: 'https://example.org/' }),
      rec('NS', { subdomain: 'sub', nameserver: 'ns1.sub.example.com' }),
      A('ns1.sub'),
      rec('MX', { name: 'w', mxname: 'x.wild', priority: '1' }),
      A('*.wild'),
    ),
  );
  assert.deepEqual(r, { errors: [], warnings: [] });
});

test('errors: CNAME at the apex, beside other data, twice at one name', () => {
  assert.match(errs(rec('CNAME', { alias: '', name: 'www' })).join(), /CNAME at the zone apex example\.com/);
  assert.match(
    errs(rec('CNAME', { alias: 'x', name: 'www' }), A('x')).join(),
    /CNAME at x\.example\.com beside other records/,
  );
  assert.match(
    errs(rec('CNAME', { alias: 'x', name: 'www' }), rec('TXT', { name: 'x', txtdata: 't' })).join(),
    /beside other records/,
  );
  assert.match(
    errs(rec('CNAME', { alias: 'x', name: 'a' }), rec('CNAME', { alias: 'x', name: 'b' })).join(),
    /more than one CNAME at x\.example\.com/,
  );
});

test('errors: an in-bailiwick delegation needs glue', () => {
  assert.match(
    errs(rec('NS', { subdomain: 'sub', nameserver: 'ns.sub.example.com' })).join(),
    /delegation of sub\.example\.com to ns\.sub\.example\.com needs a glue/,
  );
  assert.deepEqual(errs(rec('NS', { subdomain: 'sub', nameserver: 'ns.sub.example.com' }), A('ns.sub')), []);
  assert.deepEqual(
    errs(
      rec('NS', { subdomain: 'sub', nameserver: 'ns.sub.example.com' }),
      rec('AAAA', { name: 'ns.sub', ip: '2001:db8::53' }),
    ),
    [],
  );
  assert.deepEqual(
    errs(rec('NS', { subdomain: 'sub', nameserver: 'ns.other.net.' })),
    [],
    'out of bailiwick: no glue needed',
  );
});

test('errors: targets that are IP addresses', () => {
  assert.match(
    errs(rec('MX', { name: '', mxname: '192.0.2.1.', priority: '1' })).join(),
    /MX at example\.com points at an IP address \(192\.0\.2\.1\)/,
  );
  assert.match(
    errs(
      rec('SRV', { srvc: 'sip', prot: 'tcp', host: '', pri: '1', weight: '1', port: '1', target: '192.0.2.1.' }),
    ).join(),
    /SRV at _sip\._tcp\.example\.com points at an IP/,
  );
  assert.match(
    errs(rec('NS', { subdomain: 'sub', nameserver: '192.0.2.1.' })).join(),
    /NS at sub\.example\.com points at an IP/,
  );
  assert.match(
    errs(rec('CNAME', { alias: 'x', name: '192.0.2.1.' })).join(),
    /CNAME at x\.example\.com points at an IP/,
  );
});

test('errors: no NS at the apex; web forwarding beside addresses', () => {
  const noNs: ZoneModel = {
    zone: Z,
    serial: 1,
    records: [{ seq: 1, type: 'SOA', data: defaultSoa(Z, 'ns.vigil.test') }],
  };
  assert.deepEqual(validateZone(noNs).errors, ['the zone has no NS record at its apex example.com']);
  assert.match(
    errs(rec('WebForwarding', { host: 'go', target: 'https://example.org/' }), A('go')).join(),
    /go\.example\.com is web-forwarded and also has a A record/,
  );
});

test('warnings: MX, NS or SRV at a CNAME', () => {
  assert.match(
    warns(
      rec('MX', { name: '', mxname: 'mx', priority: '1' }),
      rec('CNAME', { alias: 'mx', name: 'www' }),
      A('www'),
    ).join(),
    /MX at example\.com points at mx\.example\.com, which is a CNAME/,
  );
  assert.match(
    warns(
      rec('NS', { subdomain: '', nameserver: 'ns.example.com' }),
      rec('CNAME', { alias: 'ns', name: 'www' }),
      A('www'),
    ).join(),
    /NS at example\.com points at ns\.example\.com, which is a CNAME/,
  );
  assert.match(
    warns(
      rec('SRV', { srvc: 'sip', prot: 'tcp', host: '', pri: '1', weight: '1', port: '1', target: 's' }),
      rec('CNAME', { alias: 's', name: 'www' }),
      A('www'),
    ).join(),
    /SRV .* which is a CNAME/,
  );
});

test('warnings: in-zone targets without an address, dangling CNAMEs', () => {
  assert.match(
    warns(rec('MX', { name: '', mxname: 'mail', priority: '1' })).join(),
    /MX at example\.com points at mail\.example\.com, which has no A or AAAA record/,
  );
  assert.match(
    warns(rec('MX', { name: '', mxname: 'mail', priority: '1' }), rec('TXT', { name: 'mail', txtdata: 'x' })).join(),
    /no A or AAAA/,
  );
  assert.match(
    warns(rec('CNAME', { alias: 'x', name: 'nowhere' })).join(),
    /CNAME at x\.example\.com points at nowhere\.example\.com, which does not exist in the zone/,
  );
  assert.deepEqual(warns(rec('CNAME', { alias: 'x', name: 'txt' }), rec('TXT', { name: 'txt', txtdata: 'x' })), []);
  assert.deepEqual(warns(rec('CNAME', { alias: 'x', name: 'a.wild' }), A('*.wild')), [], 'a wildcard answers');
  assert.deepEqual(
    warns(rec('MX', { name: '', mxname: 'mx.other.net.', priority: '1' })),
    [],
    'out of zone: not checked',
  );
  assert.deepEqual(
    warns(rec('NS', { subdomain: 'sub', nameserver: 'ns.other.net.' }), rec('CNAME', { alias: 'x', name: 'a.sub' })),
    [],
    'below a delegation: the child answers',
  );
});

test('warnings: low zone TTL', () => {
  const low = model();
  (low.records[0]!.data as { min: number }).min = 299;
  assert.deepEqual(validateZone(low).warnings, ['the zone TTL (SOA minimum 299 s) is below 300 s']);
  (low.records[0]!.data as { min: number }).min = 300;
  assert.deepEqual(validateZone(low).warnings, []);
});

test('warnings: duplicates', () => {
  assert.deepEqual(warns(A('a'), A('a')), ['duplicate A record at a.example.com']);
  assert.deepEqual(warns(rec('TXT', { name: '', txtdata: 'x' }), rec('TXT', { name: '@', txtdata: 'x' })), [
    'duplicate TXT record at example.com',
  ]);
  assert.deepEqual(warns(A('a'), A('a', '192.0.2.2')), []);
  assert.deepEqual(
    warns(rec('AAAA', { name: 'a', ip: '2001:db8::1' }), rec('AAAA', { name: 'a', ip: '2001:DB8:0::1' })),
    ['duplicate AAAA record at a.example.com'],
  );
});

test('warnings: data below or at a delegation is occluded; glue is not', () => {
  const ns = rec('NS', { subdomain: 'sub', nameserver: 'ns.other.org.' });
  assert.deepEqual(warns(ns, A('www.sub')), [
    'A at www.sub.example.com is below the delegation sub.example.com and will not be served',
  ]);
  assert.deepEqual(warns(ns, A('sub')), [
    'A at sub.example.com is at the delegation sub.example.com and will not be served',
  ]);
  assert.deepEqual(warns(rec('NS', { subdomain: 'sub', nameserver: 'ns.sub.example.com' }), A('ns.sub')), []);
  assert.deepEqual(
    warns(
      rec('NS', { subdomain: 'sub', nameserver: 'ns.sub.example.com' }),
      A('ns.sub'),
      rec('TXT', { name: 'ns.sub', txtdata: 'x' }),
    ),
    ['TXT at ns.sub.example.com is below the delegation sub.example.com and will not be served'],
  );
});

// Issue 12, item 7: a CNAME loop published without a word.
test('errors: a CNAME that points at itself, and loops through several names', () => {
  assert.deepEqual(errs(rec('CNAME', { alias: 'x', name: 'x' })), ['CNAME at x.example.com points at itself']);
  assert.deepEqual(errs(rec('CNAME', { alias: 'x', name: 'x.example.com.' })), [
    'CNAME at x.example.com points at itself',
  ]);
  assert.deepEqual(errs(rec('CNAME', { alias: 'a', name: 'b' }), rec('CNAME', { alias: 'b', name: 'a' })), [
    'CNAME loop a.example.com -> b.example.com -> a.example.com',
  ]);
  // A tail that leads into a loop reports the loop once, not once per name on the way.
  assert.deepEqual(
    errs(
      rec('CNAME', { alias: 't', name: 'a' }),
      rec('CNAME', { alias: 'a', name: 'b' }),
      rec('CNAME', { alias: 'b', name: 'c' }),
      rec('CNAME', { alias: 'c', name: 'a' }),
    ),
    ['CNAME loop a.example.com -> b.example.com -> c.example.com -> a.example.com'],
  );
  assert.deepEqual(
    errs(rec('CNAME', { alias: 'a', name: 'b' }), rec('CNAME', { alias: 'b', name: 'c' }), A('c')),
    [],
    'a chain that ends is fine',
  );
  assert.deepEqual(errs(rec('CNAME', { alias: 'x', name: 'x.other.net.' })), [], 'out of zone: not followed');
  assert.deepEqual(
    errs(
      rec('NS', { subdomain: 'sub', nameserver: 'ns.other.net.' }),
      rec('CNAME', { alias: 'a.sub', name: 'a.sub' }),
    ).filter((e) => e.includes('CNAME')),
    [],
    'below a delegation the child answers',
  );
});

test('a DS needs the NS of its delegation, and is served there without a warning (RFC 4035 2.4)', () => {
  const ds = rec('DS', {
    name: 'child',
    keytag: '12345',
    algorithm: '13',
    digesttype: '2',
    digest: 'AB'.repeat(32),
  });
  assert.deepEqual(errs(ds), [
    'DS at child.example.com without NS: a DS record belongs at a delegation (add its NS records)',
  ]);
  const ns = rec('NS', { subdomain: 'child', nameserver: 'ns1.example.net.' });
  const r = validateZone(model(ds, ns));
  assert.deepEqual(r.errors, []);
  assert.deepEqual(r.warnings, []);
});
