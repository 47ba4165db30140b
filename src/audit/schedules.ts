import type { AccountRow } from '../accounts/accounts.ts';
import type { Clock } from '../clock.ts';
import { DEFAULTS } from '../config.ts';
import { fail } from '../errors.ts';
import type { Db } from '../store/db.ts';
import type { RunFields } from './request.ts';
import { ALERTS, type Alert, EVERY, type Every, followingRun, isoUtc } from './schedule-time.ts';
import { type ScheduleRow, ScheduleStore } from './schedule-store.ts';
import { type Audits, NORISK_WINDOW_MS } from './service.ts';
import { AuditStore } from './store.ts';

/** saScheduleAudit's fields: an audit request and its cadence. */
export interface ScheduleFields extends RunFields {
  every?: string;
  alert?: string;
}

/** One saGetScheduleList `schedules` entry (INTERFACE.md, and three extension fields). */
export interface ListedSchedule {
  scheduleid: string;
  ipaddr: string;
  audittype: string;
  every: Every;
  alert: Alert;
  /** ISO 8601 UTC. */
  nextrun: string;
  /** The latest run's audit; empty before the first run. */
  lastscanuid: string;
  /** Extension: the ports asked for as ranges; empty: the audit type's own list. */
  ports: string;
  excludedos: boolean;
  notification: boolean;
}

const isEvery = (v: string | undefined): v is Every => (EVERY as readonly string[]).includes(v ?? '');
const isAlert = (v: string | undefined): v is Alert => (ALERTS as readonly string[]).includes(v ?? '');

export function listed(s: ScheduleRow): ListedSchedule {
  return {
    scheduleid: String(s.id),
    ipaddr: s.hostip,
    audittype: s.type,
    every: s.every,
    alert: s.alert,
    nextrun: isoUtc(s.next_run_at),
    lastscanuid: s.last_audit_id === null ? '' : String(s.last_audit_id),
    ports: s.ports ?? '',
    excludedos: s.excludedos === 1,
    notification: s.notification === 1,
  };
}

/**
 * The schedules of an account (saScheduleAudit, saGetScheduleList,
 * saDeleteSchedule). A schedule is checked as saRunAudit checks a request,
 * now and again at each run (schedule-run.ts), so what was allowed when it
 * was made is not trusted later.
 */
export class Schedules {
  private readonly store: ScheduleStore;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly audits: Audits,
    private readonly limit: number = DEFAULTS.scheduleLimit,
  ) {
    this.store = new ScheduleStore(db);
  }

  async create(account: AccountRow, f: ScheduleFields, clientAddress: string): Promise<{ scheduleid: string }> {
    // The table checked these first (src/api/contract/schedules.ts); checked again for callers without it.
    if (!isEvery(f.every) || (f.alert !== undefined && !isAlert(f.alert))) fail('syntaxInvalidSchedule');
    const r = this.audits.check(account, f, clientAddress);
    // A norisk audit may run once a month per address: a schedule that asks more often could never keep it.
    if (r.type === 'norisk' && f.every !== 'month') fail('syntaxInvalidSchedule');
    const now = this.clock.now();
    if (
      r.type === 'norisk' &&
      (await new AuditStore(this.db).noriskSince(this.db, r.addresses, now - NORISK_WINDOW_MS))
    )
      fail('noriskAlreadyRun');
    const schedule = {
      account_id: account.id,
      type: r.type,
      hostip: r.hostip,
      excludedos: r.excludedos ? 1 : 0,
      ports: r.portsText,
      notification: r.notification ? 1 : 0,
      every: f.every,
      alert: f.alert ?? 'always',
      created_at: now,
    } as const;
    const id = await this.store.add({ ...schedule, next_run_at: followingRun(schedule, now) }, this.limit);
    if (id === 'full') fail('scheduleLimitReached');
    return { scheduleid: String(id) };
  }

  async list(account: AccountRow): Promise<{ schedules?: ListedSchedule[] }> {
    const rows = await this.store.listOf(account.id);
    return rows.length ? { schedules: rows.map(listed) } : {};
  }

  async delete(account: AccountRow, scheduleid: string | undefined): Promise<Record<string, never>> {
    // Absent, malformed or someone else's: one answer, as for a report that is not the caller's.
    if (!scheduleid || !/^[1-9]\d{0,15}$/.test(scheduleid)) fail('noSuchSchedule');
    if (!(await this.store.delete(account.id, Number(scheduleid)))) fail('noSuchSchedule');
    return {};
  }
}
