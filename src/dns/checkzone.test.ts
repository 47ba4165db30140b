import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { defaultSoa, RECORD_TYPES, setOptions, setSoa, type Fields } from './records.ts';
import { validateZone } from './validate.ts';
import { buildZone, type ZoneModel, type ZoneRecord } from './zone.ts';

/**
 * A second opinion on the zone text: BIND's own parser. `-i local` keeps it
 * off the network; `-k fail -n fail` make host-name and NS problems fatal,
 * as a BIND primary would.
 */
const HAVE_CHECKZONE = spawnSync('which', ['named-checkzone']).status === 0;

function checkzone(zone: string, text: string): { ok: boolean; output: string } {
  const dir = mkdtempSync(join(tmpdir(), 'vigil-zone-'));
  try {
    const file = join(dir, 'zone');
    writeFileSync(file, text);
    const r = spawnSync('named-checkzone', ['-i', 'local', '-k', 'fail', '-n', 'fail', zone, file], { encoding: 'utf8' });
    return { ok: r.status === 0, output: `${r.stdout}${r.stderr}` };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const Z = 'xn--bcher-kva.example'; // typed as bücher.example
let seq = 0;
const rec = (type: ZoneRecord['type'], fields: Fields): ZoneRecord => ({ seq: ++seq, type, data: RECORD_TYPES[type].parse(fields, Z) });

function everyType(): ZoneModel {
  const soa = setSoa(defaultSoa(Z, 'ns.vigil.test'), { admin: 'john.doe@bücher.example', ttl: '3600' });
  const records: ZoneRecord[] = [
    { seq: ++seq, type: 'SOA', data: soa },
    ...['ns1', 'ns2', 'ns3', 'ns4'].map((ns) => rec('NS', { subdomain: '', nameserver: `${ns}.ns.vigil.test.` })),
    rec('A', { name: '', ip: '192.0.2.1' }),
    rec('A', { name: 'www', ip: '192.0.2.2' }),
    rec('A', { name: '*', ip: '192.0.2.3' }),
    rec('A', { name: '*.dev', ip: '192.0.2.4' }),
    rec('A', { name: 'straße', ip: '192.0.2.5' }),
    rec('A', { name: 'mail', ip: '192.0.2.25' }),
    rec('AAAA', { name: 'www', ip: '2001:DB8::2' }),
    rec('AAAA', { name: 'v6.deep.er', ip: '::ffff:192.0.2.6' }),
    rec('CNAME', { alias: 'ftp', name: 'www' }),
    rec('CNAME', { alias: 's1._domainkey', name: 's1.dkim.other.net.' }),
    rec('CNAME', { alias: '*.cdn', name: 'edge.cdn.other.net.' }),
    rec('MX', { name: '', mxname: 'mail', priority: '10' }),
    rec('MX', { name: '', mxname: 'mx.other.net.', priority: '99' }),
    rec('NS', { subdomain: 'sub', nameserver: 'ns1.sub.bücher.example' }),
    rec('NS', { subdomain: 'sub', nameserver: 'ns2.other.net.' }),
    rec('A', { name: 'ns1.sub', ip: '192.0.2.53' }),
    rec('AAAA', { name: 'ns1.sub', ip: '2001:db8::53' }),
    rec('TXT', { name: '', txtdata: 'v=spf1 mx -all' }),
    rec('TXT', { name: '_dmarc', txtdata: 'v=DMARC1; p=reject; rua=mailto:d@bücher.example' }),
    rec('TXT', { name: 'long', txtdata: `"quoted" \\ back\\slash ${'x'.repeat(300)} ü ${'"'.repeat(200)} end` }),
    rec('TXT', { name: 'inject', txtdata: '"; $INCLUDE /etc/passwd ( ) \\" ;comment' }),
    rec('SRV', { srvc: '_sip', prot: '_tcp', host: '', pri: '10', weight: '5', port: '5060', target: 'www' }),
    rec('SRV', { srvc: 'xmpp-server', prot: 'tcp', host: 'chat', pri: '0', weight: '0', port: '5269', target: 'xmpp.other.net.' }),
    rec('SRV', { srvc: 'imap', prot: 'tcp', host: '', pri: '0', weight: '0', port: '0', target: '.' }),
    rec('CAA', { subdomain: '', flag: '0', tag: 'issue', value: 'letsencrypt.org; validationmethods=dns-01' }),
    rec('CAA', { subdomain: '', flag: '0', tag: 'issuewild', value: ';' }),
    rec('CAA', { subdomain: '', flag: '128', tag: 'iodef', value: 'mailto:security@bücher.example'.replace('ü', 'u') }),
    rec('CAA', { subdomain: 'www', flag: '0', tag: 'iodef', value: 'https://example.net/caa?x="y"' }),
    rec('WebForwarding', { host: 'go', target: 'https://example.org/landing' }),
    { seq: ++seq, type: 'Options', data: setOptions({ allowtransferacl: '192.0.2.0/24', notify: 'yes', alsonotify: '192.0.2.7' }, 'master') },
  ];
  return { zone: Z, serial: 2026112301, records };
}

test('named-checkzone accepts a zone with every record type', (t) => {
  if (!HAVE_CHECKZONE) return t.skip('named-checkzone not installed');
  const model = everyType();
  assert.deepEqual(validateZone(model), { errors: [], warnings: [] }, 'and Vigil finds nothing to say either');
  const text = buildZone(model);
  const r = checkzone(Z, text);
  assert.ok(r.ok, `${r.output}\n${text}`);
  assert.match(r.output, /loaded serial 2026112301/);
});

test('named-checkzone reads escaped names of a transferred zone as data, not directives', (t) => {
  if (!HAVE_CHECKZONE) return t.skip('named-checkzone not installed');
  const model = everyType();
  // What a hostile master could send: names and text no add would accept.
  model.records.push(
    { seq: ++seq, type: 'TXT', data: { name: 'x\n$INCLUDE /etc/passwd', data: 'a\n$ORIGIN evil.\n' } },
    { seq: ++seq, type: 'TXT', data: { name: 'a b;c(d)"e\\f', data: 'x' } },
    { seq: ++seq, type: 'CNAME', data: { name: 'c', data: 'ta rget\n@ IN NS evil.' } },
  );
  const text = buildZone(model);
  assert.equal(text.split('\n').filter((l) => l.startsWith('$')).length, 2, 'only $ORIGIN and $TTL');
  const r = checkzone(Z, text);
  assert.ok(r.ok, `${r.output}\n${text}`);
});

test('named-checkzone refuses what validation calls an error (a CNAME beside other data)', (t) => {
  if (!HAVE_CHECKZONE) return t.skip('named-checkzone not installed');
  const model = everyType();
  model.records.push(rec('CNAME', { alias: 'www', name: 'mail' }));
  assert.match(validateZone(model).errors.join(), /CNAME at www\..* beside other records/);
  assert.equal(checkzone(Z, buildZone(model)).ok, false);
});
