import { sql } from 'kysely';
import { serialize } from '../../store/dialect.ts';
import type { ZoneModel } from '../zone.ts';
import type { Executor } from './domains.ts';

/**
 * What the name servers read of `zone_publications` (publications.ts
 * writes it): the served versions, and which of them changed since a
 * reload's last look (served_seq, issue 32; src/dns/server/serving-set.ts).
 */

/**
 * The number the next served version's row takes (served_seq): one above
 * the highest ever taken, under a lock held until the transaction ends (an
 * advisory lock on PostgreSQL, the write lock on SQLite), so numbers commit
 * in the order they are taken and a reader that has seen N never later
 * finds a row numbered below N appear (servedSince). The highest is the
 * highest row's, or the floor a removal raised (`served_seq_floor`,
 * raiseServedSeqFloor): a number is never taken twice. The index makes the
 * max one look-up.
 */
export async function nextServedSeq(trx: Executor): Promise<number> {
  await serialize(trx, 'servedSeq');
  const row = await trx
    .selectFrom('zone_publications')
    .select((eb) => eb.fn.max('served_seq').as('top'))
    .executeTakeFirst();
  const floor = await trx
    .selectFrom('distribution_schedule')
    .select('served_seq_floor')
    .where('id', '=', 1)
    .executeTakeFirst();
  return Math.max(Number(row?.top ?? 0), Number(floor?.served_seq_floor ?? 0)) + 1;
}

/**
 * Raises the floor of the numbering to `top` (a cycle that removed zones:
 * its first number, above every row's, deleted ones included), in the
 * deleting transaction, which holds the servedSeq lock (the cycle takes its
 * numbers first). The schedule's one row is made if no process made it
 * yet, as readSchedule makes it.
 */
export async function raiseServedSeqFloor(trx: Executor, top: number, now: number): Promise<void> {
  await trx
    .insertInto('distribution_schedule')
    .values({ id: 1, cycle: 0, last_at: now })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
  await trx
    .updateTable('distribution_schedule')
    .set({ served_seq_floor: top })
    .where('id', '=', 1)
    .where('served_seq_floor', '<', top)
    .execute();
}

/** What a reload reads: the served zones counted, and the rows written after `since`. */
export interface ServedChanges {
  /** Zones with a served version (the store's whole count: a removal shows as a count that fell). */
  count: number;
  /** Zone, serial and served_seq of each served row numbered above `since`. */
  rows: [string, number, number][];
}

/**
 * Rows whose served version was written after `since` (served_seq), and the
 * count of every served zone, in one statement (one snapshot of the store).
 * A count over the served_seq index and the changed rows: no row per zone
 * leaves the store (test/dns-change-cost.test.ts counts them).
 */
export async function servedSince(db: Executor, since: number): Promise<ServedChanges> {
  const { rows } = await sql<{ zone: string | null; serial: unknown; seq: unknown; n: unknown }>`
    select null as zone, null as serial, null as seq, count(served_seq) as n from zone_publications
    union all
    select zone, served_serial, served_seq, null from zone_publications where served_seq > ${since}`.execute(db);
  let count = 0;
  const out: [string, number, number][] = [];
  for (const r of rows) {
    if (r.zone === null) count = Number(r.n);
    else out.push([r.zone, Number(r.serial), Number(r.seq)]);
  }
  return { count, rows: out };
}

/**
 * Each served zone with its serial and served_seq (two columns and a
 * number, no snapshot): the full read a name server's reload starts with,
 * and falls back to when a zone left.
 */
export async function servedRows(db: Executor): Promise<[string, number, number][]> {
  const rows = await db
    .selectFrom('zone_publications')
    .select(['zone', 'served_serial', 'served_seq'])
    .where('served_snapshot', 'is not', null)
    .execute();
  return rows.map((r) => [r.zone, Number(r.served_serial), Number(r.served_seq ?? 0)]);
}

/** The served versions of these zones, read in batches (a bound on SQL parameters). */
export async function servedModelsOf(db: Executor, zones: readonly string[]): Promise<ZoneModel[]> {
  const out: ZoneModel[] = [];
  for (let i = 0; i < zones.length; i += 500) {
    const rows = await db
      .selectFrom('zone_publications')
      .select('served_snapshot')
      .where('served_snapshot', 'is not', null)
      .where('zone', 'in', zones.slice(i, i + 500))
      .execute();
    for (const r of rows) out.push(JSON.parse(r.served_snapshot!) as ZoneModel);
  }
  return out;
}
