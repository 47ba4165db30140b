import type { ErrorCode } from '../../errors.ts';
import { DOMAIN } from './dns-domains.ts';
import type { Kind } from './schema.ts';

/**
 * Record adds (spec 10-17) and Vigil's extension scripts on records. Every
 * field but `domain` is checked by the domain after the domain is found:
 * a name is relative to the zone, and `noSuchDomain` comes first.
 */
const domainCheck = <const R extends boolean, const K extends Kind, const C extends ErrorCode>(
  required: R,
  kind: K,
  code: C,
  doc: string,
) => ({ required, kind, code, checkedBy: 'domain', doc }) as const;

/** Extension (issue 16): every add takes a record TTL; the zone text writes it. */
const TTL = {
  required: false,
  kind: 'integer',
  min: 0,
  max: 2147483647,
  code: 'syntaxInvalidTTL',
  checkedBy: 'domain',
  doc: "extension: the record's TTL in seconds (0 to 2147483647); absent: the zone's default",
} as const;

const ADD = {
  requires: ['session', 'dnsSubscription'],
  storeDownError: 'dbConnectionFailure',
  systemError: 'unspecifiedError',
  reply: {},
} as const;

export const dnsRecordContracts = {
  'dnsAddA.php': {
    ...ADD,
    summary: 'add an A record',
    params: {
      domain: DOMAIN,
      name: domainCheck(true, 'owner', 'syntaxInvalidHostname', 'owner: blank (the apex), a host name or `*`'),
      ip: domainCheck(true, 'ipv4', 'syntaxInvalidIP', 'an IPv4 address'),
      ttl: TTL,
    },
    errors: ['noSuchDomain'],
  },
  'dnsAddAAAA.php': {
    ...ADD,
    summary: 'add an AAAA record',
    params: {
      domain: DOMAIN,
      name: domainCheck(true, 'owner', 'syntaxInvalidHostname', 'owner: blank (the apex), a host name or `*`'),
      ip: domainCheck(true, 'ipv6', 'syntaxInvalidIP', 'an IPv6 address'),
      ttl: TTL,
    },
    errors: ['noSuchDomain'],
  },
  'dnsAddCNAME.php': {
    ...ADD,
    summary: 'add a CNAME record',
    params: {
      domain: DOMAIN,
      alias: domainCheck(true, 'owner', 'syntaxInvalidCNAME', 'the CNAME (owner) to add'),
      name: domainCheck(true, 'hostname', 'syntaxInvalidHostname', 'the host name it points to'),
      ttl: TTL,
    },
    errors: ['noSuchDomain'],
  },
  'dnsAddMX.php': {
    ...ADD,
    summary: 'add an MX record',
    params: {
      domain: DOMAIN,
      name: domainCheck(true, 'owner', 'syntaxInvalidMX', 'owner, usually blank'),
      mxname: domainCheck(
        true,
        'hostname',
        'syntaxInvalidHostname',
        'the mail server; another domain fully qualified with a final dot',
      ),
      priority: {
        required: true,
        kind: 'integer',
        min: 0,
        max: 99,
        code: 'syntaxInvalidPriority',
        checkedBy: 'domain',
        doc: '0 to 99',
      },
      ttl: TTL,
    },
    errors: ['noSuchDomain'],
  },
  'dnsAddCAA.php': {
    ...ADD,
    summary: 'add a CAA record (also served as dnsAddNS.php)',
    params: {
      domain: DOMAIN,
      subdomain: domainCheck(true, 'owner', 'syntaxInvalidSubdomain', 'owner, usually blank'),
      flag: {
        required: true,
        kind: 'integer',
        min: 0,
        max: 255,
        code: 'syntaxInvalidFlag',
        checkedBy: 'domain',
        doc: '0 to 255',
      },
      tag: {
        required: true,
        kind: 'enum',
        values: ['issue', 'issuewild', 'iodef'],
        code: 'syntaxInvalidTag',
        checkedBy: 'domain',
        doc: 'the property',
      },
      // No code of its own in the spec: an invalid value is unspecifiedError.
      value: { required: true, kind: 'text', checkedBy: 'domain', doc: 'the property value' },
      ttl: TTL,
    },
    errors: ['noSuchDomain'],
  },
  'dnsAddNS.php': {
    ...ADD,
    summary: 'add an NS record (a delegation)',
    params: {
      domain: DOMAIN,
      subdomain: domainCheck(true, 'owner', 'syntaxInvalidSubdomain', 'owner, normally a subdomain'),
      nameserver: domainCheck(true, 'hostname', 'syntaxInvalidHostname', 'the name server, fully qualified'),
      ttl: TTL,
    },
    errors: ['noSuchDomain'],
  },
  'dnsAddTXT.php': {
    ...ADD,
    summary: 'add a TXT record',
    params: {
      domain: DOMAIN,
      name: domainCheck(true, 'owner', 'syntaxInvalidTxtname', 'owner, blank for the apex (SPF)'),
      txtdata: domainCheck(true, 'text', 'syntaxInvalidTxtdata', 'the text, up to 4,000 bytes, no control characters'),
      ttl: TTL,
    },
    errors: ['noSuchDomain'],
  },
  'dnsAddSRV.php': {
    ...ADD,
    summary: 'add an SRV record',
    params: {
      srvc: domainCheck(true, 'text', 'syntaxInvalidSrvc', 'the service, with or without its underscore'),
      prot: domainCheck(
        true,
        'text',
        'syntaxInvalidProt',
        'the protocol (`tcp`, `udp`, …), with or without its underscore',
      ),
      host: domainCheck(
        true,
        'owner',
        'syntaxInvalidHostname',
        'owner; without `domain`: fully qualified, and the domain is the longest of the account that ends it',
      ),
      pri: {
        required: true,
        kind: 'integer',
        min: 0,
        max: 65535,
        code: 'syntaxInvalidPriority',
        checkedBy: 'domain',
        doc: '0 to 65535',
      },
      weight: {
        required: true,
        kind: 'integer',
        min: 0,
        max: 65535,
        code: 'syntaxInvalidWeight',
        checkedBy: 'domain',
        doc: '0 to 65535',
      },
      port: {
        required: true,
        kind: 'integer',
        min: 0,
        max: 65535,
        code: 'syntaxInvalidPort',
        checkedBy: 'domain',
        doc: '0 to 65535',
      },
      target: domainCheck(true, 'hostname', 'syntaxInvalidTarget', 'the target host, or `.`'),
      // The spec lists no `domain` for SRV but lists its code: Vigil takes one when sent.
      domain: { ...DOMAIN, required: false },
      ttl: TTL,
    },
    errors: ['noSuchDomain'],
  },
  'dnsAddWebForwarding.php': {
    ...ADD,
    summary: 'extension: forward a host to a URL; the domain then weighs 2 credits',
    extension: true,
    params: {
      domain: DOMAIN,
      host: domainCheck(true, 'owner', 'syntaxInvalidHostname', 'owner, blank for the apex'),
      target: domainCheck(true, 'url', 'syntaxInvalidTarget', 'an http(s) URL'),
      cloak: {
        required: false,
        kind: 'enum',
        values: ['', '0', '1'],
        checkedBy: 'domain',
        doc: '`1`: keep the address shown (a frame)',
      },
      ttl: TTL,
    },
    errors: ['noSuchDomain'],
  },
  'dnsImportZone.php': {
    ...ADD,
    summary: 'extension: import master-file text into a domain; all records or none',
    extension: true,
    params: {
      domain: DOMAIN,
      zone: {
        required: true,
        kind: 'zoneText',
        checkedBy: 'domain',
        doc: 'master-file text; every record checked as its add script would',
      },
    },
    reply: {
      imported: { type: 'number' },
      warnings: { type: 'array', items: { type: 'string' } },
      errors: { type: 'array', items: { type: 'string' } },
    },
    errors: ['noSuchDomain'],
  },
} as const;
