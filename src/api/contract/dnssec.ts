import { DOMAIN } from './dns-domains.ts';
import type { Contract } from './schema.ts';

/**
 * DNSSEC's extension scripts (issue 19; docs/dnssec.md). dnsSetDNSSEC and
 * dnsGetDNSSEC as INTERFACE.md names them; dnsRollDNSSECKey is Vigil's own,
 * for the KSK roll the issue leaves to the user's command.
 */
const STATUS = {
  enabled: { type: 'boolean', doc: 'whether the zone is signed from the next distribution on' },
  nsec3: {
    type: 'boolean',
    doc: 'denial of existence by NSEC3 (RFC 9276: no salt, 0 extra iterations, no opt-out) rather than NSEC; kept while signing is off',
  },
  ds: {
    type: 'array',
    items: { type: 'string' },
    doc: 'the DS records to give the parent (registrar), presentation form: `example.org. 3600 IN DS 12345 13 2 ABCD…`; empty until the first distribution after enabling made the keys',
  },
  dnskey: { type: 'array', items: { type: 'string' }, doc: 'the DNSKEY set, presentation form' },
  keys: {
    type: 'array',
    doc: 'extension: each key in the DNSKEY set and its schedule (ms since 1970)',
    items: {
      type: 'object',
      fields: {
        tag: { type: 'number' },
        role: { type: 'string', enum: ['ksk', 'zsk'] },
        algorithm: { type: 'number', doc: '13: ECDSA P-256 with SHA-256' },
        signing: { type: 'boolean', doc: 'false: published ahead of a roll, or retired' },
        activeAt: { type: 'number' },
        retireAt: { type: 'number', nullable: true },
        removeAt: { type: 'number', nullable: true },
      },
    },
  },
} as const;

const DNSSEC = {
  requires: ['session', 'dnsSubscription'],
  storeDownError: 'dbConnectionFailure',
  systemError: 'unspecifiedError',
  extension: true,
} as const;

export const dnssecContracts = {
  'dnsSetDNSSEC.php': {
    ...DNSSEC,
    summary: 'extension: sign a master domain with DNSSEC from the next distribution on, or stop',
    params: {
      domain: DOMAIN,
      enable: {
        required: true,
        kind: 'enum',
        values: ['YES', 'NO'],
        code: 'syntaxInvalidEnable',
        missingCode: 'missingInput',
        checkedBy: 'domain',
        doc: '`YES` to sign, `NO` to stop (remove the DS at the parent first; the keys are dropped)',
      },
      nsec3: {
        required: false,
        kind: 'enum',
        values: ['YES', 'NO'],
        code: 'syntaxInvalidNsec3',
        checkedBy: 'domain',
        doc: '`YES`: NSEC3 with no salt and 0 extra iterations (RFC 9276), so the zone cannot be walked; `NO`: NSEC. Absent: the choice stays as it is (NSEC at first). A change re-signs the zone at the next distribution',
      },
    },
    reply: STATUS,
    errors: ['noSuchDomain', 'missingInput', 'syntaxInvalidEnable', 'syntaxInvalidNsec3', 'dnssecMasterOnly'],
  },
  'dnsGetDNSSEC.php': {
    ...DNSSEC,
    summary: "extension: a domain's DNSSEC state: the DS for the parent and the DNSKEY set",
    params: { domain: DOMAIN },
    reply: STATUS,
    errors: ['noSuchDomain'],
  },
  'dnsRollDNSSECKey.php': {
    ...DNSSEC,
    summary:
      'extension: one step of a KSK roll: the first call adds a KSK (give its DS to the parent), the second takes the old one out',
    params: { domain: DOMAIN },
    reply: { ...STATUS, step: { type: 'string', enum: ['started', 'finished'] } },
    errors: ['noSuchDomain', 'dnssecNotEnabled'],
  },
} as const satisfies Record<string, Contract>;
