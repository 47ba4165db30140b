import type { Db } from './db.ts';

/**
 * The set's distribution schedule: one row that every `serve` on a store
 * reads and claims. Owns the `distribution_schedule` table.
 *
 * A cycle is claimed by compare-and-set on the cycle number a process last
 * saw: of several processes whose timers fire for the same interval, one
 * update moves the number and the others find it moved (on PostgreSQL the
 * second UPDATE waits for the first to commit, then re-checks its WHERE on
 * the new row and matches nothing; SQLite has one writer at a time). The
 * number, not the time, is compared: clocks of different machines disagree,
 * and a test's clock may stand still.
 */
export interface Schedule {
  /** Number of the last cycle claimed; 0 before the first. */
  readonly cycle: number;
  /** When it was claimed (epoch ms), or when the row was made. */
  readonly lastAt: number;
}

/** The schedule, made (cycle 0, counting from `now`) by the first process that asks. */
export async function readSchedule(db: Db, now: number): Promise<Schedule> {
  const row = await db
    .selectFrom('distribution_schedule')
    .select(['cycle', 'last_at'])
    .where('id', '=', 1)
    .executeTakeFirst();
  if (row) return { cycle: Number(row.cycle), lastAt: Number(row.last_at) };
  // Two processes starting together: the second insert does nothing, and both read the first one's row.
  await db
    .insertInto('distribution_schedule')
    .values({ id: 1, cycle: 0, last_at: now })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
  const made = await db
    .selectFrom('distribution_schedule')
    .select(['cycle', 'last_at'])
    .where('id', '=', 1)
    .executeTakeFirstOrThrow();
  return { cycle: Number(made.cycle), lastAt: Number(made.last_at) };
}

/** Claims the cycle after `seen`; null when another process claimed it first. */
export async function claimCycle(db: Db, seen: Schedule, now: number): Promise<Schedule | null> {
  const next = { cycle: seen.cycle + 1, lastAt: now };
  const r = await db
    .updateTable('distribution_schedule')
    .set({ cycle: next.cycle, last_at: next.lastAt })
    .where('id', '=', 1)
    .where('cycle', '=', seen.cycle)
    .executeTakeFirst();
  return r.numUpdatedRows > 0n ? next : null;
}
