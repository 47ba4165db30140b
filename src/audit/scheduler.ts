import type { Logger } from 'pino';
import { accountById } from '../accounts/account-store.ts';
import type { Clock } from '../clock.ts';
import { type ErrorCode, fail } from '../errors.ts';
import type { Db } from '../store/db.ts';
import { failedReport } from './report.ts';
import { type AuditLimits, type CheckedRequest, checkRequest, refusalCode, type RunFields } from './request.ts';
import { followingRun } from './schedule-time.ts';
import { type ScheduleRow, ScheduleStore } from './schedule-store.ts';
import { NORISK_WINDOW_MS, newAudit } from './service.ts';
import { AuditStore } from './store.ts';
import { expandTargets } from './targets.ts';

/**
 * How often each process looks for due schedules (VIGIL_SCHEDULE_POLL): an
 * indexed read of a small table, and the longest a run asked for by
 * `admin schedule run` waits, as the audit queue's own poll (queue.ts).
 */
export const DEFAULT_SCHEDULE_POLL_MS = 2000;

/** A run this process started: its audit, and the code that refused it, if one did. */
export interface StartedRun {
  schedule: number;
  scanuid: number;
  refused: ErrorCode | null;
}

export interface SchedulerDeps {
  db: Db;
  clock: Clock;
  scanAllow: readonly string[];
  limits: AuditLimits;
  /** The queue's job for a new audit, in the transaction that writes it (pg-boss on PostgreSQL). */
  enqueue: (trx: Db, id: number) => Promise<void>;
  wake: () => void;
  /** Mails a refused run's failed audit (when its notification is set). */
  notifyEnded: (id: number) => Promise<void>;
  logger: Logger;
  pollMs?: number;
}

/** A schedule's request, as saRunAudit would have received it (its `hostip` is never blank). */
function fieldsOf(s: ScheduleRow): RunFields {
  return {
    ipaddr: s.hostip,
    audittype: s.type,
    ...(s.excludedos ? { excludedos: '' } : {}),
    ...(s.notification ? { notification: 'OCMP' } : {}),
    ...(s.ports !== null ? { ports: s.ports } : {}),
  };
}

/**
 * Starts the runs of due schedules, in every `serve` and `worker` of a set
 * (docs/audits.md, "Schedules"). Each look claims a run with one
 * conditional write (schedule-store.ts), so of two processes that see a
 * schedule due at once exactly one starts it (test/schedule-once.test.ts).
 * A run is checked as saRunAudit checks a request, against the account as
 * it is now: entitlement, permitted addresses, ports, norisk, the queue
 * limit, the account enabled. A run refused is a failed audit whose reason
 * is the code, mailed when the schedule asks for mail: never a silent skip.
 * Time is the injected Clock's: tests move it instead of waiting a week.
 */
export class Scheduler {
  private readonly store: ScheduleStore;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> = Promise.resolve();
  private busy = false;
  private stopped = false;

  constructor(private readonly d: SchedulerDeps) {
    this.store = new ScheduleStore(d.db);
  }

  /** Called with each run this process started (the log says the same). */
  onRun: ((r: StartedRun) => void) | null = null;

  start(): void {
    this.timer = setInterval(() => void this.tick(), this.d.pollMs ?? DEFAULT_SCHEDULE_POLL_MS);
    this.timer.unref();
    void this.tick();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  /** One look: starts every due run this process wins. Overlapping looks are skipped, not queued. */
  async tick(): Promise<StartedRun[]> {
    if (this.busy || this.stopped) return [];
    this.busy = true;
    const look = this.look().catch((err) => {
      this.d.logger.warn({ err }, 'schedules: look for due runs failed; tried again at the next poll');
      return [];
    });
    this.running = look;
    try {
      return await look;
    } finally {
      this.busy = false;
    }
  }

  private async look(): Promise<StartedRun[]> {
    const started: StartedRun[] = [];
    for (const s of await this.store.due(this.d.clock.now())) {
      if (this.stopped) break;
      const how = s.next_run_at <= this.d.clock.now() ? 'due' : 'requested';
      const run = await this.fire(s, how);
      if (!run) continue;
      started.push(run);
      this.onRun?.(run);
      if (run.refused) {
        this.d.logger.warn(run, 'scheduled audit refused');
        await this.d.notifyEnded(run.scanuid).catch((err) => this.d.logger.error({ err, ...run }, 'audit mail failed'));
      } else this.d.logger.info(run, 'scheduled audit queued');
    }
    if (started.some((r) => !r.refused)) this.d.wake();
    return started;
  }

  /** Claims and starts one run in one transaction; null when another process claimed it first. */
  private fire(s: ScheduleRow, how: 'due' | 'requested'): Promise<StartedRun | null> {
    const now = this.d.clock.now();
    // An asked-for run leaves the cadence as it was; a due one moves it past now (missed runs are not made up).
    const next = how === 'due' ? followingRun(s, now) : s.next_run_at;
    return this.d.db.transaction().execute(async (trx) => {
      const schedules = new ScheduleStore(trx);
      if (!(await schedules.claim(trx, s, how, next))) return null;
      const audits = new AuditStore(trx);
      const account = await accountById(trx, s.account_id);
      if (!account) return null; // deleted with its schedules a moment ago
      let request: CheckedRequest | null = null;
      let refused: ErrorCode | null = null;
      try {
        // What a disabled account's token answers (src/accounts/sessions.ts): its schedules stop with it.
        if (account.enabled !== 1) fail('sessionAuthenticationFailure');
        request = checkRequest(account, fieldsOf(s), s.hostip, this.d.scanAllow, this.d.limits.maxPorts);
      } catch (err) {
        refused = refusalCode(err);
        if (!refused) throw err;
      }
      if (request) {
        const id = await audits.insert(
          trx,
          newAudit(account.id, request, now, s.id),
          request.addresses,
          {
            noriskSince: request.type === 'norisk' ? now - NORISK_WINDOW_MS : null,
            queueLimit: this.d.limits.queued,
          },
          this.d.enqueue,
        );
        if (typeof id === 'number') {
          await schedules.setLastAudit(trx, s.id, id);
          return { schedule: s.id, scanuid: id, refused: null };
        }
        refused = id === 'norisk' ? 'noriskAlreadyRun' : 'auditQueueFull';
      }
      const code = refused!;
      const addresses = request?.addresses ?? addressesOf(s.hostip);
      const row = {
        account_id: account.id,
        type: s.type,
        hostip: s.hostip,
        excludedos: s.excludedos,
        notification: s.notification,
        queued_at: now,
        ports: s.ports,
        schedule_id: s.id,
      };
      const id = await audits.insertRefused(trx, row, addresses, code, (scanuid) =>
        JSON.stringify(
          failedReport(
            {
              scanuid,
              type: s.type,
              hostip: s.hostip,
              excludedos: s.excludedos === 1,
              notification: s.notification === 1,
              queuedAt: now,
              startedAt: null,
              endedAt: now,
            },
            code,
          ),
        ),
      );
      await schedules.setLastAudit(trx, s.id, id);
      return { schedule: s.id, scanuid: id, refused: code };
    });
  }
}

/** The addresses of a refused run, for its mail; none when they no longer parse (nothing was scanned anyway). */
function addressesOf(hostip: string): string[] {
  try {
    return expandTargets(hostip, hostip).addresses;
  } catch {
    return [];
  }
}
