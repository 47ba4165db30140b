import {
  chmodSync,
  createWriteStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { create, extract } from 'tar';
import { sqlitePath } from '../config.ts';
import { checkKek, KekError, readKekFile } from '../dns/dnssec-kek.ts';
import { parseKek } from '../dns/dnssec/kek.ts';
import { type SealedKey, sealedKeys } from '../dns/zone-store/dnssec-keys.ts';
import { dumpPostgres, loadPostgres } from './archive-postgres.ts';
import { appliedMigrations, BackupError, checkSqlite, copySqlite } from './backup.ts';
import { NoStoreError } from './open.ts';
import { openPostgres } from './postgres.ts';
import type { Database } from './schema.ts';

/**
 * `admin backup` writes one gzip'd tar (node-tar: npm's own tar, so any
 * `tar xzf` reads it too) holding everything a data directory needs to
 * serve again (INTERFACE.md, "Backup, restore"):
 *   vigil-backup.json  what is inside (format, time, engine, migrations)
 *   vigil.sqlite       the store: SQLite's online backup, or on PostgreSQL
 *                      every table in one snapshot (archive-postgres.ts)
 *   tls/cert.pem, tls/key.pem  the API certificate and its key, when
 *                      Vigil made them in DATA/tls/ (not --tls-cert/--tls-key)
 *   dnssec/kek         the key-encryption key that seals the zones' DNSSEC
 *                      keys (DATA/dnssec/kek or --dnssec-key-file): without
 *                      it the restored store's keys do not open (issue 29)
 */
const MANIFEST = 'vigil-backup.json';
const STORE = 'vigil.sqlite';
const TLS_FILES = ['tls/cert.pem', 'tls/key.pem'] as const;
const KEK = 'dnssec/kek';
/** 2 added dnssec/kek and PostgreSQL stores; 1 (the store and TLS alone) is still read. */
const FORMAT = 2;
const READABLE_FORMATS = [1, 2];

interface Manifest {
  format: number;
  createdAt: string;
  migrations: string[];
  files: string[];
  engine?: 'sqlite' | 'postgresql';
}

export interface ArchiveOptions {
  dataDir: string;
  /** postgres://… of the store, or null for the data directory's SQLite file. */
  db: string | null;
  /** The key-encryption key's file: --dnssec-key-file, else DATA/dnssec/kek. */
  kekFile: string;
}

export interface BackupResult {
  file: string;
  files: string[];
  migrations: string[];
  /** What the operator must know (keys the key does not open, a key to put back by hand). */
  notes: string[];
}

/** The sealed DNSSEC keys of a SQLite file (none in a store older than DNSSEC). */
async function keysOf(file: string): Promise<SealedKey[]> {
  const database = new SqliteDatabase(file, { fileMustExist: true });
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database }) });
  try {
    const table = database.prepare("select 1 from sqlite_master where type = 'table' and name = 'dnssec_keys'").get();
    return table ? await sealedKeys(db) : [];
  } finally {
    await db.destroy();
  }
}

/** KekError as the operator mistake it is here: one line, exit 1. */
function asBackupError<T>(what: string, work: () => T): T {
  try {
    return work();
  } catch (err) {
    if (err instanceof KekError) throw new BackupError(`${what}: ${err.message}`);
    throw err;
  }
}

const zoneList = (keys: readonly SealedKey[]) => [...new Set(keys.map((k) => k.zone))].slice(0, 5).join(', ');

