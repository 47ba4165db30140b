import type { Clock } from '../clock.ts';
import type { Db } from '../store/db.ts';
import { DomainState } from './states.ts';

export interface CycleResult {
  distributed: string[];
  removed: string[];
}

/**
 * One distribution cycle: published versions become the served ones, their
 * domains become Active, and deleted domains leave the serving set. All in
 * one transaction, so the serving set moves from one whole state to the next.
 */
export async function distributionCycle(db: Db, clock: Clock): Promise<CycleResult> {
  return db.transaction().execute(async (trx) => {
    const now = clock.now();
    const removed = await trx.deleteFrom('zone_publications').where('removing', '=', 1).returning('zone').execute();
    const pending = await trx
      .selectFrom('zone_publications')
      .select(['zone', 'domain_id', 'pending_serial', 'pending_snapshot'])
      .where('pending_snapshot', 'is not', null)
      .execute();
    // On PostgreSQL a publish may commit while this runs (SQLite has one
    // writer at a time): each step applies only to the version read above
    // (every publish has a new serial), so a newer one stays pending for the
    // next cycle instead of being overwritten. Domain before publication, as
    // a publish locks them, so the two cannot deadlock.
    const distributed: string[] = [];
    for (const p of pending) {
      // Only a domain still waiting for this very version becomes Active;
      // one changed since then stays Unvalidated.
      if (p.domain_id !== null) {
        await trx
          .updateTable('domains')
          .set({ state: DomainState.Active })
          .where('id', '=', p.domain_id)
          .where('state', '=', DomainState.Waiting)
          .where('serial', '=', Number(p.pending_serial))
          .execute();
      }
      const moved = await trx
        .updateTable('zone_publications')
        .set({ served_serial: p.pending_serial, served_snapshot: p.pending_snapshot, pending_serial: null, pending_snapshot: null, changed_at: now })
        .where('zone', '=', p.zone)
        .where('pending_serial', '=', p.pending_serial)
        .executeTakeFirst();
      if (moved.numUpdatedRows > 0n) distributed.push(p.zone);
    }
    return { distributed, removed: removed.map((r) => r.zone) };
  });
}

/**
 * A fingerprint of what the store says is served: it changes whenever a
 * cycle (in any process, or `admin distribute`) moves a version or removes
 * a zone, and when a slave copy arrives. One aggregate row, cheap enough to
 * read every second. The count catches removals, the serial sum new
 * versions even on a clock that stands still (tests), changed_at the rest
 * (a zone removed and another added with the same serial in one cycle).
 * changed_at counts only on rows without a pending version, so a publish
 * alone does not move it (unless it takes out the latest such row: a
 * reload then finds no new version and swaps nothing).
 */
export async function servedGeneration(db: Db): Promise<string> {
  const row = await db
    .selectFrom('zone_publications')
    .select((eb) => [
      eb.fn.count<number>('served_serial').as('n'),
      eb.fn.sum<number>('served_serial').as('serials'),
      eb.fn.max(eb.case().when('pending_snapshot', 'is', null).then(eb.ref('changed_at')).end()).as('at'),
    ])
    .where('served_snapshot', 'is not', null)
    .executeTakeFirstOrThrow();
  // PostgreSQL answers bigint aggregates as strings, SQLite as numbers: one form for both.
  return `${Number(row.n)}/${Number(row.serials ?? 0)}/${Number(row.at ?? 0)}`;
}
