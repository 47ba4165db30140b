import { sql } from 'kysely';
import pg from 'pg';
import type { Db } from './db.ts';
import type { VersionProbe } from './read-cache.ts';

/**
 * What keeps the hot-read caches (src/store/read-cache.ts) right on
 * PostgreSQL (issue 32): a store version made of change notifications.
 *
 * - Every table carries a statement trigger that runs
 *   `pg_notify('vigil_changes', '')`. PostgreSQL queues a notification at
 *   commit and drops it on rollback, and sends one per channel and payload
 *   per transaction (docs: NOTIFY), so a bulk import costs one.
 * - Each process listens on one connection of its own; every notification
 *   moves the version, and so does every write statement of this process
 *   when it completes (its own COMMIT included), before its caller goes on:
 *   its own writes are seen at once without waiting for the notification.
 * - Delivery is asynchronous, so a reading is trusted for `maxStalenessMs`
 *   (PG_OTHERS_SEEN_WITHIN_MS, below). After that the
 *   next get sends `select 1` on the listening connection first (half way
 *   there, a get sends it without waiting for it). That is a
 *   barrier: a committing backend signals the listeners before its client
 *   hears COMMIT complete, queue entries are in commit order (PreCommit_Notify
 *   holds a lock till after commit), and a listener sends what it has
 *   pending before ReadyForQuery (postgres.c) - so once the answer is back,
 *   every commit that completed before it was sent has been counted.
 * - No listener (not yet connected, connection lost, barrier unanswered):
 *   the version is null and every get loads. A new listener moves the
 *   version, since notifications may have been missed while deaf.
 */
export const CHANNEL = 'vigil_changes';
const TRIGGER = 'vigil_changes';
/** The listening connection's application_name, as pg_stat_activity shows it. */
export const LISTENER_NAME = 'vigil-changes';

/**
 * The bound on seeing another process's commit when its notification is
 * late (it usually arrives within a millisecond). SQLite's is 5 ms, but
 * there the reading is a local statement; here it is a round trip to
 * another process, which on the loaded 2-core machine took several ms, and
 * calls waited for it: the cheap call at c=32 did 5,000-6,800 req/s with a
 * 5 ms bound, 12,800-14,400 at 50 ms, 15,100-16,000 with no barrier at all
 * (alternating runs, 2026-11-27). Tests set 0 to see every commit at once.
 */
export const PG_OTHERS_SEEN_WITHIN_MS = 50;

/**
 * A barrier unanswered this long means the listening connection is gone
 * without a word (a half-open socket): the listener is dropped and made
 * again, and gets load meanwhile.
 */
const BARRIER_TIMEOUT_MS = 2_000;
/** Reconnects at most this often while PostgreSQL is away. */
const RECONNECT_EVERY_MS = 1_000;

/** Statements that cannot change a table's rows; every other statement moves the version when it completes. */
const READ_ONLY = /^\s*select\b/i;

/**
 * Installs the trigger on every table of the schema that lacks it (tables a
 * later migration adds get it at the next start). Under an advisory lock:
 * `serve`s starting together would otherwise both create it.
 */
