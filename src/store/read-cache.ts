import type SqliteDatabase from 'better-sqlite3';
import type { Kysely } from 'kysely';

/**
 * Results of hot reads kept while the store has not changed (issue 13, the
 * cheap call, on SQLite; issue 32 on PostgreSQL). A CPU profile of `serve` under 32 clients put
 * 107 µs of the authenticated domain list's ~300 µs in better-sqlite3 for
 * its two queries (the session's account, the domain summaries): each
 * statement that reads the file takes and drops WAL locks (fcntl system
 * calls), cheap in a loop (33 µs for both) but not on the loaded 2-core
 * machine. A hit here costs a statement that touches no file.
 *
 * "Changed" has two sources, read separately because they cost differently:
 *
 * - this connection's own writes: `total_changes()` moves with every row it
 *   writes, committed or not; a statement that reads no table, so no lock
 *   (0.8 µs in a loop). Read on every get: exact.
 * - other connections' commits (another `serve`, `admin account disable`):
 *   `PRAGMA data_version` moves, but reading it takes the WAL read lock like
 *   any query (measured under load: 29 µs, most of what a hit saves). It
 *   is read again when the last reading is `maxStalenessMs` old
 *   (OTHERS_SEEN_WITHIN_MS): a commit elsewhere is seen within 5 ms, which
 *   moves a revocation's effect by no more than a request already in flight
 *   at that moment would anyway. Tests set 0 to see every commit at once.
 *
 * The version is read before the load, and a result is kept only if no
 * other call saw a newer version meanwhile, so a value read before a write
 * is never kept under a version from after it. PostgreSQL has no such
 * counter: there the version counts the change notifications its triggers
 * send (src/store/pg-changes.ts), with a bound of its own (50 ms).
 */
/**
 * The bound on seeing another process's commit. It was 1 ms: at ~5k calls/s
 * that read `data_version` (two fcntl calls, taken with the lock) up to 1,000
 * times a second, and `strace -c` of the loaded `serve` counted 0.8 fcntl
 * calls per request. At 5 ms the cheap call's CPU per request fell from
 * 200-206 to 187 µs in an A/B run beside the earlier tree (2026-11-27).
 */
export const OTHERS_SEEN_WITHIN_MS = 5;

/**
 * How a store tells whether it changed: SQLite's counters here, PostgreSQL's
 * notifications in src/store/pg-changes.ts. `version` returns the store's
 * version now, a promise where finding out takes a round trip, or null where
 * nothing may be cached (a transaction, a PostgreSQL listener that is down).
 */
export interface VersionProbe {
  version(): string | null | Promise<string | null>;
  /** How old the reading of other processes' commits may be (ms). */
  maxStalenessMs: number;
  now: () => number;
}

class SqliteProbe implements VersionProbe {
  private readonly total: SqliteDatabase.Statement;
  private readonly data: SqliteDatabase.Statement;
  private dataVersion = -1;
  private readAt = -Infinity;
  maxStalenessMs = OTHERS_SEEN_WITHIN_MS;
  now = () => performance.now();

  constructor(database: SqliteDatabase.Database) {
    this.total = database.prepare('select total_changes()').pluck();
    this.data = database.prepare('pragma data_version').pluck();
  }

  version(): string {
    const now = this.now();
    if (now - this.readAt >= this.maxStalenessMs) {
      this.dataVersion = this.data.get() as number;
      this.readAt = now;
    }
    return `${this.total.get() as number}:${this.dataVersion}`;
  }
}

const probes = new WeakMap<object, VersionProbe>();

/** Registers the SQLite connection behind a store (src/store/db.ts, openSqlite). */
export function registerSqlite(db: Kysely<any>, database: SqliteDatabase.Database): void {
  probes.set(db, new SqliteProbe(database));
}

/** Registers another engine's probe (src/store/postgres.ts). */
export function registerProbe(db: object, probe: VersionProbe): void {
  probes.set(db, probe);
}

/** How old the reading of other connections' commits may be (ms), and the clock it is measured on; for tests. */
export function configureProbe(db: Kysely<any>, options: { maxStalenessMs?: number; now?: () => number }): void {
  const probe = probes.get(db);
  if (probe) Object.assign(probe, options);
}

/** The store's version now (a promise where that takes a round trip), or null where nothing may be cached. */
export function storeVersion(db: Kysely<any>): string | null | Promise<string | null> {
  return probes.get(db)?.version() ?? null;
}

export class ReadCache<K, V> {
  private version: string | null = null;
  private readonly entries = new Map<K, V>();

  constructor(private readonly max = 10_000) {}

  async get(db: Kysely<any>, key: K, load: () => Promise<V>): Promise<V> {
    let seen = storeVersion(db);
    // Awaited only where it is a promise: a hit on SQLite stays one synchronous step.
    if (typeof seen === 'object' && seen !== null) seen = await seen;
    if (seen === null) return load();
    if (seen !== this.version) {
      this.entries.clear();
      this.version = seen;
    }
    const hit = this.entries.get(key);
    if (hit !== undefined) return hit;
    const value = await load();
    if (this.version === seen) {
      if (this.entries.size >= this.max) this.entries.clear();
      this.entries.set(key, value);
    }
    return value;
  }
}

/** One cache per store (a WeakMap by store), made on first use. */
export function perStoreCache<K, V>(): (db: Kysely<any>) => ReadCache<K, V> {
  const caches = new WeakMap<object, ReadCache<K, V>>();
  return (db) => {
    let c = caches.get(db);
    if (!c) caches.set(db, (c = new ReadCache<K, V>()));
    return c;
  };
}
