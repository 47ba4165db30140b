import type { Answer } from 'dns-packet';
import type { StoredData } from '../records.ts';
import type { ZoneRecord } from '../zone.ts';

const dot = (name: string) => (name === '.' || name.endsWith('.') ? name : `${name}.`);

/**
 * A transferred record in Vigil's stored form, so a slave zone is served,
 * shown and written like any other (`zoneTtl`: the SOA minimum, which
 * records without a TTL of their own follow). Types outside Vigil's record model
 * (PTR, DNSSEC, …) are left out: docs/dns.md says so.
 */
export function fromWire(a: Answer, zone: string, seq: number, zoneTtl?: number): ZoneRecord | null {
  const owner = a.name.toLowerCase().replace(/\.$/, '');
  const rel = owner === zone ? '' : owner.endsWith(`.${zone}`) ? owner.slice(0, -zone.length - 1) : null;
  if (rel === null) return null;
  const d = (a as { data: any }).data;
  // The master's TTL rides along where it is not the zone's (issue 16: records have their own TTL), so the copy is served as the master serves it.
  const ttl = (a as { ttl?: number }).ttl;
  const own = a.type !== 'SOA' && typeof ttl === 'number' && ttl !== zoneTtl ? { ttl } : {};
  const make = (type: ZoneRecord['type'], data: StoredData): ZoneRecord => ({ seq, type, data: { ...data, ...own } });
  switch (a.type) {
    case 'SOA':
      // The master's serial rides along: the copy is served under it.
      return make('SOA', {
        priNS: dot(d.mname),
        mail: dot(d.rname),
        refresh: d.refresh,
        retry: d.retry,
        exp: d.expire,
        min: d.minimum,
        serial: d.serial,
      });
    case 'A':
    case 'AAAA':
      return make(a.type, { name: rel, data: d });
    case 'NS':
    case 'CNAME':
      return make(a.type, { name: rel, data: dot(d) });
    case 'MX':
      return make('MX', { host: rel, pri: d.preference, data: dot(d.exchange) });
    case 'TXT':
      return make('TXT', {
        name: rel,
        data: (Array.isArray(d) ? d : [d]).map((b: Buffer | string) => b.toString()).join(''),
      });
    case 'CAA':
      return make('CAA', { name: rel, flag: d.flags, tag: d.tag, caaval: d.value });
    case 'SRV': {
      const m = /^_([^.]+)\._([^.]+)(?:\.(.*))?$/.exec(rel);
      if (!m) return null;
      return make('SRV', {
        srvc: m[1],
        prot: m[2],
        host: m[3] ?? '',
        pri: d.priority,
        weight: d.weight,
        port: d.port,
        target: dot(d.target),
      });
    }
    default:
      return null;
  }
}
