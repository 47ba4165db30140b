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
import { create, extract } from 'tar';
import { sqlitePath } from '../config.ts';
import { appliedMigrations, BackupError, checkSqlite, copySqlite } from './backup.ts';
import { NoStoreError } from './open.ts';

/**
 * `admin backup` writes one gzip'd tar (node-tar: npm's own tar, so any
 * `tar xzf` reads it too) holding:
 *   vigil-backup.json  what is inside (format, time, migrations applied)
 *   vigil.sqlite       the store, copied by SQLite's online backup
 *   tls/cert.pem, tls/key.pem  the API certificate and its key, when
 *                      Vigil made them in DATA/tls/ (not --tls-cert/--tls-key)
 */
const MANIFEST = 'vigil-backup.json';
const STORE = 'vigil.sqlite';
const TLS_FILES = ['tls/cert.pem', 'tls/key.pem'] as const;
const FORMAT = 1;

interface Manifest {
  format: number;
  createdAt: string;
  migrations: string[];
  files: string[];
}

export interface BackupResult {
  file: string;
  files: string[];
  migrations: string[];
}

/** Backs up the SQLite store of `dataDir` and its TLS files into `file` (mode 0600), while `serve` may be writing. */
export async function backupDataDir(dataDir: string, file: string): Promise<BackupResult> {
  const store = sqlitePath(dataDir);
  if (!existsSync(store)) throw new NoStoreError(store);
  // Never over an older backup: the operator names a new file each time.
  if (existsSync(file)) throw new BackupError(`${file} exists: give a new file name`);
  // Staged beside the target (same file system, not a shared /tmp); mkdtemp makes it 0700.
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const stage = mkdtempSync(join(dirname(file), '.vigil-backup-'));
  const partial = `${file}.${process.pid}.partial`;
  try {
    // Opened directly, not through openStore: a backup must not migrate the store it copies.
    const source = new SqliteDatabase(store, { fileMustExist: true });
    try {
      source.pragma('busy_timeout = 5000');
      await copySqlite(source, join(stage, STORE));
    } finally {
      source.close();
    }
    checkSqlite(join(stage, STORE));
    const files = [STORE];
    if (TLS_FILES.every((f) => existsSync(join(dataDir, f)))) {
      mkdirSync(join(stage, 'tls'), { mode: 0o700 });
      for (const f of TLS_FILES) writeFileSync(join(stage, f), readFileSync(join(dataDir, f)), { mode: 0o600 });
      files.push(...TLS_FILES);
    }
    const manifest: Manifest = {
      format: FORMAT,
      createdAt: new Date().toISOString(),
      migrations: appliedMigrations(join(stage, STORE)),
      files,
    };
    writeFileSync(join(stage, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 });
    // 0600 from the first byte: the archive holds the TLS key and password hashes.
    const out = createWriteStream(partial, { flags: 'wx', mode: 0o600 });
    await pipeline(create({ gzip: true, cwd: stage, portable: true }, [MANIFEST, ...files]), out);
    // Renamed only when whole: an interrupted backup never leaves a truncated FILE.
    renameSync(partial, file);
    return { file, files, migrations: manifest.migrations };
  } finally {
    rmSync(partial, { force: true });
    rmSync(stage, { recursive: true, force: true });
  }
}

/**
 * Restores `file` into `dataDir`, which must hold no store (and no TLS
 * files the archive would replace): a restore never overwrites live data.
 * The store is checked before it is moved into place; `serve` then
 * migrates it forward if it is older than this version.
 */
export async function restoreDataDir(file: string, dataDir: string): Promise<BackupResult> {
  if (!existsSync(file)) throw new BackupError(`no backup at ${file}`);
  const store = sqlitePath(dataDir);
  for (const taken of [store, `${store}-wal`]) {
    if (existsSync(taken))
      throw new BackupError(`${taken} exists: restore only into a data directory without a store (move it away first)`);
  }
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const stage = mkdtempSync(join(dataDir, '.vigil-restore-'));
  try {
    const wanted = new Set<string>([MANIFEST, STORE, ...TLS_FILES]);
    // Only the names Vigil writes are taken out; anything else in the archive is ignored.
    await extract({ file, cwd: stage, strict: true, filter: (path) => wanted.has(path.replace(/^\.\//, '')) }).catch(
      (err: Error) => {
        throw new BackupError(`${file} is not a Vigil backup (${err.message})`);
      },
    );
    const manifest = readManifest(file, join(stage, MANIFEST));
    if (!existsSync(join(stage, STORE))) throw new BackupError(`${file} holds no ${STORE}`);
    checkSqlite(join(stage, STORE));
    const tls = TLS_FILES.filter((f) => existsSync(join(stage, f)));
    for (const f of tls) {
      if (existsSync(join(dataDir, f)))
        throw new BackupError(
          `${join(dataDir, f)} exists: restore only into a data directory without TLS files (move them away first)`,
        );
    }
    if (tls.length) mkdirSync(join(dataDir, 'tls'), { recursive: true, mode: 0o700 });
    for (const f of tls) renameSync(join(stage, f), join(dataDir, f));
    // Whatever modes the archive carries, the key and the store stay the owner's alone.
    for (const f of tls) chmodSync(join(dataDir, f), f.endsWith('key.pem') ? 0o600 : 0o644);
    chmodSync(join(stage, STORE), 0o600);
    // The store last: until it is in place, the directory still reads as "no store".
    renameSync(join(stage, STORE), store);
    return { file, files: [STORE, ...tls], migrations: manifest.migrations };
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

function readManifest(file: string, path: string): Manifest {
  let manifest: Manifest;
  try {
    manifest = JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    throw new BackupError(`${file} is not a Vigil backup (no readable ${MANIFEST})`);
  }
  if (manifest.format !== FORMAT)
    throw new BackupError(`${basename(file)}: backup format ${manifest.format}, this Vigil reads ${FORMAT}`);
  return manifest;
}
