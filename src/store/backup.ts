import { chmodSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';

/** An operator mistake in `admin backup|restore`: reported in one line, exit 1 (src/cli/admin-backup.ts). */
export class BackupError extends Error {
  readonly code = 'backup';
  constructor(message: string) {
    super(message);
    this.name = 'BackupError';
  }
}

/**
 * Copies an open SQLite database into `dest` with SQLite's online backup.
 *
 * All pages go in one step (the progress callback asks for the most
 * pages a step may take): the step reads inside one read transaction, so
 * the copy is one committed state even while `serve` writes. In WAL mode
 * that read blocks no writer; page by page (better-sqlite3's default of
 * 100 a step) a busy writer in another process would restart the copy
 * after every step. The copy is made 0600: it holds password hashes.
 */
export async function copySqlite(source: SqliteDatabase.Database, dest: string): Promise<void> {
  await source.backup(dest, { progress: () => 0x7fffffff });
  chmodSync(dest, 0o600);
  // The copy says WAL like its source; a rollback journal makes it one self-contained
  // file that readers open without leaving -wal/-shm beside it (serve sets WAL again).
  const copy = new SqliteDatabase(dest, { fileMustExist: true });
  try {
    copy.pragma('journal_mode = DELETE');
  } finally {
    copy.close();
  }
}

/** `PRAGMA integrity_check` of a SQLite file; throws BackupError unless it says ok. */
export function checkSqlite(file: string): void {
  const db = new SqliteDatabase(file, { readonly: true, fileMustExist: true });
  try {
    const rows = db.pragma('integrity_check') as { integrity_check: string }[];
    const text = rows.map((r) => r.integrity_check).join('; ');
    if (text !== 'ok') throw new BackupError(`${file}: integrity check failed: ${text}`);
  } finally {
    db.close();
  }
}

/** The applied migrations of a SQLite file, in order (Kysely's own table; none on a fresh store). */
export function appliedMigrations(file: string): string[] {
  const db = new SqliteDatabase(file, { readonly: true, fileMustExist: true });
  try {
    const table = db.prepare("select 1 from sqlite_master where type = 'table' and name = 'kysely_migration'").get();
    if (!table) return [];
    return (db.prepare('select name from kysely_migration order by name').all() as { name: string }[]).map(
      (r) => r.name,
    );
  } finally {
    db.close();
  }
}

/** 2026-11-23T16:20:50.123Z -> 20261123T162050Z: sorts by time and is a plain file name. */
export function fileStamp(date = new Date()): string {
  return date
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
}

/**
 * Migrations only go forward (there is no `down`), so before one runs on a
 * store that already holds data, the store as it was is copied to
 * DATA/backups/vigil-<time>-before-<first pending migration>.sqlite.
 * Nothing on a fresh store (no migration applied yet: nothing to keep) or
 * an up-to-date one. Returns the copy's path, or null when none was made.
 */
export async function backupBeforeMigrations(
  database: SqliteDatabase.Database,
  file: string,
  migrations: readonly { name: string; executedAt?: Date }[],
): Promise<string | null> {
  const pending = migrations.filter((m) => m.executedAt === undefined).map((m) => m.name);
  if (pending.length === 0 || pending.length === migrations.length) return null;
  const dir = join(dirname(file), 'backups');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const dest = join(dir, `vigil-${fileStamp()}-before-${pending[0]}.sqlite`);
  await copySqlite(database, dest);
  // The operator must learn a copy was made (and where), whichever command opened the store.
  process.stderr.write(`vigil: migrating ${file} (${pending.join(', ')}); the store as it was is saved in ${dest}\n`);
  return dest;
}
