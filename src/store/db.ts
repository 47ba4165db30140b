import { closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, type MigrationInfo, Migrator } from 'kysely';
import { FifoSqliteDialect } from './sqlite-driver.ts';
import type { Database } from './schema.ts';
import { migrationProvider } from './migrations.ts';
import { backupBeforeMigrations } from './backup.ts';
import { registerSqlite } from './read-cache.ts';

export type Db = Kysely<Database>;

/**
 * Opens the embedded store: one SQLite file, WAL so that the admin CLI can
 * write while the server reads, foreign keys on, and a busy timeout so two
 * processes wait for each other instead of failing.
 *
 * synchronous = FULL (issue 12, item 9): in WAL mode NORMAL syncs only at
 * checkpoints, so a power loss or kernel crash may take back commits the
 * API already answered "0" for (a process crash cannot: kill -9 lost none
 * of 52,000). FULL syncs the WAL at every commit. Measured by
 * bench/durability.ts on the 2-core development VM: 0.3-0.6 ms more per
 * commit (store alone: ~45 us -> 320-660 us), record adds through the API
 * at one client ~500-570/s -> ~190-250/s. Tenants' edits come nowhere near
 * that; reads, the hot path, sync nothing. docs/security.md, "Durability".
 */
export async function openSqlite(file: string): Promise<Db> {
  // The owner's alone whatever the umask (issue 29), as the systemd unit's UMask=0077 makes them: the
  // directory 0700, and the file 0600 before SQLite opens it, because SQLite gives -wal and -shm the
  // database file's own mode (os_unix.c, findCreateFileMode). An existing file keeps its mode.
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  closeSync(openSync(file, 'a', 0o600));
  const database = new SqliteDatabase(file);
  database.pragma('journal_mode = WAL');
  database.pragma('foreign_keys = ON');
  database.pragma('busy_timeout = 5000');
  database.pragma('synchronous = FULL');
  const db = new Kysely<Database>({ dialect: new FifoSqliteDialect({ database: withStatementCache(database) }) });
  await migrate(db, (migrations) => backupBeforeMigrations(database, file, migrations));
  registerSqlite(db, database);
  return db;
}

/**
 * Kysely prepares every query anew; preparing costs more than running a
 * point query. Kysely emits the same SQL text for the same query shape, so
 * prepared statements are kept by SQL text (a bounded, small set).
 */
function withStatementCache(database: SqliteDatabase.Database): SqliteDatabase.Database {
  const cache = new Map<string, SqliteDatabase.Statement>();
  const prepare = database.prepare.bind(database);
  return new Proxy(database, {
    get(target, prop, receiver) {
      if (prop !== 'prepare') return Reflect.get(target, prop, receiver);
      return (sql: string) => {
        let stmt = cache.get(sql);
        if (!stmt) {
          stmt = prepare(sql);
          if (cache.size >= 500) cache.delete(cache.keys().next().value!);
          cache.set(sql, stmt);
        }
        return stmt;
      };
    },
  });
}

/** `beforeMigrating` sees every migration (pending ones have no executedAt) before any runs. */
export async function migrate(
  db: Db,
  beforeMigrating?: (migrations: readonly MigrationInfo[]) => Promise<unknown>,
): Promise<void> {
  const migrator = new Migrator({ db, provider: migrationProvider });
  if (beforeMigrating) await beforeMigrating(await migrator.getMigrations());
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`database migration failed${failed ? ` at ${failed.migrationName}` : ''}: ${String(error)}`);
  }
}