/** Backs up the store (SQLite or PostgreSQL), the TLS files and the KEK of `o.dataDir` into `file` (mode 0600). */
export async function backupDataDir(o: ArchiveOptions, file: string): Promise<BackupResult> {
  const store = sqlitePath(o.dataDir);
  if (!o.db && !existsSync(store)) throw new NoStoreError(store);
  // Never over an older backup: the operator names a new file each time.
  if (existsSync(file)) throw new BackupError(`${file} exists: give a new file name`);
  // Staged beside the target (same file system, not a shared /tmp); mkdtemp makes it 0700.
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const stage = mkdtempSync(join(dirname(file), '.vigil-backup-'));
  const partial = `${file}.${process.pid}.partial`;
  try {
    const staged = join(stage, STORE);
    const migrations = o.db ? await fromPostgres(o.db, staged) : await fromSqlite(store, staged);
    checkSqlite(staged);
    const files = [STORE];
    if (TLS_FILES.every((f) => existsSync(join(o.dataDir, f)))) {
      mkdirSync(join(stage, 'tls'), { mode: 0o700 });
      for (const f of TLS_FILES) writeFileSync(join(stage, f), readFileSync(join(o.dataDir, f)), { mode: 0o600 });
      files.push(...TLS_FILES);
    }
    // The key the store's DNSSEC keys are sealed with, checked against them: a backup whose keys would not
    // open after a restore is refused now, not discovered then.
    const keys = await keysOf(staged);
    const kek = asBackupError('not backed up', () => readKekFile(o.kekFile));
    const unopened = asBackupError('not backed up', () => checkKek(o.kekFile, kek, keys));
    if (kek) {
      mkdirSync(join(stage, 'dnssec'), { mode: 0o700 });
      writeFileSync(join(stage, KEK), `${kek.toString('base64')}\n`, { mode: 0o600 });
      files.push(KEK);
    }
    const notes = unopened.length
      ? [`${o.kekFile} does not open the DNSSEC keys of ${unopened.slice(0, 5).join(', ')}: those zones do not sign`]
      : [];
    const manifest: Manifest = {
      format: FORMAT,
      createdAt: new Date().toISOString(),
      engine: o.db ? 'postgresql' : 'sqlite',
      migrations,
      files,
    };
    writeFileSync(join(stage, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 });
    // 0600 from the first byte, whatever the umask (mode only takes bits away): the archive holds the
    // DNSSEC key-encryption key, the TLS key and password hashes.
    const out = createWriteStream(partial, { flags: 'wx', mode: 0o600 });
    await pipeline(create({ gzip: true, cwd: stage, portable: true }, [MANIFEST, ...files]), out);
    chmodSync(partial, 0o600);
    // Renamed only when whole: an interrupted backup never leaves a truncated FILE.
    renameSync(partial, file);
    return { file, files, migrations, notes };
  } finally {
    rmSync(partial, { force: true });
    rmSync(stage, { recursive: true, force: true });
  }
}

async function fromSqlite(store: string, staged: string): Promise<string[]> {
  // Opened directly, not through openStore: a backup must not migrate the store it copies.
  const source = new SqliteDatabase(store, { fileMustExist: true });
  try {
    source.pragma('busy_timeout = 5000');
    await copySqlite(source, staged);
  } finally {
    source.close();
  }
  return appliedMigrations(staged);
}

async function fromPostgres(url: string, staged: string): Promise<string[]> {
  const pg = await openPostgres(url, { migrate: false });
  try {
    return await dumpPostgres(pg, staged);
  } finally {
    await pg.destroy();
  }
}

/**
 * Restores `file` into `o.dataDir` and its store (the SQLite file, or the
 * empty PostgreSQL database `o.db`), which must not exist yet: a restore
 * never overwrites live data, nor TLS files or a key-encryption key that
 * differs. Everything is checked before anything is written; the store goes
 * in last. `serve` then migrates a store older than this version forward.
 */
