import { sql } from 'kysely';
import type { RecordTypeName, StoredData } from '../records.ts';
import type { ZoneRecord } from '../zone.ts';
import { isPostgres, writeFirst } from '../../store/dialect.ts';
import type { Executor } from './domains.ts';
import { Options } from '../rr/options.ts';

/**
 * The zone store's `records` rows (see domains.ts for the store as a
 * whole). Every write here also raises its domain's `records_version` in
 * the same statement's transaction: the records reply cache
 * (src/dns/records-cache.ts) keys on it, so a reply cached by any process
 * is never used after a write by any other (they all read the version
 * with the domain row, committed with the records it counts).
 */
async function bumpVersion(trx: Executor, domainId: number): Promise<void> {
  await trx
    .updateTable('domains')
    .set((eb) => ({ records_version: eb('records_version', '+', 1) }))
    .where('id', '=', domainId)
    .execute();
}

/** The domain's records in the order they were added, data parsed. */
export async function zoneRecords(db: Executor, domainId: number): Promise<ZoneRecord[]> {
  const rows = await db
    .selectFrom('records')
    .select(['id', 'type', 'data'])
    .where('domain_id', '=', domainId)
    .orderBy('id')
    .execute();
  return rows.map((r) => ({ seq: r.id, type: r.type as RecordTypeName, data: JSON.parse(r.data) }));
}

/**
 * zoneRecords as one JSON text, made by the store (the data is stored as
 * JSON already): what a publish sends to its thread, which parses it
 * there (publish-jobs.ts). Rows read into JavaScript and joined there held
 * the main thread 170-180 ms for 100,000 records (bench/publish-stall.ts
 * under --cpu-prof: better-sqlite3's rows 76-81 ms, their garbage 41-55,
 * the join 23-26); the store's own string aggregate makes no row objects.
 * Ordered by id, as zoneRecords: the checks' messages follow that order.
 */
export async function zoneRecordsText(db: Executor, domainId: number): Promise<{ text: string; count: number }> {
  const quoted = isPostgres(db) ? sql`to_json(type)::text` : sql`json_quote(type)`;
  const row = sql<{ n: number | string; text: string | null }>`select count(*) as n, string_agg(
    '{"seq":' || id || ',"type":' || ${quoted} || ',"data":' || data || '}', ',' order by id) as text
    from records where domain_id = ${domainId}`;
  const { n, text } = (await row.execute(db)).rows[0]!;
  return { text: `[${text ?? ''}]`, count: Number(n) };
}

export interface NewRecord {
  type: string;
  data: StoredData;
  /** The owner name on the wire (records.owner); null when the path never needs it. */
  owner?: string | null;
}

export async function insertRecords(trx: Executor, domainId: number, records: NewRecord[]): Promise<void> {
  if (records.length) {
    await trx
      .insertInto('records')
      .values(
        records.map((r) => ({
          domain_id: domainId,
          type: r.type,
          data: JSON.stringify(r.data),
          owner: r.owner ?? null,
        })),
      )
      .execute();
  }
  await bumpVersion(trx, domainId);
}

/** Inserts records in order and answers their seqs, in the same order (ids rise with each row). */
export async function insertRecordsReturning(trx: Executor, domainId: number, records: NewRecord[]): Promise<number[]> {
  const seqs: number[] = [];
  // 1,000 rows of 4 values a statement: well under SQLite's 32,766 bound parameters.
  for (let i = 0; i < records.length; i += 1000) {
    const rows = await trx
      .insertInto('records')
      .values(
        records
          .slice(i, i + 1000)
          .map((r) => ({ domain_id: domainId, type: r.type, data: JSON.stringify(r.data), owner: r.owner ?? null })),
      )
      .returning('id')
      .execute();
    seqs.push(...rows.map((r) => Number(r.id)).sort((a, b) => a - b));
  }
  await bumpVersion(trx, domainId);
  return seqs;
}

