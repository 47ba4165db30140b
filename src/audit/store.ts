import type { Selectable } from 'kysely';
import type { Db } from '../store/db.ts';
import { serialize } from '../store/dialect.ts';
import type { AuditsTable } from '../store/schema.ts';
import { AuditLeaseStore } from './store-leases.ts';

export type { ClaimOutcome, Lease } from './store-leases.ts';

export type AuditRow = Selectable<AuditsTable>;

export interface NewAudit {
  account_id: number;
  type: string;
  hostip: string;
  excludedos: number;
  notification: number;
  queued_at: number;
  /** The progress a queued audit shows (its totals), JSON. */
  progress?: string;
}

/**
 * The only module that builds SQL on `audits` and `audit_targets`: the
 * request checks, the list, the report, the queue's claims and leases, the
 * runner's result and mail bookkeeping all come through here. One row is an
 * audit and, on SQLite, its job (queued -> running -> done | failed); on
 * PostgreSQL a pg-boss job points at it, but the row stays the truth.
 */
export class AuditStore extends AuditLeaseStore {
  /**
   * Writes a new audit and its addresses in one transaction. `noriskSince`
   * (norisk audits): refuses ('norisk') when one of the addresses had a
   * norisk audit that did not fail queued after that time, whoever asked.
   * `inside` runs in the same transaction (the pg-boss job is sent there,
   * so no audit exists without its job and no job without its audit).
   */
  async add(
    audit: NewAudit,
    addresses: string[],
    noriskSince: number | null,
    inside?: (trx: Db, id: number) => Promise<void>,
  ): Promise<number | 'norisk'> {
    return this.db.transaction().execute(async (trx) => {
      if (noriskSince !== null) {
        // PostgreSQL: two norisk requests for one address must not both pass the check.
        await serialize(trx, 'norisk');
        const recent = await trx
          .selectFrom('audit_targets as t')
          .innerJoin('audits as a', 'a.id', 't.audit_id')
          .select('t.address')
          .where('t.address', 'in', addresses)
          .where('a.type', '=', 'norisk')
          .where('a.state', '!=', 'failed')
          .where('a.queued_at', '>', noriskSince)
          .executeTakeFirst();
        if (recent) return 'norisk' as const;
      }
      const row = await trx
        .insertInto('audits')
        .values({ ...audit, state: 'queued' })
        .returning('id')
        .executeTakeFirstOrThrow();
      // Chunked: SQLite caps the number of bound values per statement.
      for (let i = 0; i < addresses.length; i += 100) {
        await trx
          .insertInto('audit_targets')
          .values(addresses.slice(i, i + 100).map((address, n) => ({ audit_id: row.id, address, position: i + n })))
          .execute();
      }
      await inside?.(trx, row.id);
      return row.id;
    });
  }

  listOf(accountId: number) {
    return this.db
      .selectFrom('audits')
      .select(['id', 'state', 'hostip', 'type', 'queued_at', 'started_at', 'ended_at', 'progress'])
      .where('account_id', '=', accountId)
      .orderBy('id', 'desc')
      .execute();
  }

  /** Someone else's audit reads exactly like one that does not exist (undefined). */
  reportOf(accountId: number, id: number) {
    return this.db
      .selectFrom('audits')
      .select(['state', 'report'])
      .where('id', '=', id)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
  }

  get(id: number): Promise<AuditRow> {
    return this.db.selectFrom('audits').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  }

  async addresses(id: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom('audit_targets')
      .select('address')
      .where('audit_id', '=', id)
      .orderBy('position')
      .execute();
    return rows.map((r) => r.address);
  }

  /**
   * The account's finished audits of `address` before audit `beforeId`,
   * newest first, at most `limit`: their ids and coverage, for the
   * baseline (src/audit/baseline.ts); their reports are read once each by
   * `storedReport`, however many addresses they share.
   */
  earlier(accountId: number, address: string, beforeId: number, limit: number) {
    return this.db
      .selectFrom('audits as a')
      .innerJoin('audit_targets as t', 't.audit_id', 'a.id')
      .select(['a.id', 'a.coverage'])
      .where('a.account_id', '=', accountId)
      .where('t.address', '=', address)
      .where('a.state', '=', 'done')
      .where('a.id', '<', beforeId)
      .orderBy('a.id', 'desc')
      .limit(limit)
      .execute();
  }

  async storedReport(id: number): Promise<string | null> {
    const row = await this.db.selectFrom('audits').select('report').where('id', '=', id).executeTakeFirst();
    return row?.report ?? null;
  }

  /**
   * Progress of a running audit, written only while `owner` holds it (a run that lost its lease must not
   * write over its successor's).
   */
  async setProgress(id: number, owner: string, progress: string): Promise<void> {
    await this.db
      .updateTable('audits')
      .set({ progress })
      .where('id', '=', id)
      .where('state', '=', 'running')
      .where('lease_owner', '=', owner)
      .execute();
  }

  /**
   * The result, written only while `owner` still holds the lease: a worker
   * that lost it (paused past the lease, then taken over) must not write
   * over the run that replaced it. false: not written.
   */
  async finish(
    id: number,
    owner: string,
    result: {
      state: 'done' | 'failed';
      reason: string | null;
      ended_at: number;
      report: string;
      coverage?: string | null;
    },
  ): Promise<boolean> {
    const r = await this.db
      .updateTable('audits')
      // The progress has served its purpose: the list shows none once an audit ended.
      .set({ ...result, progress: null, lease_owner: null, lease_until: null })
      .where('id', '=', id)
      .where('state', '=', 'running')
      .where('lease_owner', '=', owner)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  async markNotified(id: number, at: number): Promise<void> {
    await this.db.updateTable('audits').set({ notified_at: at }).where('id', '=', id).execute();
  }

  /** Ended audits whose mail was asked for and not yet sent (the process died in between). */
  unnotified(): Promise<AuditRow[]> {
    return this.db
      .selectFrom('audits')
      .selectAll()
      .where('notification', '=', 1)
      .where('notified_at', 'is', null)
      .where('state', 'in', ['done', 'failed'])
      .execute();
  }
}