export async function restoreDataDir(file: string, o: ArchiveOptions): Promise<BackupResult> {
  if (!existsSync(file)) throw new BackupError(`no backup at ${file}`);
  const store = sqlitePath(o.dataDir);
  if (!o.db)
    for (const taken of [store, `${store}-wal`]) {
      if (existsSync(taken))
        throw new BackupError(
          `${taken} exists: restore only into a data directory without a store (move it away first)`,
        );
    }
  mkdirSync(o.dataDir, { recursive: true, mode: 0o700 });
  const stage = mkdtempSync(join(o.dataDir, '.vigil-restore-'));
  try {
    const wanted = new Set<string>([MANIFEST, STORE, ...TLS_FILES, KEK]);
    // Only the names Vigil writes are taken out; anything else in the archive is ignored.
    await extract({ file, cwd: stage, strict: true, filter: (path) => wanted.has(path.replace(/^\.\//, '')) }).catch(
      (err: Error) => {
        throw new BackupError(`${file} is not a Vigil backup (${err.message})`);
      },
    );
    const manifest = readManifest(file, join(stage, MANIFEST));
    const staged = join(stage, STORE);
    if (!existsSync(staged)) throw new BackupError(`${file} holds no ${STORE}`);
    checkSqlite(staged);
    const tls = TLS_FILES.filter((f) => existsSync(join(stage, f)));
    for (const f of tls) {
      if (existsSync(join(o.dataDir, f)))
        throw new BackupError(
          `${join(o.dataDir, f)} exists: restore only into a data directory without TLS files (move them away first)`,
        );
    }
    const { kek, notes } = await restoredKek(file, stage, manifest, o.kekFile);
    if (o.db) await loadPostgres(staged, o.db);
    if (tls.length) mkdirSync(join(o.dataDir, 'tls'), { recursive: true, mode: 0o700 });
    for (const f of tls) {
      renameSync(join(stage, f), join(o.dataDir, f));
      // Whatever modes the archive carries, the files stay the owner's alone.
      chmodSync(join(o.dataDir, f), 0o600);
    }
    if (kek) {
      mkdirSync(dirname(o.kekFile), { recursive: true, mode: 0o700 });
      writeFileSync(o.kekFile, `${kek.toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
    }
    if (!o.db) {
      chmodSync(staged, 0o600);
      // The store last: until it is in place, the directory still reads as "no store".
      renameSync(staged, store);
    }
    const kekFiles = existsSync(join(stage, KEK)) ? [KEK] : [];
    return { file, files: [STORE, ...tls, ...kekFiles], migrations: manifest.migrations, notes };
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

/**
 * The backup's key-encryption key, checked against its store's keys and
 * against a key already at `kekFile` (the same key is left as it is, another
 * one refuses the restore). Returns the key to write (null: nothing to write).
 */
async function restoredKek(
  file: string,
  stage: string,
  manifest: Manifest,
  kekFile: string,
): Promise<{ kek: Buffer | null; notes: string[] }> {
  const keys = await keysOf(join(stage, STORE));
  const there = asBackupError('not restored', () => readKekFile(kekFile));
  if (!existsSync(join(stage, KEK))) {
    if (!keys.length) return { kek: null, notes: [] };
    try {
      checkKek(kekFile, there, keys);
      return { kek: null, notes: [] };
    } catch {
      // A format-1 backup (an older Vigil) left the key out: the operator may still have it.
      return {
        kek: null,
        notes: [
          `the store holds DNSSEC keys (zones ${zoneList(keys)}) and ${basename(file)} (backup format ${manifest.format}) holds no key-encryption key: put the backed-up directory's dnssec/kek at ${kekFile} before starting serve, which refuses to start without it`,
        ],
      };
    }
  }
  let kek: Buffer;
  try {
    kek = parseKek(readFileSync(join(stage, KEK), 'utf8'));
  } catch {
    throw new BackupError(`${file}: its ${KEK} is not a key-encryption key`);
  }
  asBackupError(`${file} is not consistent`, () => checkKek(KEK, kek, keys));
  if (there && !there.equals(kek))
    throw new BackupError(
      `${kekFile} exists and holds another key-encryption key: move it away, or restore with --dnssec-key-file naming a new file`,
    );
  return { kek: there ? null : kek, notes: [] };
}

function readManifest(file: string, path: string): Manifest {
  let manifest: Manifest;
  try {
    manifest = JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    throw new BackupError(`${file} is not a Vigil backup (no readable ${MANIFEST})`);
  }
  if (!READABLE_FORMATS.includes(manifest.format))
    throw new BackupError(
      `${basename(file)}: backup format ${manifest.format}, this Vigil reads ${READABLE_FORMATS.join(' and ')}`,
    );
  return manifest;
}
