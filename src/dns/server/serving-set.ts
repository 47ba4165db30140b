import type { Db } from '../../store/db.ts';
import type { ZoneModel } from '../zone.ts';
import type { ZoneFinder } from './resolve.ts';
import { buildZoneIndex, type ZoneIndex } from './zone-index.ts';

/**
 * The zones the name server answers for. A reload builds every changed
 * version first and then swaps one map for another, so a query sees the
 * old set or the new one, never a mix.
 */
export class ServingSet implements ZoneFinder {
  private zones = new Map<string, ZoneIndex>();

  constructor(private readonly forwardAddress: string | null = null) {}

  find(name: string): ZoneIndex | undefined {
    for (let n = name; ; n = n.slice(n.indexOf('.') + 1)) {
      const z = this.zones.get(n);
      if (z) return z;
      if (!n.includes('.')) return undefined;
    }
  }

  get size(): number {
    return this.zones.size;
  }

  /** Replaces the whole set with these versions, reusing unchanged indexes. */
  replace(models: ZoneModel[]): void {
    const next = new Map<string, ZoneIndex>();
    for (const m of models) {
      const current = this.zones.get(m.zone);
      next.set(m.zone, current && current.serial === m.serial ? current : buildZoneIndex(m, this.forwardAddress));
    }
    this.zones = next;
  }

  /** Loads the served versions from the store (after each distribution cycle). */
  async load(db: Db): Promise<void> {
    const rows = await db.selectFrom('zone_publications').select('served_snapshot').where('served_snapshot', 'is not', null).execute();
    this.replace(rows.map((r) => JSON.parse(r.served_snapshot!) as ZoneModel));
  }
}
