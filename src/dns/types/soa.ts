import { fail } from '../../errors.ts';
import { normalizeDomain } from '../names.ts';
import { int, parseNumber, presentName } from '../text.ts';
import { line, need, type Fields, type RecordType } from './shape.ts';

export interface SoaData {
  priNS: string;
  mail: string;
  refresh: number;
  retry: number;
  exp: number;
  min: number;
}

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

/** The SOA line; the serial is the publish's, not stored data. */
export function soaLine(d: SoaData, zone: string, serial: number, ttl: number): string {
  const rdata = [
    presentName(d.priNS),
    presentName(d.mail),
    int(serial),
    int(d.refresh),
    int(d.retry),
    int(d.exp),
    int(d.min),
  ];
  return line('', zone, int(ttl), 'SOA', rdata.join(' '));
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

export const SOA: RecordType = {
  type: 'SOA',
  parse: () => fail('unspecifiedError'), // made with the domain, changed by setSoa
  reply: (d) => ({ priNS: d.priNS, mail: d.mail, refresh: d.refresh, retry: d.retry, exp: d.exp, min: d.min }),
  zoneLines: (d, zone, ttl) => [soaLine(d as SoaData, zone, 0, ttl)],
  owner: () => '',
};
