import { type Clock, systemClock } from '../../clock.ts';
import type { Db } from '../../store/db.ts';
import type { ZoneModel } from '../zone.ts';
import { fqdn } from '../names.ts';
import { buildCatalog } from './catalog.ts';
import type { ZoneFinder } from './resolve.ts';
import { type Peer, transferAllowed } from './transfer.ts';
import { type ZoneIndex, zoneIndexSteps } from './zone-index.ts';
import { drain, sliced, type Steps } from './slices.ts';
import { servedModelsOf, servedRows, servedSince } from '../zone-store/served.ts';
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

/**
 * The zones the name server answers for, and the catalog listing them. A
 * reload builds every changed version first (a slice at a time, while the
 * old versions answer) and then puts them in, in one synchronous step, so a
 * query sees the old set or the new one, never a mix.
 */
export class ServingSet implements ZoneFinder {
  private readonly zones = new Map<string, ZoneIndex>();
  private catalog: ZoneIndex | null = null;
  private readonly forwards = new Map<string, Forward>();
  /** Each zone's forwarded hosts, so that a change in one zone redoes its own alone. */
  private readonly forwardHosts = new Map<string, string[]>();
  /** The highest served_seq seen (zone-store/publications.ts); -1: nothing loaded yet. */
  private seq = -1;
  private loading: Promise<unknown> = Promise.resolve();
  /** Rises with every swap. */
  generation = 0;
  readonly stats: ServingStats = { builds: 0, reads: 0, serials: 0, fullReads: 0 };
  readonly secondaries: readonly Peer[];
  private readonly replaceListeners: ((stale: Stale) => void)[] = [];
  /** Set by the slave-zone manager: who may NOTIFY which zone. */
  notified?: (zone: string, address: string) => boolean;

  constructor(private readonly options: ServingOptions = {}) {
    this.secondaries = options.secondaries ?? [];
  }

  get builds(): number {
    return this.stats.builds;
  }

  get reads(): number {
    return this.stats.reads;
  }

  /** `fn` runs right after every swap, told what went stale (the name server's reply caches forget that). */
  onReplace(fn: (stale: Stale) => void): void {
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
    const keep = new Set(models.map((m) => m.zone));
    const gone = [...this.memberNames()].filter((z) => !keep.has(z));
    return this.apply(models, gone, drain(this.indexSteps(models)), true);
  }

  /**
   * Loads the served versions from the store (after each distribution
   * cycle): the zones whose served version was written since the last load
   * (served_seq), then the snapshots of those whose serial moved. A change
   * in one zone of 100,000 reads one serial and one snapshot, and indexes
   * that one zone (`stats`; test/dns-change-cost.test.ts). Only a zone leaving
   * (the store's count of served zones fell) reads every zone's serial
   * again, to learn which. The new versions are indexed a slice at a time
   * (slices.ts) while the old ones keep answering, then put in at once;
   * loads run one after another.
   */
  load(db: Db): Promise<ZoneIndex[]> {
    const run = this.loading.then(() => this.loadNow(db));
    this.loading = run.catch(() => undefined);
    return run;
  }

  private async loadNow(db: Db): Promise<ZoneIndex[]> {
    let rows: [string, number, number][] | null = null;
    if (this.seq >= 0) {
      const feed = await servedSince(db, this.seq);
      const added = feed.rows.filter(([zone]) => !this.isMember(zone)).length;
      if (feed.count === this.size + added) rows = feed.rows;
    }
    const full = rows === null;
    if (full) {
      rows = await servedRows(db);
      this.stats.fullReads++;
    }
    this.stats.serials += rows!.length;
    const moved = rows!.filter(([zone, serial]) => this.zones.get(zone)?.serial !== serial || !this.isMember(zone));
    const fresh = moved.length
      ? await servedModelsOf(
          db,
          moved.map(([zone]) => zone),
        )
      : [];
    this.stats.reads += fresh.length;
    let gone: string[] = [];
    if (full) {
      const keep = new Set(rows!.map(([zone]) => zone));
      gone = [...this.memberNames()].filter((z) => !keep.has(z));
    }
    // In one piece: the first load (nothing is answered yet, and the start waits for it: no turns to give), or
    // VIGIL_DNS_LOAD=whole, as before slicing (bench/sign-stall.ts compares the two in one run).
    const steps = this.indexSteps(fresh);
    const whole = this.seq < 0 || process.env.VIGIL_DNS_LOAD === 'whole';
    const built = whole ? drain(steps) : await sliced(steps, this.options.sliceMs);
    const changed = this.apply(fresh, gone, built, this.seq < 0);
    for (const [, , seq] of rows!) if (seq > this.seq) this.seq = seq;
    if (this.seq < 0) this.seq = 0;
    return changed;
  }

