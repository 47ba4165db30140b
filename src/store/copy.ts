import { type Kysely, type QueryExecutorProvider, sql } from 'kysely';
import type { Db } from './db.ts';
import { isPostgres } from './dialect.ts';

/** Why a copy was refused or undone; the CLI prints the message and exits 1. */
export type CopyErrorCode =
  | 'copySourceNotSqlite'
  | 'copyTargetNotPostgres'
  | 'copyTargetNotEmpty'
  | 'copySchemaMismatch'
  | 'copyCountMismatch';

export class CopyError extends Error {
  constructor(
    readonly code: CopyErrorCode,
    detail: string,
  ) {
    super(`${code}: ${detail}`);
    this.name = 'CopyError';
  }
}

export interface CopiedTable {
  table: string;
  rows: number;
}

/** Rows per INSERT stay under PostgreSQL's 65,535 bind parameters with room to spare. */
const PARAMETERS_PER_INSERT = 30_000;
/** Rows read from SQLite at a time: memory stays bounded whatever the store's size. */
const READ_PAGE = 2_000;

/**
 * Copies every table of a SQLite store (accounts, sessions, throttles,
 * domains, records, publications, audits and their targets, the cycle
 * schedule: whatever the migrations made) into an empty PostgreSQL store
 * that the same migrations made (issue 13: the way off one machine).
 *
 * The tables are read from the store itself, not from a list here, so a
 * table a later migration adds is copied without touching this file. Rows
 * keep their ids, because foreign keys and the API's `seq` and `scanuid`
 * are those ids; parents go before children (SQLite's own foreign-key list
 * gives the order). Everything lands in one PostgreSQL transaction, read
 * from one SQLite read transaction (a consistent snapshot even while a
 * serve writes), and commits only when every table's count on the target
 * equals the source's. Identity sequences then start after the highest id
 * copied, or the first new domain would collide with a copied one.
 */
export async function copyStore(source: Db, target: Db): Promise<CopiedTable[]> {
  if (isPostgres(source))
    throw new CopyError(
      'copySourceNotSqlite',
      'the source must be the SQLite store of a data directory (leave out --db)',
    );
  if (!isPostgres(target)) throw new CopyError('copyTargetNotPostgres', 'the target must be a postgres:// URL');
  return source.transaction().execute(async (src) => {
    const tables = await sqliteTablesInOrder(src);
    return target.transaction().execute(async (dst) => {
      const targetColumns = await postgresColumns(dst);
      const occupied: string[] = [];
      for (const table of targetColumns.keys()) {
        if (await countRows(dst, table)) occupied.push(table);
      }
      if (occupied.length)
        throw new CopyError(
          'copyTargetNotEmpty',
          `the target database already holds rows (in ${occupied.join(', ')}); copy only into an empty database`,
        );
      const copied: CopiedTable[] = [];
      for (const table of tables) {
        const columns = targetColumns.get(table);
        if (!columns) throw new CopyError('copySchemaMismatch', `table ${table} is missing on the target`);
        const sourceColumns = await sqliteColumns(src, table);
        const missing = sourceColumns.filter((c) => !columns.has(c));
        if (missing.length)
          throw new CopyError(
            'copySchemaMismatch',
            `columns ${missing.join(', ')} of ${table} are missing on the target`,
          );
        await copyTable(src, dst, table, sourceColumns);
        const [from, to] = [await countRows(src, table), await countRows(dst, table)];
        if (from !== to)
          throw new CopyError(
            'copyCountMismatch',
            `${table}: ${from} rows in the source, ${to} on the target; nothing was copied`,
          );
        copied.push({ table, rows: to });
      }
      await resetIdentities(dst, await sqliteSequences(src));
      return copied;
    });
  });
}

