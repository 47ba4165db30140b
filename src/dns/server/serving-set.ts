import { type Clock, systemClock } from '../../clock.ts';
import type { Db } from '../../store/db.ts';
import type { ZoneModel } from '../zone.ts';
import { fqdn } from '../names.ts';
import { buildCatalog } from './catalog.ts';
import type { ZoneFinder } from './resolve.ts';
import { type Peer, transferAllowed } from './transfer.ts';
import { buildZoneIndex, type ZoneIndex } from './zone-index.ts';
import { servedModelsOf, servedSerials } from '../zone-store/publications.ts';
import { dataIf } from '../records.ts';
import { WebForwarding } from '../rr/web-forwarding.ts';

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
}

/**
 * The zones the name server answers for, and the catalog listing them. A
 * reload builds every changed version first and then swaps one map for
 * another, so a query sees the old set or the new one, never a mix.
 */
export class ServingSet implements ZoneFinder {
  private zones = new Map<string, ZoneIndex>();
  private catalog: ZoneIndex | null = null;
  private forwards = new Map<string, Forward>();
  /** Rises with every replace: a reply cached under an older generation is stale. */
  generation = 0;
  /** Zone versions indexed so far (buildZoneIndex calls), and snapshots read from the store: what reloads cost. */
  builds = 0;
  reads = 0;
  readonly secondaries: readonly Peer[];
  private readonly replaceListeners: (() => void)[] = [];
  /** Set by the slave-zone manager: who may NOTIFY which zone. */
  notified?: (zone: string, address: string) => boolean;

  constructor(private readonly options: ServingOptions = {}) {
    this.secondaries = options.secondaries ?? [];
  }

  /** `fn` runs right after every swap (the name server's native reply cache is cleared there). */
  onReplace(fn: () => void): void {
    this.replaceListeners.push(fn);
  }

  find(name: string): ZoneIndex | undefined {
    for (let n = name; ; n = n.slice(n.indexOf('.') + 1)) {
      const z = this.zones.get(n);
      if (z) return z;
      if (!n.includes('.')) return undefined;
    }
  }

  transferAllowed(zone: ZoneIndex, address: string): boolean {
    return transferAllowed(zone, address, this.secondaries);
  }

  /** Each served zone (the catalog excluded) with its serial. */
  *serials(): Iterable<[string, number]> {
    for (const [zone, index] of this.zones) if (index !== this.catalog) yield [zone, index.serial];
  }

  get size(): number {
    return this.zones.size - (this.catalog ? 1 : 0);
  }

  /** The web forwarding of a host name (lower case, no trailing dot), if it is served. */
  forwardFor(host: string): Forward | undefined {
    return this.forwards.get(host);
  }

  /** Replaces the whole set with these versions; returns the zones whose version changed (catalog included). */
  replace(models: ZoneModel[]): ZoneIndex[] {
    return this.apply(
      models.map((m) => [m.zone, m.serial]),
      models,
    );
  }

  /**
   * Loads the served versions from the store (after each distribution
   * cycle): first each zone's serial alone, then the snapshots of the zones
   * whose serial moved. A change in one zone of 100,000 reads, parses and
   * indexes that one (`reads` and `builds` count; test/dns-scale.test.ts).
   */
  async load(db: Db): Promise<ZoneIndex[]> {
    const served = await servedSerials(db);
    const moved = served.filter(([zone, serial]) => this.zones.get(zone)?.serial !== serial).map(([zone]) => zone);
    const fresh = moved.length ? await servedModelsOf(db, moved) : [];
    this.reads += fresh.length;
    return this.apply(served, fresh);
  }

  /**
   * The set becomes `served` (zone and serial): the zones in `fresh` are
   * indexed anew, the others keep their index. Then one swap.
   */
  private apply(served: readonly [string, number][], fresh: readonly ZoneModel[]): ZoneIndex[] {
    const models = new Map(fresh.map((m) => [m.zone, m]));
    const next = new Map<string, ZoneIndex>();
    const changed: ZoneIndex[] = [];
    let membersChanged = false;
    for (const [zone, serial] of served) {
      const current = this.zones.get(zone);
      if (!current || current === this.catalog) membersChanged = true;
      const m = models.get(zone);
      if (current && (current.serial === serial || !m)) next.set(zone, current);
      else if (m) {
        const index = buildZoneIndex(m, this.options.forwardAddress ?? null);
        this.builds++;
        if (current) index.previous = { serial: current.serial, all: current.all };
        next.set(zone, index);
        changed.push(index);
      }
    }
    // A zone gone (or a new one) changes the catalog's members; so does a count that differs.
    if (next.size !== this.size) membersChanged = true;
    const forwards = this.forwardsAfter(next, fresh);
    const name = this.options.catalogZone;
    if (name) {
      if (this.catalog && !membersChanged) next.set(name, this.catalog);
      else {
        const members = [...next.keys()].sort();
        // Serial: seconds since 1970, and always above the last one.
        const serial = Math.max(
          (this.catalog?.serial ?? 0) + 1,
          Math.floor((this.options.clock ?? systemClock).now() / 1000),
        );
        this.catalog = buildCatalog(name, members, serial);
        next.set(name, this.catalog);
        changed.push(this.catalog);
      }
    }
    // Nothing new (a reload after a poll that saw only a publish): keep the
    // set, its generation and the reply caches.
    if (!changed.length && next.size === this.zones.size) return changed;
    this.zones = next;
    this.forwards = forwards;
    this.generation++;
    for (const fn of this.replaceListeners) fn();
    return changed;
  }

  /** The web forwardings after this swap: those of kept zones as they were, those of `fresh` read anew. */
  private forwardsAfter(next: ReadonlyMap<string, ZoneIndex>, fresh: readonly ZoneModel[]): Map<string, Forward> {
    const redone = new Set(fresh.map((m) => m.zone));
    const forwards = new Map<string, Forward>();
    for (const [host, f] of this.forwards) if (next.has(f.zone) && !redone.has(f.zone)) forwards.set(host, f);
    for (const m of fresh) {
      if (!next.has(m.zone)) continue;
      for (const r of m.records) {
        const d = dataIf(WebForwarding, r);
        if (d)
          forwards.set(fqdn(d.host, m.zone).slice(0, -1), { target: d.target, cloak: d.cloak === 1, zone: m.zone });
      }
    }
    return forwards;
  }
}
