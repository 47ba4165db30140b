import { systemClock } from '../../clock.ts';
import type { Db } from '../../store/db.ts';
import type { ZoneModel } from '../zone.ts';
import { Catalog } from './catalog.ts';
import type { ZoneFinder } from './resolve.ts';
import { type Peer, transferAllowed } from './transfer.ts';
import { type ZoneIndex, zoneIndexSteps } from './zone-index.ts';
import { drain, sliced, type Steps } from './slices.ts';
import { servedModelsOf, servedRows, servedSince } from '../zone-store/served.ts';
import {
  type Built,
  type Forward,
  forwardsOf,
  LOAD_BATCH,
  type Plan,
  type ServingOptions,
  type ServingStats,
  type Stale,
} from './serving-parts.ts';

export type { Forward, ServingOptions, ServingStats, Stale } from './serving-parts.ts';

/**
 * The zones the name server answers for, and the catalog listing them. A
 * reload builds every changed version first (a slice at a time, while the
 * old versions answer) and then puts them in, in one synchronous step, so a
 * query sees the old set or the new one, never a mix.
 */
export class ServingSet implements ZoneFinder {
  private readonly zones = new Map<string, ZoneIndex>();
  private catalog: ZoneIndex | null = null;
  /** Builds the catalog, keeping each member's record from one version to the next. */
  private catalogs: Catalog | null = null;
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
    const plan = this.plan(drain(this.indexSteps(models)), gone);
    return this.swap(plan, plan?.members ? drain(this.catalogSteps(plan.members)) : null, true);
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
    const moved = rows!
      .filter(([zone, serial]) => this.zones.get(zone)?.serial !== serial || !this.isMember(zone))
      .map(([zone]) => zone);
    let gone: string[] = [];
    if (full) {
      const keep = new Set(rows!.map(([zone]) => zone));
      gone = [...this.memberNames()].filter((z) => !keep.has(z));
    }
    // In one piece: the first load (nothing is answered yet, and the start waits for it: no turns to give), or
    // VIGIL_DNS_LOAD=whole, as before slicing (bench/sign-stall.ts compares the two in one run).
    const whole = this.seq < 0 || process.env.VIGIL_DNS_LOAD === 'whole';
    // A batch of snapshots at a time, each indexed and let go before the next is read, rather than every parsed
    // snapshot held next to the growing index: at 100,000 zones the start's peak resident size is then the
    // index's own (VmHWM 2,073 MB, 2,041 MB at the first answer; docs/performance.md, "100,000 zones").
    const built: Built[] = [];
    for (let i = 0; i < moved.length; i += LOAD_BATCH) {
      const models = await servedModelsOf(db, moved.slice(i, i + LOAD_BATCH));
      this.stats.reads += models.length;
      const steps = this.indexSteps(models);
      built.push(...(whole ? drain(steps) : await sliced(steps, this.options.sliceMs)));
    }
    const plan = this.plan(built, gone);
    let catalog: ZoneIndex | null = null;
    if (plan?.members) {
      const steps = this.catalogSteps(plan.members);
      catalog = whole ? drain(steps) : await sliced(steps, this.options.sliceMs);
    }
    const changed = this.swap(plan, catalog, this.seq < 0);
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

  /** Each of these versions indexed with its web forwardings (`stats.builds` counts them). */
  private *indexSteps(models: readonly ZoneModel[]): Steps<Built[]> {
    const out: Built[] = [];
    for (const m of models) {
      const index = yield* zoneIndexSteps(m, this.options.forwardAddress ?? null);
      out.push({ index, forwards: forwardsOf(m) });
      this.stats.builds++;
      yield;
    }
    return out;
  }

  /**
   * What a swap of these new versions (`built`) and of the `gone` zones
   * does: the versions that differ from those served, the zones whose
   * cached replies go stale, and the members of the new catalog when they
   * change. Null: nothing to swap.
   */
  private plan(built: readonly Built[], gone: readonly string[]): Plan | null {
    const stale = new Set<string>(gone);
    let outside = false;
    const puts: Built[] = [];
    for (const b of built) {
      const { index } = b;
      const current = this.isMember(index.zone) ? this.zones.get(index.zone) : undefined;
      if (current?.serial === index.serial) continue;
      if (current) index.previous = { serial: current.serial, all: current.all };
      else {
        // A zone that comes takes its names from the zone above it, or from no zone.
        outside = true;
        const above = this.find(index.zone);
        if (above && above !== this.catalog) stale.add(above.zone);
      }
      puts.push(b);
      stale.add(index.zone);
    }
    for (const zone of gone) {
      const above = this.find(zone.slice(zone.indexOf('.') + 1));
      if (zone.includes('.') && above && above !== this.catalog) stale.add(above.zone);
    }
    const catalogDue = this.options.catalogZone && (gone.length > 0 || outside || !this.catalog);
    // Nothing new (a reload after a poll that saw only a publish): keep the set, its generation and the caches.
    if (!puts.length && !catalogDue) return null;
    let members: string[] | null = null;
    if (catalogDue) {
      const leaving = new Set(gone);
      members = [...this.memberNames()].filter((z) => !leaving.has(z));
      for (const { index } of puts) if (!this.isMember(index.zone)) members.push(index.zone);
      members.sort();
    }
    return { puts, gone, stale, outside, members };
  }

  /**
   * The catalog listing `members`, built before the swap (a slice at a time
   * while the old one answers): at 100,000 members a build took 0.07 to
   * 0.47 s on the loaded VM (0.86 to 1.04 s before Catalog kept its
   * records), which the swap, synchronous, made every query wait for.
   */
  private catalogSteps(members: readonly string[]): Steps<ZoneIndex> {
    const name = this.options.catalogZone!;
    // Serial: seconds since 1970, and always above the last one.
    const serial = Math.max(
      (this.catalog?.serial ?? 0) + 1,
      Math.floor((this.options.clock ?? systemClock).now() / 1000),
    );
    this.catalogs ??= new Catalog(name);
    return this.catalogs.buildSteps(members, serial);
  }

  /**
   * Puts the planned new versions in, and takes the gone zones out, in one
   * synchronous step; the other zones are not touched. `all`: every cache is
   * stale (the first load, a replace).
   */
  private swap(plan: Plan | null, catalog: ZoneIndex | null, all: boolean): ZoneIndex[] {
    const changed: ZoneIndex[] = [];
    if (!plan) return changed;
    const { puts, gone, stale, outside } = plan;
    for (const zone of gone) {
      this.zones.delete(zone);
      this.dropForwards(zone);
    }
    for (const { index, forwards } of puts) {
      this.zones.set(index.zone, index);
      this.setForwards(index.zone, forwards);
      changed.push(index);
    }
    if (catalog) {
      this.catalog = catalog;
      this.zones.set(catalog.zone, catalog);
      changed.push(catalog);
      stale.add(catalog.zone);
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
  private setForwards(zone: string, forwards: readonly [string, Forward][]): void {
    this.dropForwards(zone);
    for (const [host, f] of forwards) this.forwards.set(host, f);
    if (forwards.length)
      this.forwardHosts.set(
        zone,
        forwards.map(([host]) => host),
      );
  }
}
