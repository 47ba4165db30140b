import pg from 'pg';
import { type Driver, Kysely, PostgresDialect, type PostgresDialectConfig } from 'kysely';
import type { Database } from './schema.ts';
import { type Db, migrate } from './db.ts';
import { PgChanges, installChangeTriggers } from './pg-changes.ts';
import { registerProbe } from './read-cache.ts';

/** Why a store could not be opened (the CLI prints the code and the detail). */
export type StoreErrorCode = 'unsupportedDbUrl' | 'dbUnreachable';

export class StoreError extends Error {
  constructor(
    readonly code: StoreErrorCode,
    detail: string,
  ) {
    super(`${code}: ${detail}`);
  }
}

// int8 (count(), sum(), bigint columns: epoch milliseconds) as a JS number,
// as better-sqlite3 returns it: the code reading rows is the same on both
// engines. Vigil's int8 values (times, serials, counts) stay far below 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (text) => Number(text));

/** Connections per process: requests and audits share them; more only queue on the server's side. */
const POOL_SIZE = 10;

export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//i.test(url);
}

/**
 * Opens a shared PostgreSQL store from `postgres://USER[:PASS]@HOST[:PORT]/DB`
 * or `postgres:///DB?host=/socket/dir` (a Unix socket), then runs the
 * migrations (Kysely's migrator takes an advisory lock, so processes
 * starting together run them once). `migrate: false` leaves the schema as it
 * is: `admin backup` copies a store, it does not upgrade it.
 */
export async function openPostgres(url: string, options: { migrate?: boolean } = {}): Promise<Db> {
  if (!isPostgresUrl(url))
    throw new StoreError(
      'unsupportedDbUrl',
      'expected postgres://USER[:PASS]@HOST[:PORT]/DB or postgres:///DB?host=/socket/dir',
    );
  const pool = new pg.Pool({ connectionString: url, max: POOL_SIZE });
  // An idle connection the server drops (restart, database dropped) must not
  // crash the process; the pool replaces it and the next query reports.
  pool.on('error', () => {});
  // A connection checked out by Kysely (inside a query or a transaction) has
  // no pool listener: when the server goes away under it, pg rejects the
  // query AND emits 'error' on the client, which, unheard, crashed serve
  // ("read ECONNRESET ... Unhandled 'error' event", 1 run in 5 of
  // test/scale-db-restart.test.ts under load; node-postgres issue #2386).
  // The query's own rejection reports the failure; the pool drops the dead
  // client when it is released.
  const changes = new PgChanges(url);
  pool.on('connect', (client) => {
    client.on('error', () => {});
    changes.watch(client);
  });
  try {
    const client = await pool.connect();
    client.release();
  } catch (err) {
    await pool.end().catch(() => {});
    throw new StoreError('dbUnreachable', (err as Error).message);
  }
  const db = new Kysely<Database>({ dialect: new ListeningDialect({ pool }, changes) });
  // Without the triggers (a store copied as it is) nothing is cached: no probe.
  if (options.migrate === false) return db;
  try {
    await migrate(db);
    await installChangeTriggers(db);
  } catch (err) {
    await db.destroy().catch(() => {});
    throw err;
  }
  registerProbe(db, changes);
  return db;
}

/** Kysely's PostgreSQL dialect whose `destroy` also closes the change listener (src/store/pg-changes.ts). */
class ListeningDialect extends PostgresDialect {
  constructor(
    config: PostgresDialectConfig,
    private readonly changes: PgChanges,
  ) {
    super(config);
  }

  override createDriver(): Driver {
    const driver = super.createDriver();
    const destroy = driver.destroy.bind(driver);
    driver.destroy = async () => {
      await this.changes.close();
      await destroy();
    };
    return driver;
  }
}