async function copyTable(src: Kysely<any>, dst: Kysely<any>, table: string, columns: string[]): Promise<void> {
  const perInsert = Math.max(1, Math.floor(PARAMETERS_PER_INSERT / columns.length));
  const list = sql.join(columns.map((c) => sql.ref(c)));
  // By rowid, not OFFSET: each page starts where the last one ended, in one index step.
  for (let after = Number.MIN_SAFE_INTEGER; ; ) {
    const page = await sql<
      Record<string, unknown>
    >`select rowid as vigil_copy_rowid, ${list} from ${sql.table(table)} where rowid > ${after} order by rowid limit ${READ_PAGE}`.execute(
      src,
    );
    if (!page.rows.length) return;
    after = Number(page.rows.at(-1)!.vigil_copy_rowid);
    const rows = page.rows.map((r) => Object.fromEntries(columns.map((c) => [c, r[c]])));
    for (let i = 0; i < rows.length; i += perInsert) {
      await dst
        .insertInto(table)
        .values(rows.slice(i, i + perInsert))
        .execute();
    }
  }
}

/** Vigil's tables (not SQLite's own, not the migrator's), parents before the tables that refer to them. */
async function sqliteTablesInOrder(src: Kysely<any>): Promise<string[]> {
  const { rows } = await sql<{
    name: string;
  }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name not like 'kysely_%' order by name`.execute(
    src,
  );
  const parents = new Map<string, Set<string>>();
  for (const { name } of rows) {
    const fks = await sql<{ table: string }>`select "table" from pragma_foreign_key_list(${name})`.execute(src);
    parents.set(name, new Set(fks.rows.map((f) => f.table).filter((t) => t !== name)));
  }
  const ordered: string[] = [];
  const visit = (name: string, path: Set<string>) => {
    if (ordered.includes(name)) return;
    if (path.has(name)) throw new CopyError('copySchemaMismatch', `foreign keys form a cycle through ${name}`);
    path.add(name);
    for (const p of parents.get(name) ?? []) visit(p, path);
    path.delete(name);
    ordered.push(name);
  };
  for (const { name } of rows) visit(name, new Set());
  return ordered;
}

async function sqliteColumns(src: Kysely<any>, table: string): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`select name from pragma_table_info(${table}) order by cid`.execute(src);
  return rows.map((r) => r.name);
}

/** Table -> column names of the target's own schema (the migrator's tables left out). */
async function postgresColumns(dst: Kysely<any>): Promise<Map<string, Set<string>>> {
  const { rows } = await sql<{ table_name: string; column_name: string }>`
    select c.table_name, c.column_name from information_schema.columns c
    join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
    where c.table_schema = current_schema() and t.table_type = 'BASE TABLE' and c.table_name not like 'kysely_%'`.execute(
    dst,
  );
  const out = new Map<string, Set<string>>();
  for (const r of rows) {
    if (!out.has(r.table_name)) out.set(r.table_name, new Set());
    out.get(r.table_name)!.add(r.column_name);
  }
  return out;
}

async function countRows(db: Kysely<any>, table: string): Promise<number> {
  const { rows } = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(table)}`.execute(db);
  return Number(rows[0]!.n);
}

/**
 * SQLite's AUTOINCREMENT high-water marks: an id once given (a deleted
 * record's `seq`, a deleted audit's `scanuid`) is never given again there,
 * and must not be on the copy either.
 */
async function sqliteSequences(src: QueryExecutorProvider): Promise<Map<string, number>> {
  const table = await sql`select 1 from sqlite_master where type = 'table' and name = 'sqlite_sequence'`.execute(src);
  if (!table.rows.length) return new Map();
  const { rows } = await sql<{ name: string; seq: number }>`select name, seq from sqlite_sequence`.execute(src);
  return new Map(rows.map((r) => [r.name, Number(r.seq)]));
}

/** Every identity column's sequence continues after the highest value copied or ever given (1 on an empty table). */
async function resetIdentities(dst: Kysely<any>, floors: Map<string, number>): Promise<void> {
  const { rows } = await sql<{ table_name: string; column_name: string }>`
    select table_name, column_name from information_schema.columns
    where table_schema = current_schema() and is_identity = 'YES'`.execute(dst);
  for (const { table_name: table, column_name: column } of rows) {
    await sql`select setval(pg_get_serial_sequence(${`"${table}"`}, ${column}), greatest(coalesce((select max(${sql.ref(column)}) from ${sql.table(table)}), 0), ${floors.get(table) ?? 0}) + 1, false)`.execute(
      dst,
    );
  }
}
