import { sql } from 'kysely';
import type { Db } from '../store/db.ts';
import { forUpdate, lockAccount, serialize } from '../store/dialect.ts';

/** What a claim of one audit found (the pg-boss queue claims the audit its job names). */
export type ClaimOutcome =
  | { kind: 'claimed'; attempt: number }
  /** Its account already runs its limit: try again shortly. */
  | { kind: 'busy'; accountId: number }
  /** Running under a live lease, done, failed or gone: this job has nothing left to do. */
  | { kind: 'nothing' };

export interface Lease {
  owner: string;
  /** Epoch ms the lease runs out unless renewed. */
  until: number;
}

/**
 * The queue's side of the `audits` table (split from store.ts by concept;
 * AuditStore extends it and stays the table's one owner): depth, claims,
 * leases, hand-backs and the requeue of abandoned runs.
 */
export class AuditLeaseStore {
  constructor(readonly db: Db) {}

  /** Audits waiting and running in the whole store (every process). */
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

  /** Audits that ended (done or failed), in the whole store: benchmarks count throughput with it. */
  async ended(): Promise<number> {
    const r = await this.db
      .selectFrom('audits')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('state', 'in', ['done', 'failed'])
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  /** Queued audits, oldest first (the pg-boss queue makes sure each has a job). */
  async queuedIds(): Promise<number[]> {
    const rows = await this.db.selectFrom('audits').select('id').where('state', '=', 'queued').orderBy('id').execute();
    return rows.map((r) => r.id);
  }

  /**
   * SQLite's claim: the oldest queued audit whose account is under its
   * limit, made running under `lease` with its attempt counted.
   */
  claimNext(lease: Lease, perAccount: number, now: number): Promise<{ id: number; attempt: number } | null> {
    return this.db.transaction().execute(async (trx) => {
      // On PostgreSQL (not used there today: pg-boss claims) claims would race; one at a time.
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
          perAccount,
        )
        .orderBy('a.id')
        .limit(1)
        .executeTakeFirst();
      if (!next) return null;
      await this.markRunning(trx, next.id, next.attempts + 1, lease, now);
      return { id: next.id, attempt: next.attempts + 1 };
    });
  }

  /**
   * pg-boss's claim of the audit its job names, inside the transaction
   * that fetched the job. The account's row lock makes claims of one
   * account wait for each other, so two processes cannot both see the
   * account under its limit and both start (other accounts' claims go on).
   */
  async claim(trx: Db, id: number, lease: Lease, perAccount: number, now: number): Promise<ClaimOutcome> {
    const audit = await forUpdate(
      trx,
      trx.selectFrom('audits').select(['state', 'account_id', 'attempts']).where('id', '=', id),
    ).executeTakeFirst();
    if (!audit || audit.state !== 'queued') return { kind: 'nothing' };
    await lockAccount(trx, audit.account_id);
    const running = await trx
      .selectFrom('audits')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('account_id', '=', audit.account_id)
      .where('state', '=', 'running')
      .executeTakeFirstOrThrow();
    if (Number(running.n) >= perAccount) return { kind: 'busy', accountId: audit.account_id };
    await this.markRunning(trx, id, audit.attempts + 1, lease, now);
    return { kind: 'claimed', attempt: audit.attempts + 1 };
  }

  private async markRunning(trx: Db, id: number, attempts: number, lease: Lease, now: number): Promise<void> {
    await trx
      .updateTable('audits')
      .set({
        state: 'running',
        attempts,
        lease_owner: lease.owner,
        lease_until: lease.until,
        started_at: sql`coalesce(started_at, ${now})`,
      })
      .where('id', '=', id)
      .execute();
  }

  /** Moves the lease on; false when `owner` no longer holds it (taken over: stop the run). */
  async renew(id: number, lease: Lease): Promise<boolean> {
    const r = await this.db
      .updateTable('audits')
      .set({ lease_until: lease.until })
      .where('id', '=', id)
      .where('state', '=', 'running')
      .where('lease_owner', '=', lease.owner)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  /**
   * A run stopped on purpose (SIGTERM): back in the queue, this attempt not
   * counted, as if it had not started. `inside` runs in the same
   * transaction (pg-boss: the new job). false: the lease was lost already.
   */
  handBack(id: number, owner: string, inside?: (trx: Db) => Promise<void>): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const r = await trx
        .updateTable('audits')
        .set({ state: 'queued', lease_owner: null, lease_until: null, attempts: sql`attempts - 1` })
        .where('id', '=', id)
        .where('state', '=', 'running')
        .where('lease_owner', '=', owner)
        .executeTakeFirst();
      if (Number(r.numUpdatedRows) !== 1) return false;
      await inside?.(trx);
      return true;
    });
  }

  /**
   * Running audits whose holder stopped renewing (killed, machine gone,
   * cut off from the database) go back to the queue; the attempt the dead
   * run took stays counted, so the third such interruption fails the audit.
   * `dead(owner)` may name holders known dead before their lease runs out;
   * `self` (this process's own holder) is never taken. `inside` runs in the
   * same transaction for each audit put back.
   */
  requeueAbandoned(
    now: number,
    self: string,
    dead: (owner: string) => boolean,
    inside?: (trx: Db, id: number) => Promise<void>,
  ): Promise<number[]> {
    return this.db.transaction().execute(async (trx) => {
      const rows = await forUpdate(
        trx,
        trx
          .selectFrom('audits')
          .select(['id', 'lease_owner', 'lease_until'])
          .where('state', '=', 'running')
          .where((eb) => eb.or([eb('lease_owner', 'is', null), eb('lease_owner', '!=', self)])),
      ).execute();
      const gone = rows.filter(
        (r) => r.lease_owner === null || r.lease_until === null || r.lease_until < now || dead(r.lease_owner),
      );
      for (const r of gone) {
        await trx
          .updateTable('audits')
          .set({ state: 'queued', lease_owner: null, lease_until: null })
          .where('id', '=', r.id)
          .execute();
        await inside?.(trx, r.id);
      }
      return gone.map((r) => r.id);
    });
  }
}
