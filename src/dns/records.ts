import { isIPv4, isIPv6 } from 'node:net';
import ipaddr from 'ipaddr.js';
import { fail, type SpecCode } from '../errors.ts';
import { fqdn, normalizeDomain, normalizeOwner, normalizeTarget } from './names.ts';
import { isCleanText, parseNumber, quoted, txtStrings } from './text.ts';
import { parsePeer } from './peers.ts';

export type RecordTypeName = 'SOA' | 'NS' | 'MX' | 'A' | 'AAAA' | 'CNAME' | 'TXT' | 'SRV' | 'CAA' | 'Options' | 'WebForwarding';
/** Form fields as received (undefined = absent). */
export type Fields = Record<string, string | undefined>;
/** A record's stored data: JSON, already normalized. */
export type StoredData = Record<string, any>;

/**
 * THE record-type table: for each type, how its add fields are validated
 * (spec error codes), its `data` in the records reply, and its zone lines.
 */
export interface RecordType {
  readonly type: RecordTypeName;
  parse(fields: Fields, zone: string): StoredData;
  reply(data: StoredData): Record<string, string | number>;
  zoneLines(data: StoredData, zone: string, ttl: number): string[];
  /** Relative owner ('' apex) for validation; null when not a zone record. */
  owner(data: StoredData): string | null;
}

export interface SoaData {
  priNS: string;
  mail: string;
  refresh: number;
  retry: number;
  exp: number;
  min: number;
}

const need = <T>(value: T | null, code: SpecCode): T => (value === null ? fail(code) : value);
const owner = (f: string | undefined, zone: string, code: SpecCode, opts = { wildcard: true, underscore: true }) =>
  need(f === undefined ? null : normalizeOwner(f, zone, opts), code);
const target = (f: string | undefined, zone: string, code: SpecCode) => need(f === undefined ? null : normalizeTarget(f, zone), code);
const line = (rel: string, zone: string, ttl: number, type: string, rdata: string) => `${fqdn(rel, zone)}\t${ttl}\tIN\t${type}\t${rdata}`;

/** name + data records: A, AAAA, CNAME, NS, TXT share one shape. */
function simple(type: 'A' | 'AAAA' | 'CNAME' | 'NS' | 'TXT', parse: (f: Fields, zone: string) => StoredData, rdata = (d: StoredData) => d.data as string): RecordType {
  return {
    type,
    parse,
    reply: (d) => ({ name: d.name, data: d.data }),
    zoneLines: (d, zone, ttl) => [line(d.name, zone, ttl, type, rdata(d))],
    owner: (d) => d.name,
  };
}

const SERVICE = /^[a-z0-9](?:[a-z0-9-]{0,13}[a-z0-9])?$/;
const PROTOCOLS = ['tcp', 'udp', 'tls', 'sctp'];
const CAA_TAGS = ['issue', 'issuewild', 'iodef'];
/** RFC 8659 4.2: an issuer domain (may be empty) and `; key=value` parameters. */
const ISSUER = /^(?=.)[a-z0-9.-]*(\s*;\s*([a-z0-9-]+=[\x21-\x3a\x3c-\x7e]*)?)*$/i;
const IODEF = /^(mailto:[^\s@]+@[^\s@]+|https?:\/\/[\x21-\x7e]+)$/;

