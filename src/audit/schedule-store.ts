import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../store/db.ts';
import { lockAccount } from '../store/dialect.ts';
import type { AuditSchedulesTable } from '../store/schema.ts';

export type ScheduleRow = Selectable<AuditSchedulesTable>;
export type NewSchedule = Omit<Insertable<AuditSchedulesTable>, 'id' | 'run_requested' | 'last_audit_id'>;

/** Schedules one look at the store starts at most: the rest wait for the next look, a poll later. */
const DUE_BATCH = 50;

/**
 * The only module that builds SQL on `audit_schedules` (migration 011).
 * A run is claimed by one conditional write that moves `next_run_at` on
 * (or clears `run_requested`): of several processes that saw the schedule
 * due, one write matches and the others change nothing, on SQLite (one
 * writer at a time) and on PostgreSQL alike (the second UPDATE waits for
 * the first's row lock, then finds the row no longer matching, READ
 * COMMITTED's re-check). The claim, the audit it makes and the schedule's
 * `last_audit_id` commit together, so a process that dies in between
 * leaves the run due for another.
 */
export class ScheduleStore {
  constructor(private readonly db: Db) {}

  /** Writes a new schedule unless the account holds `limit` already ('full'). */
  add(s: NewSchedule, limit: number): Promise<number | 'full'> {
    return this.db.transaction().execute(async (trx) => {
      // Two requests of one account must not both pass the count (PostgreSQL; SQLite has one writer).
      await lockAccount(trx, s.account_id);
      const { n } = await trx
        .selectFrom('audit_schedules')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('account_id', '=', s.account_id)
        .executeTakeFirstOrThrow();
      if (Number(n) >= limit) return 'full' as const;
      const row = await trx.insertInto('audit_schedules').values(s).returning('id').executeTakeFirstOrThrow();
      return row.id;
    });
  }

  listOf(accountId: number): Promise<ScheduleRow[]> {
    return this.db
      .selectFrom('audit_schedules')
      .selectAll()
      .where('account_id', '=', accountId)
      .orderBy('id')
      .execute();
  }

  /** Every schedule (the operator's list), by id. */
  all(): Promise<ScheduleRow[]> {
    return this.db.selectFrom('audit_schedules').selectAll().orderBy('id').execute();
  }

  get(id: number): Promise<ScheduleRow | undefined> {
    return this.db.selectFrom('audit_schedules').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** false: no schedule of that id in the account (another account's reads the same). */
  async delete(accountId: number, id: number): Promise<boolean> {
    const r = await this.db
      .deleteFrom('audit_schedules')
      .where('id', '=', id)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    return Number(r.numDeletedRows) === 1;
  }

  /** Schedules whose run is due at `now` or was asked for by `admin schedule run`, the longest due first. */
  async due(now: number): Promise<ScheduleRow[]> {
    return this.db
      .selectFrom('audit_schedules')
      .selectAll()
      .where((eb) => eb.or([eb('next_run_at', '<=', now), eb('run_requested', '=', 1)]))
      .orderBy('next_run_at')
      .limit(DUE_BATCH)
      .execute();
  }

  /** Schedules due at `now` in the whole store (the metrics' gauge). */
  async dueCount(now: number): Promise<number> {
    const r = await this.db
      .selectFrom('audit_schedules')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where((eb) => eb.or([eb('next_run_at', '<=', now), eb('run_requested', '=', 1)]))
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  /**
   * Claims a due run inside `trx`: true for the one process whose write
   * matched. A due run moves `next_run_at` from the value read to `next`
   * (and answers a pending request too); one asked for by `admin schedule
   * run` before it is due clears the request and leaves the cadence as it was.
   */
  async claim(trx: Db, s: ScheduleRow, how: 'due' | 'requested', next: number): Promise<boolean> {
    const q = trx.updateTable('audit_schedules').where('id', '=', s.id);
    const r =
      how === 'due'
        ? await q
            .set({ next_run_at: next, run_requested: 0 })
            .where('next_run_at', '=', s.next_run_at)
            .executeTakeFirst()
        : await q.set({ run_requested: 0 }).where('run_requested', '=', 1).executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  async setLastAudit(trx: Db, id: number, auditId: number): Promise<void> {
    await trx.updateTable('audit_schedules').set({ last_audit_id: auditId }).where('id', '=', id).execute();
  }

  /** `admin schedule run`: a run now, by whichever process looks first. false: no such schedule. */
  async request(id: number): Promise<boolean> {
    const r = await this.db
      .updateTable('audit_schedules')
      .set({ run_requested: 1 })
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  /**
   * The schedule's audits that ended, newest first, before `beforeId`: the
   * previous run alert=changes compares with is the first that is `done`.
   */
  previousDone(scheduleId: number, beforeId: number) {
    return this.db
      .selectFrom('audits')
      .select(['id', 'coverage', 'report'])
      .where('schedule_id', '=', scheduleId)
      .where('state', '=', 'done')
      .where('id', '<', beforeId)
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
  }

  /** Scheduled runs started and alert mails sent or held, in the whole store (the metrics' counters). */
  async runCounts(): Promise<{ refused: number; queued: number; sent: number; held: number }> {
    const rows = await this.db
      .selectFrom('audits')
      .select((eb) => ['state', 'reason', 'alert_mail', eb.fn.countAll<number>().as('n')])
      .where('schedule_id', 'is not', null)
      .groupBy(['state', 'reason', 'alert_mail'])
      .execute();
    const out = { refused: 0, queued: 0, sent: 0, held: 0 };
    for (const r of rows) {
      const n = Number(r.n);
      // A refused run is a failed audit that never started: its reason is a request code, not a run's.
      if (r.state === 'failed' && r.reason !== null && !RUN_REASONS.has(r.reason)) out.refused += n;
      else out.queued += n;
      if (r.alert_mail === 'sent') out.sent += n;
      if (r.alert_mail === 'held') out.held += n;
    }
    return out;
  }
}

/** Why a run that started failed (runner.ts); any other reason of a scheduled audit is a refusal's code. */
const RUN_REASONS = new Set(['interrupted', 'engineError']);
