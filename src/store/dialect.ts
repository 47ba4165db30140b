import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * The few places where the two engines must be told apart. SQLite has one
 * writer at a time (and this process keeps one connection), so a
 * read-then-write inside a transaction cannot race there; on PostgreSQL
 * concurrent transactions interleave under READ COMMITTED, so such a
 * sequence first takes a lock that the racing transaction also needs.
 */
export function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** `SELECT … FOR UPDATE` on PostgreSQL; SQLite has no such clause (and needs none, see above). */
export function forUpdate<Q extends { forUpdate(): Q }>(db: Kysely<any>, query: Q): Q {
  return isPostgres(db) ? query.forUpdate() : query;
}

/**
 * Checks that span rows which may not exist yet (a domain name about to be
 * claimed, addresses of a norisk audit, the next audit to claim) have no
 * row to lock: they take a transaction-scoped advisory lock per topic.
 */
export const LOCK_TOPICS = {
  /** Domain adds: the duplicate and nesting checks over every account's names. */
  domainNames: 1,
  /** norisk audits: at most one per address and window, whoever asks. */
  norisk: 2,
  /** Claiming the next audit: one claim at a time keeps the per-account limit. */
  auditClaim: 3,
  /** Writing served versions: their served_seq numbers commit in order (zone-store/publications.ts). */
  servedSeq: 4,
} as const;
export type LockTopic = keyof typeof LOCK_TOPICS;

/** Arbitrary, fixed: the first key of Vigil's two-key advisory locks. */
const VIGIL_LOCK_SPACE = 0x5616;

/** The table each topic's checks read, where SQLite takes its write lock (writeFirst). */
const TOPIC_TABLES: Record<LockTopic, string> = {
  domainNames: 'domains',
  norisk: 'audit_targets',
  auditClaim: 'audits',
  servedSeq: 'zone_publications',
};

/**
 * Held until the transaction ends; call it before the checks read. On
 * SQLite the write lock (writeFirst): the checks of two processes on one
 * file then run one after the other as well; without it the second one's
 * write failed ("database is locked", SQLITE_BUSY_SNAPSHOT) instead of
 * waiting (src/store/races.test.ts, two worker threads, two connections).
 */
export async function serialize(trx: Kysely<any>, topic: LockTopic): Promise<void> {
  if (!isPostgres(trx)) return writeFirst(trx, TOPIC_TABLES[topic]);
  await sql`select pg_advisory_xact_lock(${sql.lit(VIGIL_LOCK_SPACE)}, ${sql.lit(LOCK_TOPICS[topic])})`.execute(trx);
}

/**
 * Locks an account's row for the rest of the transaction (its credits, its
 * queue or its schedules are about to be counted, then written). SQLite has
 * no row locks: the database's write lock (writeFirst), for the reason
 * `serialize` gives. Without it a count-then-insert of one process failed
 * with SQLITE_BUSY_SNAPSHOT when another process on the file committed in
 * between (seen: saScheduleAudit answering its system error while two serves
 * and a worker claimed schedules, test/schedule-once.test.ts, once in a full run).
 */
export async function lockAccount(trx: Kysely<any>, accountId: number): Promise<void> {
  if (!isPostgres(trx)) return writeFirst(trx, 'accounts');
  await trx.selectFrom('accounts').select('id').where('id', '=', accountId).forUpdate().execute();
}

/**
 * SQLite: takes the database's write lock now, with a write to `table`
 * that changes nothing (`where 0` still takes it: checked with two
 * connections and busy_timeout 0). In WAL mode a transaction that reads
 * first and writes later fails with SQLITE_BUSY_SNAPSHOT when another
 * connection (another `serve` or `admin` on the same file) committed in
 * between; one that writes first waits for the other (busy_timeout) and
 * then reads what the other wrote. Without it, 6 of the 8 races of
 * src/store/races.test.ts failed on SQLite that way (both credit races,
 * names, norisk, record caps, publishes; the login throttle already wrote
 * first). A no-op on PostgreSQL, where row locks
 * (`forUpdate`, `lockAccount`) order the racing transactions.
 */
export async function writeFirst(trx: Kysely<any>, table: string): Promise<void> {
  if (isPostgres(trx)) return;
  await sql`update ${sql.table(table)} set rowid = rowid where 0`.execute(trx);
}