export const RECORD_TYPES: Readonly<Record<RecordTypeName, RecordType>> = Object.freeze({
  A: simple('A', (f, zone) => ({
    name: owner(f.name, zone, 'syntaxInvalidHostname'),
    data: f.ip !== undefined && isIPv4(f.ip) ? f.ip : fail('syntaxInvalidIP'),
  })),
  AAAA: simple('AAAA', (f, zone) => ({
    name: owner(f.name, zone, 'syntaxInvalidHostname'),
    data: f.ip !== undefined && isIPv6(f.ip) ? ipaddr.IPv6.parse(f.ip).toString() : fail('syntaxInvalidIP'),
  })),
  CNAME: simple('CNAME', (f, zone) => ({
    name: owner(f.alias, zone, 'syntaxInvalidCNAME'),
    data: target(f.name, zone, 'syntaxInvalidHostname'),
  })),
  NS: simple('NS', (f, zone) => ({
    name: owner(f.subdomain, zone, 'syntaxInvalidSubdomain', { wildcard: false, underscore: false }),
    data: target(f.nameserver, zone, 'syntaxInvalidHostname'),
  })),
  TXT: simple(
    'TXT',
    (f, zone) => {
      const name = owner(f.name, zone, 'syntaxInvalidTxtname');
      const text = f.txtdata;
      // 4000 bytes keeps a TXT set answerable over UDP with EDNS; see docs/dns.md.
      if (text === undefined || text === '' || Buffer.byteLength(text) > 4000 || !isCleanText(text)) fail('syntaxInvalidTxtdata');
      return { name, data: text };
    },
    (d) => txtStrings(d.data),
  ),
  MX: {
    type: 'MX',
    parse: (f, zone) => ({
      host: owner(f.name, zone, 'syntaxInvalidMX'),
      data: target(f.mxname, zone, 'syntaxInvalidHostname'),
      pri: need(parseNumber(f.priority, 0, 99), 'syntaxInvalidPriority'),
    }),
    reply: (d) => ({ pri: d.pri, host: d.host, data: d.data }),
    zoneLines: (d, zone, ttl) => [line(d.host, zone, ttl, 'MX', `${d.pri} ${d.data}`)],
    owner: (d) => d.host,
  },
  CAA: {
    type: 'CAA',
    parse(f, zone) {
      const name = owner(f.subdomain, zone, 'syntaxInvalidSubdomain', { wildcard: false, underscore: false });
      const flag = need(parseNumber(f.flag, 0, 255), 'syntaxInvalidFlag');
      const tag = f.tag !== undefined && CAA_TAGS.includes(f.tag) ? f.tag : fail('syntaxInvalidTag');
      const value = f.value ?? '';
      // The spec has no code for a bad CAA value: it is "not added" (unspecifiedError).
      const ok = value.length <= 255 && (tag === 'iodef' ? IODEF.test(value) : ISSUER.test(value));
      if (!ok) fail('unspecifiedError');
      return { name, flag, tag, caaval: value };
    },
    reply: (d) => ({ name: d.name, flag: d.flag, tag: d.tag, caaval: d.caaval }),
    zoneLines: (d, zone, ttl) => [line(d.name, zone, ttl, 'CAA', `${d.flag} ${d.tag} ${quoted(Buffer.from(d.caaval))}`)],
    owner: (d) => d.name,
  },
  SRV: {
    type: 'SRV',
    parse(f, zone) {
      const srvc = (f.srvc ?? '').replace(/^_/, '').toLowerCase();
      if (!SERVICE.test(srvc) || !/[a-z]/.test(srvc)) fail('syntaxInvalidSrvc');
      const prot = (f.prot ?? '').replace(/^_/, '').toLowerCase();
      if (!PROTOCOLS.includes(prot)) fail('syntaxInvalidProt');
      const host = owner(f.host, zone, 'syntaxInvalidHostname', { wildcard: false, underscore: false });
      const pri = need(parseNumber(f.pri, 0, 65535), 'syntaxInvalidPriority');
      const weight = need(parseNumber(f.weight, 0, 65535), 'syntaxInvalidWeight');
      const port = need(parseNumber(f.port, 0, 65535), 'syntaxInvalidPort');
      // "." means "no such service here" (RFC 2782).
      const t = f.target === '.' ? '.' : target(f.target, zone, 'syntaxInvalidTarget');
      return { srvc, prot, host, pri, weight, port, target: t };
    },
    reply: (d) => ({ srvc: d.srvc, prot: d.prot, host: d.host, pri: d.pri, weight: d.weight, port: d.port, target: d.target }),
    zoneLines: (d, zone, ttl) => [line(srvOwner(d), zone, ttl, 'SRV', `${d.pri} ${d.weight} ${d.port} ${d.target}`)],
    owner: (d) => srvOwner(d),
  },
  SOA: {
    type: 'SOA',
    parse: () => fail('unspecifiedError'), // made with the domain, changed by setSoa
    reply: (d) => ({ priNS: d.priNS, mail: d.mail, refresh: d.refresh, retry: d.retry, exp: d.exp, min: d.min }),
    zoneLines: (d, zone, ttl) => [soaLine(d as SoaData, zone, 0, ttl)],
    owner: () => '',
  },
  Options: {
    type: 'Options',
    parse: () => fail('unspecifiedError'), // set by setOptions
    reply: (d) => ({ allowtransferacl: d.allowtransferacl, notify: d.notify, alsonotify: d.alsonotify, masters: d.masters }),
    zoneLines: () => [],
    owner: () => null,
  },
  WebForwarding: {
    type: 'WebForwarding',
    parse(f, zone) {
      const host = owner(f.host, zone, 'syntaxInvalidHostname', { wildcard: false, underscore: false });
      const t = f.target ?? '';
      let url: URL | null = null;
      try {
        url = /^https?:\/\/\S+$/.test(t) && t.length <= 2000 ? new URL(t) : null;
      } catch {}
      if (!url) fail('syntaxInvalidTarget');
      const cloak = f.cloak === undefined || f.cloak === '' ? 0 : need(parseNumber(f.cloak, 0, 1), 'unspecifiedError');
      return { host, target: url.href, cloak };
    },
    reply: (d) => ({ host: d.host, target: d.target, cloak: d.cloak }),
    zoneLines: () => [], // the name server answers A/AAAA for forwarded hosts itself
    owner: (d) => d.host,
  },
});

