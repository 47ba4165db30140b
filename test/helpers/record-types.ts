import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import type { VigilClient } from '../../src/client/index.ts';

/** One add of a new record type: its script and fields, and what the records reply should hold. */
export interface NewAdd {
  script: string;
  type: string;
  fields: Record<string, string>;
  /** Owner relative to the zone, '' the apex. */
  owner: string;
  /** Reply fields that differ from the sent ones (normalized params). */
  reply?: Record<string, string>;
}

/** A SHA-256 as 64 hex digits (TLSA, DS and SSHFP hold such digests). */
export const sha256 = (s: string): string => createHash('sha256').update(s).digest('hex');

/** Hex fields: any case in the reply. */
const HEX = new Set(['digest', 'data', 'fingerprint']);

/** The seven new types, as the contract's realistic examples; DS at `child` needs the NS first (addDelegation). */
export function newTypeAdds(zone: string): NewAdd[] {
  const add = (script: string, type: string, fields: Record<string, string>, reply?: Record<string, string>) => ({
    script,
    type,
    fields,
    owner: fields.name === '@' ? '' : fields.name!,
    reply,
  });
  return [
    add('dnsAddPTR.php', 'PTR', { name: 'ptr', host: 'host.example.net.' }),
    add('dnsAddPTR.php', 'PTR', { name: '@', host: `www.${zone}.`, ttl: '600' }),
    add('dnsAddDS.php', 'DS', {
      name: 'child',
      keytag: '60485',
      algorithm: '13',
      digesttype: '2',
      digest: sha256('child').toUpperCase(),
    }),
    add('dnsAddTLSA.php', 'TLSA', {
      name: '_443._tcp.www',
      usage: '3',
      selector: '1',
      matchingtype: '1',
      data: sha256('www cert'),
      ttl: '300',
    }),
    add('dnsAddSSHFP.php', 'SSHFP', { name: 'www', algorithm: '4', fptype: '2', fingerprint: sha256('host key') }),
    add('dnsAddSVCB.php', 'SVCB', {
      name: '_8443._foo.api',
      priority: '1',
      target: 'svc.example.net.',
      params: 'alpn=h2,h3 port=8443 ipv4hint=192.0.2.1',
    }),
    // Keys out of order: the reply has them in ascending key number.
    add(
      'dnsAddSVCB.php',
      'SVCB',
      { name: 'api', priority: '2', target: 'svc.example.net.', params: 'ipv6hint=2001:db8::1 port=443 alpn=h3' },
      { params: 'alpn=h3 port=443 ipv6hint=2001:db8::1' },
    ),
    add('dnsAddHTTPS.php', 'HTTPS', { name: '', priority: '1', target: '.', params: 'alpn=h2' }),
    add('dnsAddHTTPS.php', 'HTTPS', { name: 'shop', priority: '0', target: 'www.example.net.' }, { params: '' }),
    add('dnsAddNAPTR.php', 'NAPTR', {
      name: '@',
      order: '100',
      preference: '10',
      flags: 'S',
      service: 'SIP+D2U',
      regexp: '',
      replacement: `_sip._udp.${zone}.`,
    }),
    add('dnsAddNAPTR.php', 'NAPTR', {
      name: 'enum',
      order: '100',
      preference: '10',
      flags: 'U',
      service: 'E2U+sip',
      regexp: '!^.*$!sip:info@example.com!',
      replacement: '.',
    }),
  ];
}

/** The delegation the DS sits at: NS ns1.child.<zone> with its glue on loopback. */
export async function addDelegation(c: VigilClient, zone: string): Promise<void> {
  await c.call('dnsAddNS.php', { domain: zone, subdomain: 'child', nameserver: `ns1.child.${zone}` });
  await c.call('dnsAddA.php', { domain: zone, name: 'ns1.child', ip: '127.0.0.2' });
}

/** The records reply's `data` matches the add: numbers as numbers or digits, hex in any case, nothing else. */
export function assertData(got: Record<string, unknown>, a: NewAdd): void {
  const { ttl, ...fields } = a.fields;
  const want: Record<string, string> = { ...fields, name: a.owner, ...a.reply, ...(ttl ? { ttl } : {}) };
  const what = `${a.type} ${JSON.stringify(a.fields)} -> ${JSON.stringify(got)}`;
  for (const [k, v] of Object.entries(want)) {
    const g = got[k] === undefined ? '' : String(got[k]);
    assert.equal(HEX.has(k) ? g.toLowerCase() : g, HEX.has(k) ? v.toLowerCase() : v, `${what}: ${k}`);
  }
  for (const [k, v] of Object.entries(got)) {
    assert.ok(k in want, `${what}: unexpected field ${k}`);
    assert.ok(typeof v === 'string' || typeof v === 'number', `${what}: ${k} is ${typeof v}`);
  }
}

/** The owner as dig writes it. */
export const qname = (a: NewAdd, zone: string): string => (a.owner ? `${a.owner}.${zone}.` : `${zone}.`);
