import { type Clock, systemClock } from '../../clock.ts';
import type { Db } from '../../store/db.ts';
import type { ZoneModel } from '../zone.ts';
import { fqdn } from '../names.ts';
import { buildCatalog } from './catalog.ts';
import type { ZoneFinder } from './resolve.ts';
import { type Peer, transferAllowed } from './transfer.ts';
import { buildZoneIndex, type ZoneIndex } from './zone-index.ts';
import { servedModels } from '../zone-store/publications.ts';
import { dataIf } from '../records.ts';
import { WebForwarding } from '../rr/web-forwarding.ts';

export interface Forward {
  target: string;
  cloak: boolean;
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
  private members = '';
  private forwards = new Map<string, Forward>();
  /** Rises with every replace: a reply cached under an older generation is stale. */
  generation = 0;
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
    const forwards = new Map<string, Forward>();
    for (const m of models) {
      for (const r of m.records) {
        const d = dataIf(WebForwarding, r);
        if (d) forwards.set(fqdn(d.host, m.zone).slice(0, -1), { target: d.target, cloak: d.cloak === 1 });
      }
    }
    const next = new Map<string, ZoneIndex>();
    const changed: ZoneIndex[] = [];
    for (const m of models) {
      const current = this.zones.get(m.zone);
      if (current && current.serial === m.serial) next.set(m.zone, current);
      else {
        const index = buildZoneIndex(m, this.options.forwardAddress ?? null);
        if (current) index.previous = { serial: current.serial, all: current.all };
        next.set(m.zone, index);
        changed.push(index);
      }
    }
    const name = this.options.catalogZone;
    if (name) {
      const members = [...next.keys()].sort();
      if (this.catalog && members.join(' ') === this.members) next.set(name, this.catalog);
      else {
        this.members = members.join(' ');
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

  /** Loads the served versions from the store (after each distribution cycle). */
  async load(db: Db): Promise<ZoneIndex[]> {
    return this.replace(await servedModels(db));
  }
}
