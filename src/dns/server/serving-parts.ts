import type { Clock } from '../../clock.ts';
import { fqdn } from '../names.ts';
import { dataIf } from '../records.ts';
import { WebForwarding } from '../rr/web-forwarding.ts';
import type { ZoneModel } from '../zone.ts';
import type { Peer } from './transfer.ts';
import type { ZoneIndex } from './zone-index.ts';

/** The serving set's types and its loads' small helpers (serving-set.ts). */

export interface Forward {
  target: string;
  cloak: boolean;
  /** The zone it is published in (a reload re-reads only changed zones). */
  zone: string;
}

export interface ServingOptions {
  /** Address web-forwarded hosts resolve to; null when the forwarder is off. */
  forwardAddress?: string | null;
  /** Name of the RFC 9432 catalog zone; null: no catalog. */
  catalogZone?: string | null;
  /** Stock secondaries: may transfer every zone, get every NOTIFY. */
  secondaries?: readonly Peer[];
  clock?: Clock;
  /** Event-loop time one slice of a load's indexing may take (slices.ts); 0: a turn after every step (tests). */
  sliceMs?: number;
}

/**
 * What a swap made stale in reply caches: the zones whose answers changed
 * (a new version, a zone gone, the catalog, and the served zones above a
 * zone that came or went, whose names it now answers or gives back), and
 * `outside`: replies for names in no zone (REFUSED), stale when a zone
 * comes. Null: everything (the first load).
 */
export type Stale = { zones: readonly string[]; outside: boolean } | null;

/** What reloads cost, counted: test/dns-scale.test.ts proves a change costs the same whatever the zone count. */
export interface ServingStats {
  /** Zone versions indexed. */
  builds: number;
  /** Snapshots read from the store. */
  reads: number;
  /** Rows of (zone, serial) read from the store; the whole list only when a zone left (or at the first load). */
  serials: number;
  /** Loads that read every zone's serial. */
  fullReads: number;
}

/** What a swap changes (ServingSet.plan); `members`: those of the new catalog, null when it stays. */
export interface Plan {
  puts: Built[];
  gone: readonly string[];
  stale: Set<string>;
  outside: boolean;
  members: string[] | null;
}

/** A version indexed, with its web forwardings: all a swap needs of it (its snapshot is let go). */
export interface Built {
  index: ZoneIndex;
  forwards: [string, Forward][];
}

/** Snapshots read and indexed at a time by a load: 500 is also servedModelsOf's batch (one query). */
export const LOAD_BATCH = 500;

/** A version's web-forwarded hosts (lower case, no trailing dot). */
export function forwardsOf(m: ZoneModel): [string, Forward][] {
  const out: [string, Forward][] = [];
  for (const r of m.records) {
    const d = dataIf(WebForwarding, r);
    if (d) out.push([fqdn(d.host, m.zone).slice(0, -1), { target: d.target, cloak: d.cloak === 1, zone: m.zone }]);
  }
  return out;
}