export function srvOwner(d: StoredData): string {
  return `_${d.srvc}._${d.prot}${d.host ? `.${d.host}` : ''}`;
}

export function defaultSoa(zone: string, nsDomain: string): SoaData {
  return { priNS: `ns1.${nsDomain}.`, mail: `hostmaster.${zone}.`, refresh: 10800, retry: 3600, exp: 1209600, min: 86400 };
}

export function soaLine(d: SoaData, zone: string, serial: number, ttl: number): string {
  return line('', zone, ttl, 'SOA', `${d.priNS} ${d.mail} ${serial} ${d.refresh} ${d.retry} ${d.exp} ${d.min}`);
}

const EMAIL_LOCAL = /^[A-Za-z0-9](?:[A-Za-z0-9._+-]{0,62})$/;

/** SOA set: `admin` as local@host, stored dotted (a dot in the local part escaped); `ttl` the minimum TTL. */
export function setSoa(current: SoaData, fields: Fields): SoaData {
  const { admin, ttl } = fields;
  if ((admin === undefined || admin === '') && (ttl === undefined || ttl === '')) fail('missingInput');
  const next = { ...current };
  if (admin !== undefined && admin !== '') {
    const at = admin.lastIndexOf('@');
    const local = admin.slice(0, at);
    const host = at > 0 ? normalizeDomain(admin.slice(at + 1)) : null;
    if (!EMAIL_LOCAL.test(local) || local.endsWith('.') || local.includes('..') || host === null) fail('syntaxInvalidAdmin');
    next.mail = `${local.toLowerCase().replace(/\./g, '\\.')}.${host}.`;
  }
  if (ttl !== undefined && ttl !== '') next.min = need(parseNumber(ttl, 60, 2419200), 'syntaxInvalidTTL');
  return next;
}

export interface OptionsData {
  masters: string;
  allowtransferacl: string;
  notify: string;
  alsonotify: string;
}

function addressList(text: string | undefined, code: SpecCode, cidr = false): string {
  if (text === undefined || text.trim() === '') return '';
  const items = text.split(',').map((s) => s.trim());
  const ok = items.every((i) => (cidr && i.includes('/') ? ipaddr.isValidCIDR(i) : isIPv4(i) || isIPv6(i)));
  return ok ? items.join(',') : fail(code);
}

/** Options set (BIND's meaning, ARCHITECTURE.md); `masters` is required for slave domains. */
export function setOptions(fields: Fields, domainType: 'master' | 'slave'): OptionsData {
  // Masters may carry a port (`192.0.2.1:5353`, `[2001:db8::1]:5353`); 53 otherwise.
  const masters = fields.masters === undefined || fields.masters.trim() === '' ? '' : fields.masters.split(',').map((m) => m.trim());
  const mastersText = masters === '' ? '' : masters.every((m) => parsePeer(m) !== null) ? masters.join(',') : fail('syntaxInvalidMasters');
  if (domainType === 'slave' && mastersText === '') fail('syntaxInvalidMasters');
  const allowtransferacl = addressList(fields.allowtransferacl, 'syntaxInvalidAllowtransferacl', true);
  const notify = fields.notify ?? '';
  if (!['', 'yes', 'no', 'explicit'].includes(notify)) fail('syntaxInvalidNotify');
  const alsonotify = addressList(fields.alsonotify, 'syntaxInvalidAlsoNotify');
  if (alsonotify !== '' && notify !== 'yes' && notify !== 'explicit') fail('logicAlsoNotifyRequiresNotify');
  return { masters: mastersText, allowtransferacl, notify, alsonotify };
}
