import type { Answer } from 'dns-packet';
import { typeByWire } from '../records.ts';
import type { ZoneRecord } from '../zone.ts';

/**
 * A transferred record in Vigil's stored form, so a slave zone is served,
 * shown and written like any other (`zoneTtl`: the SOA minimum, which
 * records without a TTL of their own follow). Types outside Vigil's record
 * table (DNSSEC's own, …) are left out: docs/dns.md says so.
 */
export function fromWire(a: Answer, zone: string, seq: number, zoneTtl?: number): ZoneRecord | null {
  const owner = a.name.toLowerCase().replace(/\.$/, '');
  const rel = owner === zone ? '' : owner.endsWith(`.${zone}`) ? owner.slice(0, -zone.length - 1) : null;
  const def = typeByWire(a.type);
  if (rel === null || !def?.wire) return null;
  const data = def.wire.decode((a as { data: unknown }).data, rel);
  if (data === null) return null;
  // The master's TTL rides along where it is not the zone's (issue 16: records have their own TTL), so the
  // copy is served as the master serves it.
  const ttl = (a as { ttl?: number }).ttl;
  const own = def.role !== 'soa' && typeof ttl === 'number' && ttl !== zoneTtl ? { ttl } : {};
  return { seq, type: def.type, data: { ...data, ...own } };
}
