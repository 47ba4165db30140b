import type { AccountRow } from '../accounts/accounts.ts';
import type { Clock } from '../clock.ts';
import { fail, reportLoadFailure } from '../errors.ts';
import type { Db } from '../store/db.ts';
import { AuditStore } from './store.ts';
import type { AuditProgress } from './progress.ts';
import type { ScanInfo } from './report.ts';
import { recounted } from './report-count.ts';
import {
  type AuditLimits,
  type CheckedRequest,
  checkRequest,
  NO_LIMITS,
  queuedProgress,
  type RunFields,
} from './request.ts';

export type { AuditRow } from './store.ts';
export type { RunFields } from './request.ts';

export interface QueuedAudit {
  scanuid: number;
  type: string;
  /** The target as asked (address, CIDR or range pattern). */
  hostip: string;
  /** Addresses it expands to. */
  targets: number;
}

/** One saGetAuditList `scans` entry. */
export interface ListedAudit {
  scanuid: string;
  folder: string;
  hostip: string;
  time_end: string;
  time_queued: string;
  time_start: string;
  type: string;
  progress?: AuditProgress;
  /** Extension: a failed audit's reason, a code (`failed: notEntitled`): docs/audits.md. */
  statusText?: string;
  /** Extension: the schedule whose run it is (saGetScheduleList's `scheduleid`). */
  scheduleid?: string;
}

/**
 * What the list shows. A queued audit shows its totals and nothing done,
 * whatever a run handed back or cut off left in the row (it starts over);
 * a running audit the latest progress its runner wrote, `scanning` at
 * nothing done until the first write. Rows from before migration 008 have
 * none: zeros.
 */
function listedProgress(state: 'queued' | 'running', stored: string | null): AuditProgress {
  const p: Partial<AuditProgress> = stored ? JSON.parse(stored) : {};
  const totals = { portsTotal: p.portsTotal ?? 0, checksTotal: p.checksTotal ?? 0 };
  if (state === 'queued' || p.phase === 'queued') {
    return state === 'queued'
      ? { phase: 'queued', portsScanned: 0, checksDone: 0, ...totals }
      : { phase: 'scanning', portsScanned: 0, checksDone: 0, ...totals };
  }
  return { phase: p.phase ?? 'scanning', portsScanned: p.portsScanned ?? 0, checksDone: p.checksDone ?? 0, ...totals };
}

/** An audit row of a checked request, queued at `now` (a scheduled run adds its schedule). */
export function newAudit(accountId: number, r: CheckedRequest, now: number, scheduleId: number | null = null) {
  return {
    account_id: accountId,
    type: r.type,
    hostip: r.hostip,
    excludedos: r.excludedos ? 1 : 0,
    notification: r.notification ? 1 : 0,
    queued_at: now,
    progress: JSON.stringify(queuedProgress(r)),
    ports: r.portsText,
    schedule_id: scheduleId,
  };
}

/** Spec 8: one norisk audit per address per month; we read a month as 30 days. */
export const NORISK_WINDOW_MS = 30 * 86_400_000;

/** List times: UTC `YYYY-MM-DD HH:MM:SS`, empty until reached (ARCHITECTURE.md). */
export const listTime = (ms: number | null) =>
  ms === null ? '' : new Date(ms).toISOString().slice(0, 19).replace('T', ' ');

/**
 * Audits of an account: the request checks of saRunAudit (in the spec's
 * order of concern), the list and the report. Running them is the queue's
 * business; this only writes the audit (through AuditStore, the owner of
 * its tables) and, in the same transaction, hands it to the queue.
 */
export class Audits {
  private readonly store: AuditStore;

  /** `enqueue` runs inside the transaction that writes the audit (the queue's job, if it keeps its own). */
  constructor(
    readonly db: Db,
    readonly clock: Clock,
    readonly scanAllow: readonly string[],
    private readonly wake: () => void,
    private readonly enqueue?: (trx: Db, id: number) => Promise<void>,
    readonly limits: AuditLimits = NO_LIMITS,
  ) {
    this.store = new AuditStore(db);
  }

  /** The request checks that need no store (request.ts), with this server's fence and port bound. */
  check(account: AccountRow, f: RunFields, clientAddress: string): CheckedRequest {
    return checkRequest(account, f, clientAddress, this.scanAllow, this.limits.maxPorts);
  }

  /** Queues the audit; returns what the caller logs (this class has no logger). */
  async run(account: AccountRow, f: RunFields, clientAddress: string): Promise<QueuedAudit> {
    const r = this.check(account, f, clientAddress);
    const now = this.clock.now();
    const id = await this.store.add(
      newAudit(account.id, r, now),
      r.addresses,
      // Whoever asked: the limit protects the address's owner, not the account.
      { noriskSince: r.type === 'norisk' ? now - NORISK_WINDOW_MS : null, queueLimit: this.limits.queued },
      this.enqueue,
    );
    if (id === 'norisk') fail('noriskAlreadyRun');
    if (id === 'queueFull') fail('auditQueueFull');
    this.wake();
    return { scanuid: id, type: r.type, hostip: r.hostip, targets: r.addresses.length };
  }

  /** Spec fields, all strings; queued and running audits add the `progress` extension field (progress.ts). */
  async list(account: AccountRow): Promise<{ scancount: number; scans?: ListedAudit[] }> {
    const rows = await this.store.listOf(account.id);
    const scans = rows.map((r): ListedAudit => {
      const listed: ListedAudit = {
        scanuid: String(r.id),
        folder: r.state,
        hostip: r.hostip,
        time_end: listTime(r.ended_at),
        time_queued: listTime(r.queued_at),
        time_start: listTime(r.started_at),
        type: r.type,
      };
      if (r.state === 'queued' || r.state === 'running') listed.progress = listedProgress(r.state, r.progress);
      if (r.state === 'failed') listed.statusText = `failed: ${r.reason ?? 'unknown'}`;
      if (r.schedule_id !== null) listed.scheduleid = String(r.schedule_id);
      return listed;
    });
    return scans.length ? { scancount: scans.length, scans } : { scancount: 0 };
  }

  /** The stored report; reportLoadFailure[<code>] codes are listed in docs/audits.md. */
  async report(account: AccountRow, scanuid: string | undefined): Promise<{ scaninfo: unknown }> {
    if (scanuid === undefined || scanuid === '') fail(reportLoadFailure('missingScanuid'));
    if (!/^[1-9]\d{0,15}$/.test(scanuid)) fail(reportLoadFailure('invalidScanuid'));
    const row = await this.store.reportOf(account.id, Number(scanuid));
    // Someone else's audit reads exactly like one that does not exist.
    if (!row) fail(reportLoadFailure('notFound'));
    if (row.report === null) fail(reportLoadFailure(row.state === 'queued' ? 'queued' : 'running'));
    // Counts by the one rule (report-count.ts), reports stored before issue 31 included.
    return { scaninfo: recounted(JSON.parse(row.report) as ScanInfo) };
  }
}
