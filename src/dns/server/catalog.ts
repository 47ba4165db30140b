import { createHash } from 'node:crypto';
import type { Answer } from 'dns-packet';
import { indexAnswersSteps, type ZoneIndex } from './zone-index.ts';
import { type Steps, STEP } from './slices.ts';
import { WIRE } from '../rr/wire-names.ts';

/** A member's label under `zones.`: stable for the zone's name (RFC 9432 4.1). */
export function memberId(zone: string): string {
  return createHash('sha256').update(zone).digest('hex').slice(0, 20);
}

const TTL = 0; // the catalog is never queried by resolvers

/**
 * The catalog zone (RFC 9432, schema version 2) listing every served zone,
 * so that stock secondaries (BIND, Knot, NSD via its catalog support) add
 * and drop member zones with no per-zone configuration.
 *
 * Built again whenever a zone comes or goes, so each member's record is
 * kept from one build to the next: at 100,000 members, hashing every name
 * and making its record again took most of a build, on the main thread
 * (docs/performance.md, "100,000 zones").
 */
export class Catalog {
  private records = new Map<string, Answer>();

  constructor(private readonly name: string) {}

  /**
   * The catalog of these members (sorted: its transfer is the same for the same members), serial `serial`, a
   * slice at a time (slices.ts).
   */
  *buildSteps(members: readonly string[], serial: number): Steps<ZoneIndex> {
    const name = this.name;
    const soa: Answer = {
      type: WIRE.SOA,
      name,
      ttl: TTL,
      class: 'IN',
      data: { mname: 'invalid', rname: 'invalid', serial, refresh: 300, retry: 60, expire: 1209600, minimum: 0 },
    };
    const answers: Answer[] = [
      { type: WIRE.NS, name, ttl: TTL, class: 'IN', data: 'invalid' },
      { type: WIRE.TXT, name: `version.${name}`, ttl: TTL, class: 'IN', data: ['2'] },
    ];
    // The records of members still listed are reused; those of members gone are let go with the old map.
    const records = new Map<string, Answer>();
    for (const zone of members) {
      const rr = this.records.get(zone) ?? {
        type: WIRE.PTR,
        name: `${memberId(zone)}.zones.${name}`,
        ttl: TTL,
        class: 'IN',
        data: zone,
      };
      records.set(zone, rr);
      answers.push(rr);
      if (answers.length % STEP === 0) yield;
    }
    this.records = records;
    return yield* indexAnswersSteps(name, soa, answers, { allowtransferacl: '', notify: '', alsonotify: '' });
  }
}
