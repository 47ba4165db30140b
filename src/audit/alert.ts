import type { Db } from '../store/db.ts';
import type { AuditCoverage } from './baseline.ts';
import type { Comparison } from './change-mail.ts';
import { changesBetween } from './changes.ts';
import type { ScanInfo } from './report.ts';
import { ScheduleStore } from './schedule-store.ts';
import { type AuditRow, AuditStore } from './store.ts';

/** Whether an ended audit's mail goes out, and what changed since its schedule's previous run. */
export type AlertDecision =
  | { send: false; schedule: number; previous: number }
  | { send: true; schedule: number | null; comparison: Comparison | null };

const coverageOf = (text: string | null) => (text ? (JSON.parse(text) as AuditCoverage) : null);

/**
 * The mail of an audit that ended (its notification was asked for):
 * an audit of saRunAudit is always mailed. A scheduled run is compared
 * with the schedule's previous finished run (changes.ts), and its mail
 * names what changed first; with alert=changes it goes out only when
 * something is new or resolved. A first run, a failed run and a run whose
 * schedule was deleted are always mailed: there is nothing to compare
 * with, or the failure is the news.
 */
export async function alertDecision(db: Db, audit: AuditRow, report: ScanInfo): Promise<AlertDecision> {
  if (audit.schedule_id === null) return { send: true, schedule: null, comparison: null };
  const store = new ScheduleStore(db);
  const schedule = await store.get(audit.schedule_id);
  if (!schedule || report.basic.reporttype === 'failed')
    return { send: true, schedule: audit.schedule_id, comparison: null };
  const previous = await store.previousDone(schedule.id, audit.id);
  if (!previous?.report) return { send: true, schedule: schedule.id, comparison: { first: true } };
  // The row the runner holds was read before the run ended: its coverage is read back from the store.
  const own = await new AuditStore(db).get(audit.id);
  const changes = changesBetween(
    { report: JSON.parse(previous.report) as ScanInfo, coverage: coverageOf(previous.coverage) },
    { report, coverage: coverageOf(own.coverage) },
  );
  if (schedule.alert === 'changes' && changes.length === 0)
    return { send: false, schedule: schedule.id, previous: previous.id };
  return { send: true, schedule: schedule.id, comparison: { first: false, previous: previous.id, changes } };
}