/** Deletes records of the domain by seq (the caller checked they are its own). */
export async function deleteRecords(trx: Executor, domainId: number, ids: number[]): Promise<void> {
  for (let i = 0; i < ids.length; i += 1000) {
    await trx
      .deleteFrom('records')
      .where('domain_id', '=', domainId)
      .where('id', 'in', ids.slice(i, i + 1000))
      .execute();
  }
  await bumpVersion(trx, domainId);
}

/** The domain's record counts by type (from the (domain_id, type) index alone). */
export async function countsByType(trx: Executor, domainId: number): Promise<{ type: string; n: number }[]> {
  const rows = await trx
    .selectFrom('records')
    .select((eb) => ['type', eb.fn.countAll<number>().as('n')])
    .where('domain_id', '=', domainId)
    .groupBy('type')
    .execute();
  return rows.map((r) => ({ type: r.type, n: Number(r.n) }));
}

/** Bytes of the domain's stored record data. */
export async function storedBytes(trx: Executor, domainId: number): Promise<number> {
  const row = await trx
    .selectFrom('records')
    .select((eb) => eb.fn.sum<number>(eb.fn('length', ['data'])).as('bytes'))
    .where('domain_id', '=', domainId)
    .executeTakeFirstOrThrow();
  return Number(row.bytes ?? 0);
}

/** Records of these types at `owner`, and those of the types whose owner was never stored. */
export async function recordSet(trx: Executor, domainId: number, types: readonly string[], owner: string) {
  return trx
    .selectFrom('records')
    .select(['id', 'type', 'data', 'owner'])
    .where('domain_id', '=', domainId)
    .where('type', 'in', types)
    .where((eb) => eb.or([eb('owner', '=', owner), eb('owner', 'is', null)]))
    .execute();
}

/** Fills in the owner of a record written before records.owner existed (no change to what it answers). */
export async function setOwner(trx: Executor, id: number, owner: string): Promise<void> {
  await trx.updateTable('records').set({ owner }).where('id', '=', id).execute();
}

/**
 * The record `seq` if it is in one of the account's domains, with that
 * domain's id and type; read under the write lock (SQLite), as its delete follows.
 */
export async function ownRecord(trx: Executor, accountId: number, seq: number) {
  await writeFirst(trx, 'records');
  return trx
    .selectFrom('records')
    .innerJoin('domains', 'domains.id', 'records.domain_id')
    .select(['records.id', 'records.type', 'domains.id as domain_id', 'domains.type as domain_type'])
    .where('records.id', '=', seq)
    .where('domains.account_id', '=', accountId)
    .executeTakeFirst();
}

export async function deleteRecord(trx: Executor, domainId: number, id: number): Promise<void> {
  await trx.deleteFrom('records').where('id', '=', id).where('domain_id', '=', domainId).execute();
  await bumpVersion(trx, domainId);
}

/** The domain's (first) record of a type, e.g. its SOA or Options, data parsed. */
export async function recordOfType(
  db: Executor,
  domainId: number,
  type: RecordTypeName,
): Promise<{ id: number; data: StoredData } | undefined> {
  const row = await db
    .selectFrom('records')
    .select(['id', 'data'])
    .where('domain_id', '=', domainId)
    .where('type', '=', type)
    .orderBy('id')
    .executeTakeFirst();
  return row && { id: row.id, data: JSON.parse(row.data) };
}

export async function updateRecordData(trx: Executor, domainId: number, id: number, data: StoredData): Promise<void> {
  await trx
    .updateTable('records')
    .set({ data: JSON.stringify(data) })
    .where('id', '=', id)
    .where('domain_id', '=', domainId)
    .execute();
  await bumpVersion(trx, domainId);
}

/** A slave zone's copy from its masters replaces every record but its Options (its masters' addresses). */
export async function replaceTransferred(trx: Executor, domainId: number, records: NewRecord[]): Promise<void> {
  await trx.deleteFrom('records').where('domain_id', '=', domainId).where('type', '!=', Options.type).execute();
  await insertRecords(trx, domainId, records);
}
