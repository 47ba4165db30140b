import { fail } from '../../errors.ts';
import { normalizeDomain } from '../names.ts';
import { int, parseNumber, presentName } from '../text.ts';
import { bare, dotted, type Fields, line, lowerName, need, type RecordType, type Stored } from './kit.ts';

export type SoaData = Stored & {
  priNS: string;
  mail: string;
  refresh: number;
  retry: number;
  exp: number;
  min: number;
  /** A slave zone's: the master's serial, which the copy is served under. */
  serial?: number;
};

type SoaWire = {
  mname: string;
  rname: string;
  serial: number;
  refresh: number;
  retry: number;
  expire: number;
  minimum: number;
};

/** The SOA a new domain gets (spec 2.4: minimum TTL one day). */
export function defaultSoa(zone: string, nsDomain: string): SoaData {
  return {
    priNS: `ns1.${nsDomain}.`,
    mail: `hostmaster.${zone}.`,
    refresh: 10800,
    retry: 3600,
    exp: 1209600,
    min: 86400,
  };
}

/** The SOA's RDATA as master-file text; the serial is the publish's, not stored data. */
function soaRdata(d: SoaData, serial: number): string {
  const names = `${presentName(d.priNS)} ${presentName(d.mail)}`;
  return `${names} ${int(serial)} ${int(d.refresh)} ${int(d.retry)} ${int(d.exp)} ${int(d.min)}`;
}

/** The SOA line of a zone's text. */
export function soaLine(d: SoaData, zone: string, serial: number, ttl: number): string {
  return line('', zone, int(ttl), 'SOA', soaRdata(d, serial));
}

/** Local parts of an admin address: common mailbox characters, no dot first, last or twice. */
const LOCAL = /^[A-Za-z0-9+_-]+(?:\.[A-Za-z0-9+_-]+)*$/;
/** Minimum TTL bounds: a minute (below 300 s validation warns) to four weeks. */
export const MIN_TTL = 60;
export const MAX_TTL = 2_419_200;

/**
 * SOA set: `admin` (local@host) is stored dotted, a dot inside the local
 * part escaped as `\.` (RFC 1035 8); `ttl` is the minimum TTL. At least
 * one of them, else missingInput.
 */
export function setSoa(current: SoaData, fields: Fields): SoaData {
  const admin = fields.admin === '' ? undefined : fields.admin;
  const ttl = fields.ttl === '' ? undefined : fields.ttl;
  if (admin === undefined && ttl === undefined) fail('missingInput');
  const next = { ...current };
  if (admin !== undefined) {
    const at = admin.lastIndexOf('@');
    const local = admin.slice(0, Math.max(at, 0));
    const host = at > 0 && admin.length <= 254 ? normalizeDomain(admin.slice(at + 1)) : null;
    if (host === null || local.length > 63 || !LOCAL.test(local)) fail('syntaxInvalidAdmin');
    next.mail = `${local.toLowerCase().replace(/\./g, '\\.')}.${host}.`;
  }
  if (ttl !== undefined) next.min = need(parseNumber(ttl, MIN_TTL, MAX_TTL), 'syntaxInvalidTTL');
  return next;
}

export const SOA = {
  type: 'SOA',
  role: 'soa',
  wire: {
    type: 'SOA',
    encode: (d) => ({
      mname: bare(d.priNS),
      rname: bare(d.mail),
      serial: d.serial ?? 0,
      refresh: d.refresh,
      retry: d.retry,
      expire: d.exp,
      minimum: d.min,
    }),
    // The master's serial rides along: the copy is served under it.
    decode: (w) => {
      const d = w as SoaWire;
      const { refresh, retry, serial } = d;
      return { priNS: dotted(d.mname), mail: dotted(d.rname), refresh, retry, exp: d.expire, min: d.minimum, serial };
    },
    canonical: (w) => {
      const d = w as SoaWire;
      return { ...d, mname: lowerName(d.mname), rname: lowerName(d.rname) };
    },
    present: (w) => {
      const d = w as SoaWire;
      const names = `${presentName(dotted(d.mname))} ${presentName(dotted(d.rname))}`;
      return `${names} ${d.serial} ${d.refresh} ${d.retry} ${d.expire} ${d.minimum}`;
    },
  },
  bound: 1200,
  display: '{priNS} {mail} refresh {refresh} retry {retry} expire {exp} min {min}',
  parse: () => fail('unspecifiedError'), // made with the domain, changed by setSoa
  reply: (d) => ({ priNS: d.priNS, mail: d.mail, refresh: d.refresh, retry: d.retry, exp: d.exp, min: d.min }),
  owner: () => '',
  rdata: (d) => soaRdata(d, d.serial ?? 0),
} as const satisfies RecordType<SoaData, 'SOA'>;
