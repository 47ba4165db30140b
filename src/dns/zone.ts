import {
  isRecordType,
  isZoneRecord,
  type OptionsData,
  RECORD_TYPES,
  type RecordTypeName,
  type SoaData,
  type StoredData,
  soaLine,
  ttlOf,
  zoneLines,
} from './records.ts';
import { int, presentName } from './text.ts';
import type { SignedPart } from './dnssec/wire.ts';

export interface ZoneRecord {
  seq: number;
  type: RecordTypeName;
  data: StoredData;
}

/** A zone as stored: exactly one SOA among its records. */
export interface ZoneModel {
  zone: string;
  serial: number;
  records: ZoneRecord[];
  /** Set when the version is signed (DNSSEC): what the signer added, served alongside `records`. */
  dnssec?: SignedPart;
}

/** The role a stored record's type plays; undefined for a type this version does not know. */
const roleOf = (r: ZoneRecord) => (isRecordType(r.type) ? RECORD_TYPES[r.type].role : undefined);

export function soaOf(model: ZoneModel): SoaData {
  const soa = model.records.find((r) => roleOf(r) === 'soa');
  if (!soa) throw new Error(`zone ${model.zone} has no SOA`);
  return soa.data as SoaData;
}

/** The zone's Options (spec 4.1), if set. */
export function optionsOf(model: ZoneModel): Partial<OptionsData> {
  return (model.records.find((r) => roleOf(r) === 'setting')?.data ?? {}) as Partial<OptionsData>;
}

/**
 * Sort key of a relative owner: its labels from the top down, so a
 * subdomain's records (a delegation and its glue) sit together. \x01 sorts
 * below every name character, so `sub` comes before `sub.x`.
 */
const ownerKey = (rel: string) => (rel.includes('.') ? rel.split('.').reverse().join('\x01') : rel);

/**
 * The master file a publish produces: $ORIGIN, $TTL (the SOA's minimum TTL
 * is also the zone's TTL), the SOA, then every record sorted by owner,
 * type and seq, one per line with an absolute owner and its TTL (the
 * record's own, else the zone's): deterministic text.
 */
export function buildZone(model: ZoneModel): string {
  const soa = soaOf(model);
  const ttl = int(soa.min);
  // Parallel arrays and an index sort: the cheapest order for 100k records (no per-record objects).
  const keys: string[] = [];
  const types: string[] = [];
  const seqs: number[] = [];
  const lines: string[][] = [];
  for (const r of model.records) {
    // A type this version does not know is not written.
    if (!isRecordType(r.type)) continue;
    const def = RECORD_TYPES[r.type];
    if (def.role === 'soa' || !isZoneRecord(def)) continue;
    const written = zoneLines(r.type, r.data, model.zone, ttlOf(r.data, ttl));
    if (!written.length) continue;
    keys.push(ownerKey(def.owner(r.data) ?? ''));
    types.push(r.type);
    seqs.push(r.seq);
    lines.push(written);
  }
  const order = Array.from(keys, (_, i) => i);
  order.sort((a, b) => {
    const ka = keys[a]!;
    const kb = keys[b]!;
    if (ka !== kb) return ka < kb ? -1 : 1;
    const ta = types[a]!;
    const tb = types[b]!;
    return ta !== tb ? (ta < tb ? -1 : 1) : seqs[a]! - seqs[b]!;
  });
  const out = [`$ORIGIN ${presentName(model.zone)}.`, `$TTL ${ttl}`, soaLine(soa, model.zone, model.serial, ttl)];
  for (const i of order) for (const l of lines[i]!) out.push(l);
  out.push('');
  return out.join('\n');
}

/**
 * The serial of a publish: YYYYMMDDnn in UTC. Today's first when the
 * previous is older; otherwise previous + 1, so past 99 publishes in a day
 * it runs into tomorrow's numbers but never goes down.
 */
export function nextSerial(previous: number | null, now: Date): number {
  const d = now.getUTCFullYear() * 10_000 + (now.getUTCMonth() + 1) * 100 + now.getUTCDate();
  const today = d * 100 + 1;
  return previous !== null && previous >= today ? previous + 1 : today;
}
