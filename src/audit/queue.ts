import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Clock } from '../clock.ts';
import type { Db } from '../store/db.ts';
import { serialize } from '../store/dialect.ts';

/** Runs one audit; throws only when aborted (the queue then puts it back). */
export type AuditHandler = (job: { id: number; attempt: number }, signal: AbortSignal) => Promise<void>;

/**
 * Where audits wait to run. The embedded store backs it with the `audits`
 * table itself; a scaled set-up backs it with pg-boss on PostgreSQL. Either
 * way the row in `audits` is the audit's truth (state, times, report).
 */
export interface AuditQueue {
  start(handler: AuditHandler): Promise<void>;
  /** A job was just written: look now instead of at the next poll. */
  wake(): void;
  /** Stops taking jobs, aborts the running ones and puts them back in the queue. */
  stop(): Promise<void>;
  /** Audits waiting and running in the whole store (every process), for the metrics. */
  depth(): Promise<{ queued: number; running: number }>;
}

export interface QueueOptions {
  /** Audits running at once in this process. */
  concurrency: number;
  /** Audits of one account running at once; the rest wait their turn. */
  perAccount: number;
  /** A fallback poll; a write in this process wakes the queue at once. */
  pollMs?: number;
}

/**
 * The in-process queue over the `audits` table (queued -> running ->
 * done | failed). With the embedded SQLite store one process owns the file,
 * so a row found `running` at start was cut off by a crash or kill: it goes
 * back to the queue and its next attempt is counted (the handler fails it
 * once the attempts run out).
 */
export class StoreQueue implements AuditQueue {
  private readonly owner = randomUUID();
  private readonly running = new Map<number, { abort: AbortController; done: Promise<void> }>();
  private handler: AuditHandler | null = null;
  private timer: NodeJS.Timeout | null = null;
  private filling = false;
  private again = false;
  private stopped = false;

  constructor(private readonly db: Db, private readonly clock: Clock, private readonly options: QueueOptions) {}

  async start(handler: AuditHandler): Promise<void> {
    this.handler = handler;
    await this.db.updateTable('audits').set({ state: 'queued', lease_owner: null }).where('state', '=', 'running').execute();
    this.timer = setInterval(() => this.wake(), this.options.pollMs ?? 2000);
    this.timer.unref();
    this.wake();
  }

  wake(): void {
    if (this.stopped || !this.handler) return;
    if (this.filling) {
      this.again = true;
      return;
    }
    this.filling = true;
    void this.fill().finally(() => {
      this.filling = false;
      if (this.again) {
        this.again = false;
        this.wake();
      }
    });
  }

  private async fill(): Promise<void> {
    while (!this.stopped && this.running.size < this.options.concurrency) {
      const job = await this.claim().catch(() => null);
      if (!job) return;
      const abort = new AbortController();
      const done = this.handler!(job, abort.signal)
        .catch(async () => {
          // Aborted by stop(): not the audit's fault, so the attempt is not counted.
          await this.db
            .updateTable('audits')
            .set({ state: 'queued', lease_owner: null, attempts: sql`attempts - 1` })
            .where('id', '=', job.id)
            .where('state', '=', 'running')
            .execute()
            .catch(() => {});
        })
        .finally(() => {
          this.running.delete(job.id);
          this.wake();
        });
      this.running.set(job.id, { abort, done });
    }
  }

  /** Takes the oldest queued audit whose account is under its running limit. */
  private claim(): Promise<{ id: number; attempt: number } | null> {
    return this.db.transaction().execute(async (trx) => {
      // PostgreSQL: claims from several processes would read the same next
      // audit and the same running counts; one claim at a time (this
      // process already claims one at a time: fill()).
      await serialize(trx, 'auditClaim');
      const next = await trx
        .selectFrom('audits as a')
        .select(['a.id', 'a.attempts'])
        .where('a.state', '=', 'queued')
        .where(
          (eb) =>
            eb
              .selectFrom('audits as b')
              .select(eb.fn.countAll<number>().as('n'))
              .whereRef('b.account_id', '=', 'a.account_id')
              .where('b.state', '=', 'running'),
          '<',
          this.options.perAccount,
        )
        .orderBy('a.id')
        .limit(1)
        .executeTakeFirst();
      if (!next) return null;
      const now = this.clock.now();
      await trx
        .updateTable('audits')
        .set({ state: 'running', attempts: next.attempts + 1, lease_owner: this.owner, started_at: sql`coalesce(started_at, ${now})` })
        .where('id', '=', next.id)
        .execute();
      return { id: next.id, attempt: next.attempts + 1 };
    });
  }

  async depth(): Promise<{ queued: number; running: number }> {
    const rows = await this.db
      .selectFrom('audits')
      .select((eb) => ['state', eb.fn.countAll<number>().as('n')])
      .where('state', 'in', ['queued', 'running'])
      .groupBy('state')
      .execute();
    const of = (state: string) => Number(rows.find((r) => r.state === state)?.n ?? 0);
    return { queued: of('queued'), running: of('running') };
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    for (const job of this.running.values()) job.abort.abort();
    await Promise.all([...this.running.values()].map((j) => j.done));
  }
}
