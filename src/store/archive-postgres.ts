import { chmodSync } from 'node:fs';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect, sql } from 'kysely';
import { BackupError } from './backup.ts';
import { CopyError, copyStore } from './copy.ts';
import { type Db, migrate } from './db.ts';
import { migrationProvider } from './migrations.ts';
import { openPostgres } from './postgres.ts';
import type { Database } from './schema.ts';

/**
 * `admin backup` and `admin restore` on PostgreSQL (issue 29): the archive
 * holds the store as one SQLite file whichever engine it came from, so one
 * format restores into either engine (a PostgreSQL backup into a SQLite data
 * directory, or the reverse), with the same checks (PRAGMA integrity_check)
 * and the same KEK beside it. Vigil's columns are text and integers only
 * (src/store/migrations.ts), which both engines hold alike.
 */

/** Rows read from PostgreSQL at a time: memory stays bounded whatever the store's size. */
const PAGE = 2_000;

async function appliedOnPostgres(pg: Db): Promise<string[]> {
  const table = await sql<{ t: string | null }>`select to_regclass('kysely_migration')::text as t`.execute(pg);
  if (!table.rows[0]?.t) return [];
  const { rows } = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(pg);
  return rows.map((r) => r.name);
}

/** A value as SQLite stores it; Vigil's own columns are text and integers, the rest is for a later migration. */
function sqliteValue(v: unknown): unknown {
  if (v === undefined || v === null) return null;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (v instanceof Date) return v.getTime();
  if (Buffer.isBuffer(v) || typeof v !== 'object') return v;
  return JSON.stringify(v);
}

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * Copies the PostgreSQL store `pg` into a new SQLite file `dest` made by the
 * same migrations as the store has (not this version's: a backup does not
 * upgrade what it copies), reading every table in one REPEATABLE READ, read
 * only transaction: one committed state, even while `serve` processes
 * write. Rows keep their ids, and SQLite's AUTOINCREMENT counters take the
 * PostgreSQL sequences' values, so ids of deleted rows are not given again
 * after a restore. Returns the migrations applied.
 */
export async function dumpPostgres(pg: Db, dest: string): Promise<string[]> {
  const applied = await appliedOnPostgres(pg);
  if (!applied.length)
    throw new BackupError('the database holds no Vigil store (no migration has run on it): check --db');
  const known = Object.keys(await migrationProvider.getMigrations());
  const unknown = applied.filter((m) => !known.includes(m));
  if (unknown.length)
    throw new BackupError(
      `the store has migrations this Vigil does not know (${unknown.join(', ')}): back it up with the Vigil version that serves it`,
    );
  const staged = new Kysely<unknown>({ dialect: new SqliteDialect({ database: new SqliteDatabase(dest) }) });
  try {
    const { error } = await new Migrator({ db: staged, provider: migrationProvider }).migrateTo(applied.at(-1)!);
    if (error) throw error;
  } finally {
    await staged.destroy();
  }
  chmodSync(dest, 0o600);
  const out = new SqliteDatabase(dest);
  try {
    // Rows arrive table by table; the snapshot is consistent, and foreign_key_check below proves it.
    out.pragma('foreign_keys = OFF');
    const tables = out
      .prepare(
        "select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name not like 'kysely_%' order by name",
      )
      .pluck()
      .all() as string[];
    await pg
      .transaction()
      .setIsolationLevel('repeatable read')
      .setAccessMode('read only')
      .execute(async (trx) => {
        for (const table of tables) await copyTable(trx, out, table);
        await copySequences(trx, out);
      });
    const broken = out.pragma('foreign_key_check') as unknown[];
    if (broken.length) throw new BackupError(`the copy breaks ${broken.length} foreign keys; nothing was written`);
  } finally {
    out.close();
  }
  return applied;
}

async function copyTable(trx: Kysely<Database>, out: SqliteDatabase.Database, table: string): Promise<void> {
  const columns = out.prepare('select name from pragma_table_info(?) order by cid').pluck().all(table) as string[];
  const insert = out.prepare(
    `insert into ${quoted(table)} (${columns.map(quoted).join(', ')}) values (${columns.map(() => '?').join(', ')})`,
  );
  const load = out.transaction((rows: Record<string, unknown>[]) => {
    for (const r of rows) insert.run(columns.map((c) => sqliteValue(r[c])));
  });
  const list = sql.join(columns.map((c) => sql.ref(c)));
  // By ctid, not OFFSET: each page starts where the last one ended (a TID range scan, PostgreSQL 14+).
  for (let after = '(0,0)'; ; ) {
    const page = await sql<
      Record<string, unknown>
    >`select ctid::text as vigil_ctid, ${list} from ${sql.table(table)} where ctid > ${after}::tid order by ctid limit ${PAGE}`.execute(
      trx,
    );
    if (!page.rows.length) return;
    after = String(page.rows.at(-1)!.vigil_ctid);
    load(page.rows);
  }
}

/** Each identity sequence's last value into sqlite_sequence (the AUTOINCREMENT high-water mark). */
async function copySequences(trx: Kysely<Database>, out: SqliteDatabase.Database): Promise<void> {
  const { rows } = await sql<{ table_name: string; column_name: string }>`
    select table_name, column_name from information_schema.columns
    where table_schema = current_schema() and is_identity = 'YES'`.execute(trx);
  const update = out.prepare('update sqlite_sequence set seq = max(seq, ?) where name = ?');
  const insert = out.prepare('insert into sqlite_sequence (name, seq) values (?, ?)');
  for (const { table_name: table, column_name: column } of rows) {
    const last = await sql<{
      last: number | null;
    }>`select pg_sequence_last_value(pg_get_serial_sequence(${quoted(table)}, ${column})) as last`.execute(trx);
    const value = last.rows[0]?.last;
    if (value === null || value === undefined) continue;
    if (update.run(value, table).changes === 0) insert.run(table, value);
  }
}

/**
 * Loads the restored SQLite store `file` into the PostgreSQL database `url`,
 * which must hold no rows: migrated forward to this version first (as
 * `serve` would a SQLite backup), then `admin store copy`'s copy, in one
 * transaction with its counts checked.
 */
export async function loadPostgres(file: string, url: string): Promise<void> {
  const staged = new Kysely<Database>({ dialect: new SqliteDialect({ database: new SqliteDatabase(file) }) });
  try {
    await migrate(staged);
    const target = await openPostgres(url);
    try {
      await copyStore(staged, target);
    } catch (err) {
      if (!(err instanceof CopyError)) throw err;
      throw new BackupError(
        err.code === 'copyTargetNotEmpty'
          ? 'the database of --db already holds a store: restore only into an empty database (createdb a new one), so that nothing is overwritten'
          : `not restored: ${err.message}`,
      );
    } finally {
      await target.destroy();
    }
  } finally {
    await staged.destroy();
  }
}