  private isMember(zone: string): boolean {
    const z = this.zones.get(zone);
    return z !== undefined && z !== this.catalog;
  }

  private *memberNames(): Iterable<string> {
    for (const [zone, index] of this.zones) if (index !== this.catalog) yield zone;
  }

  /** Each of these versions indexed (`stats.builds` counts them). */
  private *indexSteps(models: readonly ZoneModel[]): Steps<Map<string, ZoneIndex>> {
    const out = new Map<string, ZoneIndex>();
    for (const m of models) {
      out.set(m.zone, yield* zoneIndexSteps(m, this.options.forwardAddress ?? null));
      this.stats.builds++;
      yield;
    }
    return out;
  }

  /**
   * Puts the new versions of `fresh` (indexed in `built`) in, and takes the
   * `gone` zones out, in one synchronous step; the other zones are not
   * touched. `all`: every cache is stale (the first load, a replace).
   */
  private apply(
    fresh: readonly ZoneModel[],
    gone: readonly string[],
    built: ReadonlyMap<string, ZoneIndex>,
    all: boolean,
  ): ZoneIndex[] {
    const changed: ZoneIndex[] = [];
    const stale = new Set<string>(gone);
    let outside = false;
    const puts: [ZoneIndex, ZoneModel][] = [];
    for (const m of fresh) {
      const index = built.get(m.zone)!;
      const current = this.isMember(m.zone) ? this.zones.get(m.zone) : undefined;
      if (current?.serial === index.serial) continue;
      if (current) index.previous = { serial: current.serial, all: current.all };
      else {
        // A zone that comes takes its names from the zone above it, or from no zone.
        outside = true;
        const above = this.find(m.zone);
        if (above && above !== this.catalog) stale.add(above.zone);
      }
      puts.push([index, m]);
      stale.add(m.zone);
    }
    for (const zone of gone) {
      const above = this.find(zone.slice(zone.indexOf('.') + 1));
      if (zone.includes('.') && above && above !== this.catalog) stale.add(above.zone);
    }
    const membersChanged = gone.length > 0 || outside;
    const name = this.options.catalogZone;
    const catalogDue = name && (membersChanged || !this.catalog);
    // Nothing new (a reload after a poll that saw only a publish): keep the set, its generation and the caches.
    if (!puts.length && !catalogDue) return changed;
    // The swap: synchronous from here on, so no query sees half of it.
    for (const zone of gone) {
      this.zones.delete(zone);
      this.dropForwards(zone);
    }
    for (const [index, m] of puts) {
      this.zones.set(index.zone, index);
      this.addForwards(m);
      changed.push(index);
    }
    if (name && catalogDue) {
      // Serial: seconds since 1970, and always above the last one.
      const serial = Math.max(
        (this.catalog?.serial ?? 0) + 1,
        Math.floor((this.options.clock ?? systemClock).now() / 1000),
      );
      this.catalog = buildCatalog(name, [...this.memberNames()].sort(), serial);
      this.zones.set(name, this.catalog);
      changed.push(this.catalog);
      stale.add(name);
    }
    this.generation++;
    const what: Stale = all ? null : { zones: [...stale], outside };
    for (const fn of this.replaceListeners) fn(what);
    return changed;
  }

  private dropForwards(zone: string): void {
    for (const host of this.forwardHosts.get(zone) ?? []) this.forwards.delete(host);
    this.forwardHosts.delete(zone);
  }

  /** The web forwardings of a zone's new version, in place of its old ones. */
  private addForwards(m: ZoneModel): void {
    this.dropForwards(m.zone);
    const hosts: string[] = [];
    for (const r of m.records) {
      const d = dataIf(WebForwarding, r);
      if (!d) continue;
      const host = fqdn(d.host, m.zone).slice(0, -1);
      this.forwards.set(host, { target: d.target, cloak: d.cloak === 1, zone: m.zone });
      hosts.push(host);
    }
    if (hosts.length) this.forwardHosts.set(m.zone, hosts);
  }
}
