import { A } from './types/a.ts';
import { AAAA } from './types/aaaa.ts';
import { CAA } from './types/caa.ts';
import { CNAME } from './types/cname.ts';
import { MX } from './types/mx.ts';
import { NS } from './types/ns.ts';
import { Options } from './types/options.ts';
import { parseTtl, type Fields, type RecordType, type RecordTypeName, type StoredData } from './types/shape.ts';
import { SOA } from './types/soa.ts';
import { SRV } from './types/srv.ts';
import { TXT } from './types/txt.ts';
import { WebForwarding } from './types/web-forwarding.ts';

export type { Fields, RdataToken, RecordType, RecordTypeName, StoredData } from './types/shape.ts';
export { MAX_RECORD_TTL, parseTtl, tokenText, ttlOf } from './types/shape.ts';
export { defaultSoa, setSoa, soaLine, type SoaData } from './types/soa.ts';
export { setOptions, type OptionsData } from './types/options.ts';
export { srvOwner } from './types/srv.ts';

/**
 * THE record-type table. Each type lives in its own file under types/
 * with the same shape (RecordType); adding one is copying a file and
 * adding a line here.
 */
export const RECORD_TYPES: Readonly<Record<RecordTypeName, RecordType>> = Object.freeze({
  SOA,
  NS,
  MX,
  A,
  AAAA,
  CNAME,
  TXT,
  SRV,
  CAA,
  Options,
  WebForwarding,
});

/** Types that are service settings, not records of the zone text. */
export const NON_ZONE_TYPES: ReadonlySet<RecordTypeName> = new Set<RecordTypeName>(['Options', 'WebForwarding']);

/**
 * An add's fields as stored data: the type's own fields, then the optional
 * record `ttl` (issue 16), which every add takes (a web forwarding's is
 * the TTL of the forwarder's address in answers). Only a given TTL is
 * stored: without one the record follows the zone's TTL.
 */
export function parseRecord(type: RecordTypeName, fields: Fields, zone: string): StoredData {
  const data = RECORD_TYPES[type].parse(fields, zone);
  const ttl = parseTtl(fields.ttl);
  return ttl === undefined ? data : { ...data, ttl };
}

/** The records reply's `data`: the type's spec fields, then `ttl` when the record has its own. */
export function replyOf(type: RecordTypeName, data: StoredData): Record<string, string | number> {
  const reply = RECORD_TYPES[type].reply(data);
  return typeof data.ttl === 'number' ? { ...reply, ttl: data.ttl } : reply;
}
