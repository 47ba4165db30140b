import { CompiledQuery } from 'kysely';
import PgBoss from 'pg-boss';
import type { Logger } from 'pino';
import type { Clock } from '../clock.ts';
import type { Db } from '../store/db.ts';
import { type AuditJob, LeasedQueue, type QueueOptions } from './queue.ts';

/** The pg-boss queue of audits: one job per audit waiting to start. */
export const AUDIT_QUEUE = 'vigil-audit';

/** pg-boss keeps its tables in a schema of its own, next to Vigil's. */
export const BOSS_SCHEMA = 'pgboss';

/** An account at its limit: its job comes back this much later, while other accounts' jobs go on. */
const BUSY_RETRY_SECONDS = 2;

interface JobData {
  audit: number;
}

/** pg-boss's statements run on a Kysely transaction: the job and the audit row change together or not at all. */
function within(trx: Db): PgBoss.Db {
  return {
    async executeSql(text, values) {
      const r = await trx.executeQuery(CompiledQuery.raw(text, values ?? []));
      return { rows: r.rows as any[] };
    },
  };
}

/**
 * The audit queue on PostgreSQL, through pg-boss (docs/workers.md says why
 * pg-boss and not graphile-worker). A job says "audit N waits to start";
 * it is sent in the transaction that writes the audit (or hands it back, or
 * puts back an abandoned one), and taken in one transaction that fetches it
 * (SKIP LOCKED: several workers never take the same job), claims the audit
 * row under a lease and completes the job. A process that dies inside that
 * transaction rolls it back: the job is there again. Once claimed, the
 * audit's lease on its row holds it, not the job: pg-boss 10's expiry is
 * fixed when a job is fetched and cannot be renewed, while an audit runs
 * from seconds to hours.
 *
 * The queue's policy 'short' keeps at most one waiting job per audit
 * (singletonKey = the audit's id), so putting an audit back twice, or the
 * start-up sweep of audits queued before pg-boss held them, adds no duplicate.
 */
/**
 * pg-boss's set-up run by two processes at the same moment: PostgreSQL may
 * abort one with a deadlock (40P01; seen in CI: two queues starting together
 * in test/worker-claims.test.ts, inside createQueue) or a unique violation
 * (23505) on what the other just created. The other one committed, so doing
 * it again succeeds or finds it done; a few tries with a random pause.
 */
async function startingTogether<T>(step: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await step();
    } catch (err) {
      const code = (err as { code?: string }).code;
      if (attempt >= 5 || (code !== '40P01' && code !== '23505')) throw err;
      await new Promise((r) => setTimeout(r, 50 + Math.random() * 200 * attempt));
    }
  }
}

export class BossQueue extends LeasedQueue {
  private readonly boss: PgBoss;

  constructor(
    db: Db,
    clock: Clock,
    url: string,
    options: QueueOptions,
    private readonly logger: Logger,
  ) {
    super(db, clock, options);
    // Its own two connections: its maintenance must not wait behind the API's queries.
    this.boss = new PgBoss({
      connectionString: url,
      max: 2,
      schema: BOSS_SCHEMA,
      schedule: false,
      application_name: 'vigil-pg-boss',
    });
    this.boss.on('error', (err) => this.logger.warn({ err }, 'audit queue (pg-boss) error'));
  }

  async enqueue(trx: Db, id: number, startAfterSeconds?: number): Promise<void> {
    await this.boss.send(AUDIT_QUEUE, { audit: id } satisfies JobData, {
      singletonKey: String(id),
      ...(startAfterSeconds ? { startAfter: startAfterSeconds } : {}),
      db: within(trx),
    });
  }

  protected requeued(trx: Db, id: number): Promise<void> {
    return this.enqueue(trx, id);
  }

  override async start(handler: Parameters<LeasedQueue['start']>[0]): Promise<void> {
    await startingTogether(() => this.boss.start());
    // Idempotent; two processes starting together: the second finds the queue made.
    await startingTogether(() =>
      this.boss.createQueue(AUDIT_QUEUE, { name: AUDIT_QUEUE, policy: 'short', retryLimit: 0 }),
    );
    // Audits queued before their store was served through pg-boss (an older
    // Vigil, `admin store copy`) get their job; the policy drops duplicates.
    for (const id of await this.store.queuedIds()) await this.db.transaction().execute((trx) => this.enqueue(trx, id));
    await super.start(handler);
  }

  protected async claimNext(): Promise<AuditJob | null> {
    // Every pass consumes one job (run, dropped, or sent again for later), so this ends.
    for (;;) {
      const got = await this.db.transaction().execute(async (trx) => {
        const ex = within(trx);
        const [job] = await this.boss.fetch<JobData>(AUDIT_QUEUE, { batchSize: 1, db: ex });
        if (!job) return 'empty' as const;
        const now = this.clock.now();
        const lease = this.lease();
        const out = await this.store.claim(trx, job.data.audit, lease, this.options.perAccount, now);
        await this.boss.complete(AUDIT_QUEUE, job.id, {}, { db: ex });
        if (out.kind === 'busy') await this.enqueue(trx, job.data.audit, BUSY_RETRY_SECONDS);
        // 'nothing': already running under a live lease, ended, or deleted with its account.
        return out.kind === 'claimed'
          ? { id: job.data.audit, attempt: out.attempt, owner: lease.owner }
          : ('next' as const);
      });
      if (got === 'empty') return null;
      if (got !== 'next') return got;
      if (this.stopped) return null;
    }
  }

  override async stop(): Promise<void> {
    await super.stop();
    // Nothing of ours is active in pg-boss (jobs are completed when claimed): no grace period to wait for.
    await this.boss
      .stop({ graceful: false, wait: true })
      .catch((err) => this.logger.warn({ err }, 'audit queue (pg-boss) stop'));
  }
}
