import { defaultSoa, RECORD_TYPES, setOptions, setSoa, type Fields } from './records.ts';
import type { ZoneModel, ZoneRecord } from './zone.ts';

/**
 * Test fixture (not used in production): a zone with every record type
 * Vigil hosts and the names and texts that are hard to write and read back
 * (an IDN owner, wildcards, an empty non-terminal, a delegation with glue,
 * quotes, backslashes and master-file syntax inside TXT, CAA values with
 * quotes). BIND's checker (checkzone.test.ts) and the importer's round trip
 * (zone-import.test.ts) read the same zone. `ttls` gives some records their
 * own TTL (the importer must keep them).
 */
export const EVERY_TYPE_ZONE = 'xn--bcher-kva.example'; // typed as bücher.example

const ENTRIES: [ZoneRecord['type'], Fields, ttl?: string][] = [
  ['A', { name: '', ip: '192.0.2.1' }],
  ['A', { name: 'www', ip: '192.0.2.2' }, '300'],
  ['A', { name: '*', ip: '192.0.2.3' }],
  ['A', { name: '*.dev', ip: '192.0.2.4' }, '0'],
  ['A', { name: 'straße', ip: '192.0.2.5' }],
  ['A', { name: 'mail', ip: '192.0.2.25' }],
  ['AAAA', { name: 'www', ip: '2001:DB8::2' }, '300'],
  ['AAAA', { name: 'v6.deep.er', ip: '::ffff:192.0.2.6' }],
  ['CNAME', { alias: 'ftp', name: 'www' }],
  ['CNAME', { alias: 's1._domainkey', name: 's1.dkim.other.net.' }, '2147483647'],
  ['CNAME', { alias: '*.cdn', name: 'edge.cdn.other.net.' }],
  ['MX', { name: '', mxname: 'mail', priority: '10' }],
  ['MX', { name: '', mxname: 'mx.other.net.', priority: '99' }],
  ['NS', { subdomain: 'sub', nameserver: 'ns1.sub.bücher.example' }],
  ['NS', { subdomain: 'sub', nameserver: 'ns2.other.net.' }],
  ['A', { name: 'ns1.sub', ip: '192.0.2.53' }],
  ['AAAA', { name: 'ns1.sub', ip: '2001:db8::53' }],
  ['TXT', { name: '', txtdata: 'v=spf1 mx -all' }],
  ['TXT', { name: '_dmarc', txtdata: 'v=DMARC1; p=reject; rua=mailto:d@bücher.example' }],
  ['TXT', { name: 'long', txtdata: `"quoted" \\ back\\slash ${'x'.repeat(300)} ü ${'"'.repeat(200)} end` }],
  ['TXT', { name: 'inject', txtdata: '"; $INCLUDE /etc/passwd ( ) \\" ;comment' }],
  ['SRV', { srvc: '_sip', prot: '_tcp', host: '', pri: '10', weight: '5', port: '5060', target: 'www' }],
  [
    'SRV',
    { srvc: 'xmpp-server', prot: 'tcp', host: 'chat', pri: '0', weight: '0', port: '5269', target: 'xmpp.other.net.' },
  ],
  ['SRV', { srvc: 'imap', prot: 'tcp', host: '', pri: '0', weight: '0', port: '0', target: '.' }],
  ['CAA', { subdomain: '', flag: '0', tag: 'issue', value: 'letsencrypt.org; validationmethods=dns-01' }],
  ['CAA', { subdomain: '', flag: '0', tag: 'issuewild', value: ';' }],
  ['CAA', { subdomain: '', flag: '128', tag: 'iodef', value: 'mailto:security@xn--bcher-kva.example' }],
  ['CAA', { subdomain: 'www', flag: '0', tag: 'iodef', value: 'https://example.net/caa?x="y"' }],
  ['WebForwarding', { host: 'go', target: 'https://example.org/landing' }],
  // The types beyond the spec (issue 25): a DS at the delegation above, escapes in NAPTR and SVCB values.
  ['PTR', { name: '_http._tcp', host: 'web._http._tcp.bücher.example' }],
  ['DS', { name: 'sub', keytag: '60485', algorithm: '13', digesttype: '2', digest: 'd4b7'.repeat(16) }],
  ['TLSA', { name: '_443._tcp.www', usage: '3', selector: '1', matchingtype: '1', data: 'AB'.repeat(32) }, '300'],
  ['SSHFP', { name: 'www', algorithm: '4', fptype: '2', fingerprint: '4b'.repeat(32) }],
  ['SVCB', { name: '_dns', priority: '1', target: 'dns.other.net.', params: 'port=853 alpn="dot,h2"' }],
  ['HTTPS', { name: '', priority: '1', target: '.', params: 'alpn=h2,h3 ipv4hint=192.0.2.1 ipv6hint=2001:db8::1' }],
  ['HTTPS', { name: 'alias', priority: '0', target: 'cdn.other.net.', params: '' }],
  [
    'NAPTR',
    {
      name: '',
      order: '100',
      preference: '10',
      flags: 'u',
      service: 'E2U+sip',
      regexp: '!^.*$!sip:info@bücher.example!',
      replacement: '.',
    },
  ],
  [
    'NAPTR',
    { name: '', order: '10', preference: '0', flags: 'S', service: 'SIP+D2U', regexp: '', replacement: '_sip._udp' },
  ],
];

/** The SOA and the four default NS a new domain starts with. */
export function freshZone(nextSeq: () => number): ZoneModel {
  const z = EVERY_TYPE_ZONE;
  return {
    zone: z,
    serial: 2026112301,
    records: [
      { seq: nextSeq(), type: 'SOA', data: defaultSoa(z, 'ns.vigil.test') },
      ...['ns1', 'ns2', 'ns3', 'ns4'].map(
        (ns): ZoneRecord => ({
          seq: nextSeq(),
          type: 'NS',
          data: RECORD_TYPES.NS.parse({ subdomain: '', nameserver: `${ns}.ns.vigil.test.` }, z),
        }),
      ),
    ],
  };
}

export function everyTypeZone(nextSeq: () => number, opts: { ttls?: boolean } = {}): ZoneModel {
  const z = EVERY_TYPE_ZONE;
  const model = freshZone(nextSeq);
  model.records[0]!.data = setSoa(defaultSoa(z, 'ns.vigil.test'), { admin: 'john.doe@bücher.example', ttl: '3600' });
  for (const [type, fields, ttl] of ENTRIES) {
    model.records.push({
      seq: nextSeq(),
      type,
      data: RECORD_TYPES[type].parse(opts.ttls && ttl ? { ...fields, ttl } : fields, z),
    });
  }
  // Record data only: nothing sends to it.
  model.records.push({
    seq: nextSeq(),
    type: 'Options',
    data: setOptions({ allowtransferacl: '192.0.2.0/24', notify: 'yes', alsonotify: '192.0.2.7' }, 'master'),
  });
  return model;
}
