import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { DnsSettings } from './domains.ts';
import { defaultSoa, parseRecord, RECORD_TYPES, setOptions, setSoa, type Fields } from './records.ts';
import { applyToModel } from './zone-batch.ts';
import { planImport } from './zone-import.ts';
import { buildZone, type ZoneModel, type ZoneRecord } from './zone.ts';

const Z = 'xn--bcher-kva.example'; // typed as bücher.example
const SETTINGS = { nsDomain: 'ns.vigil.test', maxZoneRecords: 20_000, maxZoneBytes: 4 << 20 } as DnsSettings;
let seq = 0;
const rec = (type: ZoneRecord['type'], fields: Fields): ZoneRecord => ({ seq: ++seq, type, data: parseRecord(type, fields, Z) });
const fresh = (): ZoneModel => ({
  zone: Z,
  serial: 2026112301,
  records: [
    { seq: ++seq, type: 'SOA', data: defaultSoa(Z, 'ns.vigil.test') },
    ...['ns1', 'ns2', 'ns3', 'ns4'].map((ns) => rec('NS', { subdomain: '', nameserver: `${ns}.ns.vigil.test.` })),
  ],
});

/** Every type, with the names and texts that are hard to write and read back (as checkzone.test.ts). */
function everyType(): ZoneModel {
  const model = fresh();
  model.records[0]!.data = setSoa(defaultSoa(Z, 'ns.vigil.test'), { admin: 'john.doe@bücher.example', ttl: '3600' });
  model.records.push(
    rec('A', { name: '', ip: '192.0.2.1' }),
    rec('A', { name: 'www', ip: '192.0.2.2', ttl: '300' }),
    rec('A', { name: '*', ip: '192.0.2.3' }),
    rec('A', { name: '*.dev', ip: '192.0.2.4', ttl: '0' }),
    rec('A', { name: 'straße', ip: '192.0.2.5' }),
    rec('A', { name: 'mail', ip: '192.0.2.25' }),
    rec('AAAA', { name: 'www', ip: '2001:DB8::2', ttl: '300' }),
    rec('AAAA', { name: 'v6.deep.er', ip: '::ffff:192.0.2.6' }),
    rec('CNAME', { alias: 'ftp', name: 'www' }),
    rec('CNAME', { alias: 's1._domainkey', name: 's1.dkim.other.net.', ttl: '2147483647' }),
    rec('CNAME', { alias: '*.cdn', name: 'edge.cdn.other.net.' }),
    rec('MX', { name: '', mxname: 'mail', priority: '10' }),
    rec('MX', { name: '', mxname: 'mx.other.net.', priority: '99' }),
    rec('NS', { subdomain: 'sub', nameserver: 'ns1.sub.bücher.example' }),
    rec('NS', { subdomain: 'sub', nameserver: 'ns2.other.net.' }),
    rec('A', { name: 'ns1.sub', ip: '192.0.2.53' }),
    rec('TXT', { name: '', txtdata: 'v=spf1 mx -all' }),
    rec('TXT', { name: '_dmarc', txtdata: 'v=DMARC1; p=reject; rua=mailto:d@bücher.example' }),
    rec('TXT', { name: 'long', txtdata: `"quoted" \\ back\\slash ${'x'.repeat(300)} ü ${'"'.repeat(200)} end` }),
    rec('TXT', { name: 'inject', txtdata: '"; $INCLUDE /etc/passwd ( ) \\" ;comment' }),
    rec('SRV', { srvc: '_sip', prot: '_tcp', host: '', pri: '10', weight: '5', port: '5060', target: 'www' }),
    rec('SRV', { srvc: 'xmpp-server', prot: 'tcp', host: 'chat', pri: '0', weight: '0', port: '5269', target: 'xmpp.other.net.' }),
    rec('SRV', { srvc: 'imap', prot: 'tcp', host: '', pri: '0', weight: '0', port: '0', target: '.' }),
    rec('CAA', { subdomain: '', flag: '0', tag: 'issue', value: 'letsencrypt.org; validationmethods=dns-01' }),
    rec('CAA', { subdomain: '', flag: '0', tag: 'issuewild', value: ';' }),
    rec('CAA', { subdomain: '', flag: '128', tag: 'iodef', value: 'mailto:security@xn--bcher-kva.example' }),
    rec('CAA', { subdomain: 'www', flag: '0', tag: 'iodef', value: 'https://example.net/caa?x="y"' }),
    { seq: ++seq, type: 'WebForwarding', data: RECORD_TYPES.WebForwarding.parse({ host: 'go', target: 'https://example.org/landing' }, Z) },
    { seq: ++seq, type: 'Options', data: setOptions({ allowtransferacl: '192.0.2.0/24', notify: 'yes' }, 'master') },
  );
  return model;
}

test('round trip without a store: every type -> zone text -> import into a new zone -> the same text', () => {
  const text = buildZone(everyType());
  const plan = planImport(SETTINGS, fresh(), text);
  assert.deepEqual(plan.reply.errors, []);
  assert.deepEqual(plan.reply.warnings, ['4 record(s) equal to records already in the zone (TTL aside) were skipped']);
  assert.equal(plan.reply.imported, 27, 'every zone record but the SOA and the four default NS');
  assert.equal(buildZone(applyToModel(fresh(), plan.batch)), text);
});

test('the import refuses what the adds refuse, and skips what it does not host, with its reasons', () => {
  const plan = planImport(
    SETTINGS,
    fresh(),
    `www A 192.0.2.1
www A 192.0.2.1
1.2.0.192.in-addr.arpa. PTR www
@ DNSKEY 257 3 13 AAAA
@ RRSIG A 13 2 3600 1 2 3 ${Z}. AAAA
_x._tcp SRV 0 0 99999 www
@ CAA 0 issue "bad domain!"
$ORIGIN other.example.
x A 192.0.2.1
`,
  );
  assert.deepEqual(plan.reply.errors, ['line 6: _x._tcp.xn--bcher-kva.example. SRV: syntaxInvalidPort', 'line 7: xn--bcher-kva.example. CAA: unspecifiedError']);
  assert.deepEqual(plan.reply.warnings.sort(), [
    '1 DNSKEY record(s) were skipped: Vigil does not host DNSKEY records',
    '1 RRSIG record(s) were skipped: Vigil does not host RRSIG records',
    '1 record(s) equal to records already in the zone (TTL aside) were skipped',
    '2 record(s) outside xn--bcher-kva.example were skipped (first: 1.2.0.192.in-addr.arpa.)',
  ]);
  assert.equal(plan.reply.imported, 0);
});

test('a text of garbage: every line read, the first 100 errors told and the rest counted', () => {
  const lines = 20_000;
  const plan = planImport(SETTINGS, fresh(), `${'x A 999.0.0.1 ; ("\n'.repeat(lines)}${'('.repeat(50_000)}`);
  assert.equal(plan.reply.errors.length, 101);
  assert.equal(plan.reply.errors[0], 'line 20001: "(" is never closed');
  assert.equal(plan.reply.errors[100], `… and ${lines + 1 - 100} more errors`);
});
