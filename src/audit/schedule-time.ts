/** saScheduleAudit's `every` and `alert` values (INTERFACE.md). */
export const EVERY = ['day', 'week', 'month'] as const;
export type Every = (typeof EVERY)[number];
export const ALERTS = ['always', 'changes'] as const;
export type Alert = (typeof ALERTS)[number];

const DAY_MS = 86_400_000;

/**
 * Spec 8 allows one norisk audit of an address per month, read as 30 days
 * (service.ts, NORISK_WINDOW_MS); a calendar month can be 28 days, so a
 * norisk schedule runs every 30 days from its last start instead
 * (schedules.ts refuses a norisk schedule more often than monthly).
 */
export const NORISK_PERIOD_MS = 30 * DAY_MS;

/** UTC: the same day of the month `months` later, clamped to the month's last day (Jan 31 -> Feb 28 -> Mar 31). */
function plusMonths(anchor: number, months: number): number {
  const d = new Date(anchor);
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth() + months;
  const last = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  const time = anchor - Date.UTC(y, d.getUTCMonth(), d.getUTCDate());
  return Date.UTC(y, m, Math.min(d.getUTCDate(), last)) + time;
}

/** The k-th run of a schedule made at `anchor` (k = 1: one period after it was made). */
export function occurrence(anchor: number, every: Every, k: number): number {
  if (every === 'day') return anchor + k * DAY_MS;
  if (every === 'week') return anchor + k * 7 * DAY_MS;
  return plusMonths(anchor, k);
}

/**
 * The first run of a schedule made at `anchor` that falls after `after`.
 * Runs keep to the anchor's time of day, weekday or day of the month (UTC)
 * however late the previous one started; runs missed while no process was
 * up are not made up for: one run at the first chance, then the cadence
 * goes on (docs/audits.md, "Schedules").
 */
export function nextAfter(anchor: number, every: Every, after: number): number {
  if (every !== 'month') {
    const period = every === 'day' ? DAY_MS : 7 * DAY_MS;
    return occurrence(anchor, every, Math.max(1, Math.floor((after - anchor) / period) + 1));
  }
  const a = new Date(anchor);
  const b = new Date(after);
  let k = Math.max(1, (b.getUTCFullYear() - a.getUTCFullYear()) * 12 + b.getUTCMonth() - a.getUTCMonth() - 1);
  while (occurrence(anchor, 'month', k) <= after) k++;
  return occurrence(anchor, 'month', k);
}

/** When a schedule runs next once a run started at `now`: norisk 30 days on, the others by their cadence. */
export function followingRun(s: { type: string; every: Every; created_at: number }, now: number): number {
  return s.type === 'norisk' ? now + NORISK_PERIOD_MS : nextAfter(s.created_at, s.every, now);
}

/** ISO 8601 UTC to the second (`2026-11-30T12:00:00Z`): saGetScheduleList's `nextrun`. */
export const isoUtc = (ms: number) => `${new Date(ms).toISOString().slice(0, 19)}Z`;
