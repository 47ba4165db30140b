import { createHash } from 'node:crypto';
import type { Answer } from 'dns-packet';
import { indexAnswers, type ZoneIndex } from './zone-index.ts';
import { WIRE } from '../rr/wire-names.ts';

/** A member's label under `zones.`: stable for the zone's name (RFC 9432 4.1). */
export function memberId(zone: string): string {
  return createHash('sha256').update(zone).digest('hex').slice(0, 20);
}

/**
 * The catalog zone (RFC 9432, schema version 2) listing every served zone,
 * so that stock secondaries (BIND, Knot, NSD via its catalog support) add
 * and drop member zones with no per-zone configuration.
 */
export function buildCatalog(name: string, members: string[], serial: number): ZoneIndex {
  const ttl = 0; // the catalog is never queried by resolvers
  const soa: Answer = {
    type: WIRE.SOA,
    name,
    ttl,
    class: 'IN',
    data: { mname: 'invalid', rname: 'invalid', serial, refresh: 300, retry: 60, expire: 1209600, minimum: 0 },
  };
  const answers: Answer[] = [
    { type: WIRE.NS, name, ttl, class: 'IN', data: 'invalid' },
    { type: WIRE.TXT, name: `version.${name}`, ttl, class: 'IN', data: ['2'] },
    ...members.map(
      (zone): Answer => ({ type: WIRE.PTR, name: `${memberId(zone)}.zones.${name}`, ttl, class: 'IN', data: zone }),
    ),
  ];
  return indexAnswers(name, soa, answers, { allowtransferacl: '', notify: '', alsonotify: '' });
}
