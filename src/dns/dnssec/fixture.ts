import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Answer } from 'dns-packet';
import { defaultSoa, parseRecord, setSoa, type Fields } from '../records.ts';
import { buildZoneIndex } from '../server/zone-index.ts';
import type { ZoneModel, ZoneRecord } from '../zone.ts';

/**
 * Test fixtures (not used in production): a zone with every record type
 * Vigil hosts, made the way the server makes its answers (stored data
 * through each type's parse, then the serving index), and the two
 * validators the tests and the bench run on signed text.
 */
export const ZONE = 'signed.example';

export function everyTypeZone(zone = ZONE): Answer[] {
  const model = everyTypeModel(zone);
  // A secure delegation: DS is no Vigil record type yet, but the signer must sign it at the cut.
  const ds: Answer = {
    type: 'DS',
    name: `secure.${zone}`,
    ttl: 3600,
    class: 'IN',
    data: { keyTag: 12345, algorithm: 13, digestType: 2, digest: Buffer.alloc(32, 0xab) },
  };
  const cut: Answer = { type: 'NS', name: `secure.${zone}`, ttl: 3600, class: 'IN', data: 'ns1.other.net' };
  // A type Vigil does not host, which present.ts writes in RFC 3597's generic form.
  const sshfp = {
    type: 'SSHFP',
    name: `mail.${zone}`,
    ttl: 3600,
    class: 'IN',
    data: { algorithm: 4, hash: 2, fingerprint: 'ab'.repeat(32) },
  } as Answer;
  return [...buildZoneIndex(model, FORWARDER).all, cut, ds, sshfp];
}

/** The web forwarder's address the fixture's WebForwarding record resolves to. */
export const FORWARDER = '192.0.2.80';

/** The stored zone the fixture signs: every record type Vigil hosts. */
export function everyTypeModel(zone = ZONE): ZoneModel {
  let seq = 0;
  const rec = (type: ZoneRecord['type'], fields: Fields): ZoneRecord => ({
    seq: ++seq,
    type,
    data: parseRecord(type, fields, zone),
  });
  const records: ZoneRecord[] = [
    // A mailbox with a dot in its local part: stored as `john\\.doe`, an escaped dot in the name.
    {
      seq: ++seq,
      type: 'SOA',
      data: setSoa(defaultSoa(zone, 'ns.vigil.test'), { admin: 'John.Doe@example.net', ttl: '3600' }),
    },
    rec('NS', { subdomain: '', nameserver: 'ns1.ns.vigil.test.' }),
    rec('NS', { subdomain: '', nameserver: 'ns2.ns.vigil.test.' }),
    rec('A', { name: '', ip: '192.0.2.1' }),
    rec('A', { name: 'www', ip: '192.0.2.2', ttl: '300' }),
    rec('A', { name: 'WWW', ip: '192.0.2.9' }),
    rec('A', { name: '*', ip: '192.0.2.3' }),
    rec('A', { name: '*.dev', ip: '192.0.2.4' }),
    rec('A', { name: 'mail', ip: '192.0.2.25' }),
    rec('AAAA', { name: 'www', ip: '2001:DB8::2' }),
    // deep.er and er are empty non-terminals.
    rec('AAAA', { name: 'v6.deep.er', ip: '2001:db8::6' }),
    rec('CNAME', { alias: 'ftp', name: 'www' }),
    rec('CNAME', { alias: 's1._domainkey', name: 's1.dkim.other.net.' }),
    rec('CNAME', { alias: '*.cdn', name: 'edge.cdn.other.net.' }),
    rec('MX', { name: '', mxname: 'mail', priority: '10' }),
    rec('MX', { name: '', mxname: 'MX.Other.NET.', priority: '99' }),
    // A delegation with glue: NS and glue unsigned, not in the chain.
    rec('NS', { subdomain: 'sub', nameserver: `ns1.sub.${zone}` }),
    rec('NS', { subdomain: 'sub', nameserver: 'ns2.other.net.' }),
    rec('A', { name: 'ns1.sub', ip: '192.0.2.53' }),
    rec('AAAA', { name: 'ns1.sub', ip: '2001:db8::53' }),
    rec('TXT', { name: '', txtdata: 'v=spf1 mx -all' }),
    rec('TXT', { name: '_dmarc', txtdata: 'v=DMARC1; p=reject' }),
    rec('TXT', { name: 'long', txtdata: `"quoted" \\ ${'x'.repeat(300)} ü end` }),
    rec('SRV', { srvc: '_sip', prot: '_tcp', host: '', pri: '10', weight: '5', port: '5060', target: 'www' }),
    rec('SRV', { srvc: 'imap', prot: 'tcp', host: '', pri: '0', weight: '0', port: '0', target: '.' }),
    rec('CAA', { subdomain: '', flag: '0', tag: 'issue', value: 'letsencrypt.org' }),
    rec('CAA', { subdomain: '', flag: '128', tag: 'iodef', value: 'mailto:security@example.net' }),
    rec('WebForwarding', { host: 'go', target: 'https://example.org/landing' }),
  ];
  return { zone, serial: 2026112301, records };
}

/** `n` A records (and the SOA and NS) for size tests and the bench. */
export function bigZone(zone: string, n: number): Answer[] {
  const out: Answer[] = [
    {
      type: 'SOA',
      name: zone,
      ttl: 3600,
      class: 'IN',
      data: {
        mname: 'ns1.ns.vigil.test',
        rname: `hostmaster.${zone}`,
        serial: 1,
        refresh: 10800,
        retry: 3600,
        expire: 1209600,
        minimum: 3600,
      },
    },
    { type: 'NS', name: zone, ttl: 3600, class: 'IN', data: 'ns1.ns.vigil.test' },
  ];
  for (let i = 0; i < n; i++)
    out.push({
      type: 'A',
      name: `h${i}.${zone}`,
      ttl: 3600,
      class: 'IN',
      data: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
    });
  return out;
}

export const HAVE_VERIFY = spawnSync('which', ['dnssec-verify']).status === 0;
export const HAVE_KZONECHECK = spawnSync('which', ['kzonecheck']).status === 0;

export interface Verdict {
  ok: boolean;
  output: string;
}

function run(text: string, cmd: (file: string) => [string, string[]]): Verdict {
  const dir = mkdtempSync(join(tmpdir(), 'vigil-dnssec-'));
  try {
    const file = join(dir, 'zone');
    writeFileSync(file, text);
    const [bin, args] = cmd(file);
    const r = spawnSync(bin, args, { encoding: 'utf8' });
    return { ok: r.status === 0, output: `${r.stdout}${r.stderr}` };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * BIND's dnssec-verify: every RRset signed by every algorithm of the
 * DNSKEY set, a complete NSEC chain. `-x`: the DNSKEY set is signed by
 * the KSK only (our split). It reads the time from the system clock only.
 */
export const bindVerify = (zone: string, text: string): Verdict =>
  run(text, (f) => ['dnssec-verify', ['-x', '-o', zone, f]]);

/** Knot's kzonecheck with DNSSEC checks, at the given time (seconds) so tests can move it. */
export const knotCheck = (zone: string, text: string, atSeconds: number): Verdict =>
  run(text, (f) => ['kzonecheck', ['--dnssec', 'on', '-t', String(atSeconds), '-o', zone, f]]);
