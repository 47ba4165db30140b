import type { Selectable } from 'kysely';
import type { Db } from '../store/db.ts';
import { lockAccount, serialize } from '../store/dialect.ts';
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
  /** The progress a queued audit shows (its totals), JSON; none for an audit that ended at once. */
  progress?: string | null;
  /** The ports asked for (normalized ranges); null: the type's list. */
  ports?: string | null;
  /** The schedule whose run this is. */
  schedule_id?: number | null;
}

/** The state checks of a new audit, made in the transaction that writes it. */
export interface AddChecks {
  /** norisk audits: refused ('norisk') when an address had one that did not fail queued after this time. */
  noriskSince: number | null;
  /** Refused ('queueFull') when the account has this many audits queued or running already. */
  queueLimit?: number;
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
   * Writes a new audit and its addresses in one transaction (`insert`).
   * `inside` runs in the same transaction (the pg-boss job is sent there,
   * so no audit exists without its job and no job without its audit).
   */
  add(
    audit: NewAudit,
    addresses: string[],
    checks: AddChecks,
    inside?: (trx: Db, id: number) => Promise<void>,
  ): Promise<number | 'norisk' | 'queueFull'> {
    return this.db.transaction().execute((trx) => new AuditStore(trx).insert(trx, audit, addresses, checks, inside));
  }

  /**
   * The queued audit and its addresses, inside the caller's transaction
   * `trx` (a scheduled run writes its schedule in the same one), after the
   * state checks of `checks`, whoever asked for norisk (the limit protects
   * the address's owner), the account's own audits for the queue limit.
   */
  async insert(
    trx: Db,
    audit: NewAudit,
    addresses: string[],
    checks: AddChecks,
    inside?: (trx: Db, id: number) => Promise<void>,
  ): Promise<number | 'norisk' | 'queueFull'> {
    if (checks.noriskSince !== null) {
      // PostgreSQL: two norisk requests for one address must not both pass the check.
      await serialize(trx, 'norisk');
      if (await this.noriskSince(trx, addresses, checks.noriskSince)) return 'norisk';
    }
    if (checks.queueLimit !== undefined && Number.isFinite(checks.queueLimit)) {
      // Two requests of one account (two serves) must not both pass the count: the account's row orders them.
      await lockAccount(trx, audit.account_id);
      if ((await this.unfinished(trx, audit.account_id)) >= checks.queueLimit) return 'queueFull';
    }
    const id = await this.insertRow(trx, { ...audit, state: 'queued' }, addresses);
    await inside?.(trx, id);
    return id;
  }

  /**
   * A scheduled run refused at its start (docs/audits.md, "Schedules"): a
   * failed audit at once, `reason` the refusal's code, its report made by
   * `report(id)` once the id is known.
   */
  async insertRefused(
    trx: Db,
    audit: NewAudit,
    addresses: string[],
    reason: string,
    report: (id: number) => string,
  ): Promise<number> {
    const id = await this.insertRow(
      trx,
      { ...audit, state: 'failed', reason, ended_at: audit.queued_at, progress: null },
      addresses,
    );
    await trx
      .updateTable('audits')
      .set({ report: report(id) })
      .where('id', '=', id)
      .execute();
    return id;
  }

  private async insertRow(
    trx: Db,
    row: NewAudit & { state: 'queued' | 'failed'; reason?: string; ended_at?: number },
    addresses: string[],
  ): Promise<number> {
    const { id } = await trx.insertInto('audits').values(row).returning('id').executeTakeFirstOrThrow();
    // Chunked: SQLite caps the number of bound values per statement.
    for (let i = 0; i < addresses.length; i += 100) {
      await trx
        .insertInto('audit_targets')
        .values(addresses.slice(i, i + 100).map((address, n) => ({ audit_id: id, address, position: i + n })))
        .execute();
    }
    return id;
  }

  /** Whether one of the addresses had a norisk audit that did not fail, queued after `since`. */
  async noriskSince(db: Db, addresses: string[], since: number): Promise<boolean> {
    const recent = await db
      .selectFrom('audit_targets as t')
      .innerJoin('audits as a', 'a.id', 't.audit_id')
      .select('t.address')
      .where('t.address', 'in', addresses)
      .where('a.type', '=', 'norisk')
      .where('a.state', '!=', 'failed')
      .where('a.queued_at', '>', since)
      .executeTakeFirst();
    return recent !== undefined;
  }

  /** The account's audits queued or running. */
  async unfinished(db: Db, accountId: number): Promise<number> {
    const r = await db
      .selectFrom('audits')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('account_id', '=', accountId)
      .where('state', 'in', ['queued', 'running'])
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  listOf(accountId: number) {
    return this.db
      .selectFrom('audits')
      .select([
        'id',
        'state',
        'hostip',
        'type',
        'queued_at',
        'started_at',
        'ended_at',
        'progress',
        'reason',
        'schedule_id',
      ])
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

  /** The mail went out (or, alert=changes with nothing changed, was held back: `alert` 'held'). */
  async markNotified(id: number, at: number, alert: 'sent' | 'held' | null = null): Promise<void> {
    await this.db.updateTable('audits').set({ notified_at: at, alert_mail: alert }).where('id', '=', id).execute();
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