export async function installChangeTriggers(db: Db): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(${0x5616}, ${32})`.execute(trx);
    await sql
      .raw(`create or replace function vigil_notify_change() returns trigger language plpgsql as $$
        begin perform pg_notify('${CHANNEL}', ''); return null; end $$`)
      .execute(trx);
    const { rows } = await sql<{ name: string }>`
      select c.relname as name from pg_class c
      where c.relnamespace = current_schema()::regnamespace and c.relkind in ('r', 'p')
        and c.relname not like 'kysely_migration%'
        and not exists (select 1 from pg_trigger t where t.tgrelid = c.oid and t.tgname = ${TRIGGER})`.execute(trx);
    for (const { name } of rows) {
      await sql
        .raw(
          `create trigger ${TRIGGER} after insert or update or delete or truncate on "${name.replaceAll('"', '""')}"
           for each statement execute function vigil_notify_change()`,
        )
        .execute(trx);
    }
  });
}

/** The version of one PostgreSQL store in this process. */
export class PgChanges implements VersionProbe {
  maxStalenessMs = PG_OTHERS_SEEN_WITHIN_MS;
  now = () => performance.now();
  private generation = 0;
  private client: pg.Client | null = null;
  private listening = false;
  private connectingSince = -Infinity;
  private closed = false;
  /** When the last answered barrier (or LISTEN) was sent. */
  private readAt = -Infinity;
  private inFlight: { sentAt: number; done: Promise<void> } | null = null;

  constructor(private readonly url: string) {}

  /** Every pool connection: its write statements move the version as they complete. */
  watch(client: pg.PoolClient): void {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as { query: unknown }).query = (...args: unknown[]) => {
      const result = query(...args);
      const text = typeof args[0] === 'string' ? args[0] : (args[0] as { text?: unknown } | undefined)?.text;
      if (typeof text === 'string' && !READ_ONLY.test(text) && result instanceof Promise) {
        // Registered before the caller's own continuation, so it runs first.
        result.then(this.moved, this.moved);
      }
      return result;
    };
  }

  private readonly moved = () => {
    this.generation++;
  };

  version(): string | null | Promise<string | null> {
    if (!this.listening) {
      this.listen();
      return null;
    }
    const now = this.now();
    const age = now - this.readAt;
    if (age < this.maxStalenessMs) {
      // Half way through the bound the next barrier goes out in the background: it is back before the
      // reading runs out, so a call waits for one only when none was sent for a while.
      if (age >= this.maxStalenessMs / 2 && !this.inFlight) this.barrier(now);
      return String(this.generation);
    }
    // A barrier already on its way serves this call only if it was sent within the bound.
    const flight =
      this.inFlight && now - this.inFlight.sentAt < this.maxStalenessMs ? this.inFlight : this.barrier(now);
    return flight.done.then(() => (this.listening ? String(this.generation) : null));
  }

  private barrier(sentAt: number): { sentAt: number; done: Promise<void> } {
    const client = this.client!;
    let timer: NodeJS.Timeout | undefined;
    const answered = client.query('select 1').then(
      () => true,
      () => false,
    );
    const timedOut = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), BARRIER_TIMEOUT_MS);
    });
    const flight = {
      sentAt,
      done: Promise.race([answered, timedOut]).then((ok) => {
        clearTimeout(timer);
        if (this.inFlight === flight) this.inFlight = null;
        if (!ok) this.lost(client);
        else if (this.client === client) this.readAt = Math.max(this.readAt, sentAt);
      }),
    };
    this.inFlight = flight;
    return flight;
  }

  /** Connects and listens, once at a time and at most every RECONNECT_EVERY_MS; gets load meanwhile. */
  private listen(): void {
    const started = performance.now();
    if (this.closed || this.client || started - this.connectingSince < RECONNECT_EVERY_MS) return;
    this.connectingSince = started;
    const client = new pg.Client({ connectionString: this.url, keepAlive: true, application_name: LISTENER_NAME });
    this.client = client;
    client.on('notification', this.moved);
    client.on('error', () => this.lost(client));
    client.on('end', () => this.lost(client));
    const sentAt = this.now();
    client
      .connect()
      .then(() => client.query(`LISTEN ${CHANNEL}`))
      .then(
        () => {
          if (this.client !== client) return;
          // Whatever committed while nobody listened is behind this version.
          this.generation++;
          this.readAt = sentAt;
          this.listening = true;
        },
        () => this.lost(client),
      );
  }

  /** The listener is gone: nothing is cached until a new one listens. */
  private lost(client: pg.Client): void {
    if (this.client !== client) return;
    this.client = null;
    this.listening = false;
    this.inFlight = null;
    this.generation++;
    client.end().catch(() => {});
  }

  async close(): Promise<void> {
    this.closed = true;
    const client = this.client;
    this.client = null;
    this.listening = false;
    await client?.end().catch(() => {});
  }
}
