import { RECORD_TYPES, soaLine, type RecordTypeName, type SoaData, type StoredData } from './records.ts';

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
}

export function soaOf(model: ZoneModel): SoaData {
  const soa = model.records.find((r) => r.type === 'SOA');
  if (!soa) throw new Error(`zone ${model.zone} has no SOA`);
  return soa.data as SoaData;
}

/**
 * The master file a publish produces: $ORIGIN, $TTL (the SOA's minimum TTL
 * is the zone's TTL), the SOA, then every record sorted by owner, type and
 * seq, one per line with an absolute owner, so the text is deterministic.
 */
export function buildZone(model: ZoneModel): string {
  const soa = soaOf(model);
  const ttl = soa.min;
  const keyed: [string, string, number, string[]][] = [];
  for (const r of model.records) {
    if (r.type === 'SOA') continue;
    const def = RECORD_TYPES[r.type];
    const lines = def.zoneLines(r.data, model.zone, ttl);
    if (lines.length) keyed.push([def.owner(r.data) ?? '', r.type, r.seq, lines]);
  }
  keyed.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : a[2] - b[2]));
  const out = [`$ORIGIN ${model.zone}.`, `$TTL ${ttl}`, soaLine(soa, model.zone, model.serial, ttl)];
  for (const k of keyed) for (const l of k[3]) out.push(l);
  return `${out.join('\n')}\n`;
}

/** YYYYMMDDnn in UTC, always above the previous serial. */
export function nextSerial(previous: number | null, now: Date): number {
  const today = Number(now.toISOString().slice(0, 10).replace(/-/g, '')) * 100 + 1;
  return previous !== null && previous >= today ? previous + 1 : today;
}
