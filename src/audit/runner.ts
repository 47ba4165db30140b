import type { Logger } from 'pino';
import type { Clock } from '../clock.ts';
import type { Db } from '../store/db.ts';
import { accountContact } from '../accounts/account-store.ts';
import { Fence } from './engine/fence.ts';
import { usualService } from './engine/ports.ts';
import { runAudit, type AuditResult } from './engine/run.ts';
import type { Mailer } from './mailer.ts';
import { completionMail } from './notify.ts';
import { type AuditCoverage, coverageOf, type Earlier } from './baseline.ts';
import { type AuditProgress, ProgressWriter } from './progress.ts';
import { buildReport, failedReport, type AuditFacts, type ScanInfo } from './report.ts';
import { type AuditRow, AuditStore } from './store.ts';
import type { AuditType } from './types.ts';
import type { AuditJob } from './queue.ts';
import { alertDecision } from './alert.ts';
import { withChanges } from './change-mail.ts';
import { storedPorts } from './port-list.ts';

export interface AuditEnded {
  type: string;
  state: 'done' | 'failed';
  seconds: number;
  /** Addresses that answered host discovery and those that did not (0 and 0 for a failed audit). */
  hostsUp: number;
  hostsDown: number;
}

interface LogFacts {
  scanuid: number;
  userid: string | null;
  type: string;
  hostip: string;
  targets: number;
}

/** A run cut off this many times (crash, kill) is failed rather than tried again. */
export const MAX_ATTEMPTS = 3;

export type Engine = typeof runAudit;

/** An earlier audit's coverage and its findings by address (the resolved lists are not findings). */
function indexed(
  coverage: string | null,
  report: string | null,
): Omit<Earlier, 'found'> & { found: Map<string, Earlier['found']> } {
  const info = JSON.parse(report ?? '{}') as Partial<ScanInfo>;
  const found = new Map<string, Earlier['found']>();
  for (const group of Object.values(info.entries ?? {}))
    for (const e of Object.values(group ?? {})) {
      if (e.baseline === 'resolved') continue;
      const list = found.get(e.ip) ?? found.set(e.ip, []).get(e.ip)!;
      list.push({ id: e.id, port: Number(e.port) });
    }
  return {
    coverage: coverage ? (JSON.parse(coverage) as AuditCoverage) : null,
    scannedPorts: info.basic?.scanportstcp ?? '',
    found,
  };
}

/** Earlier audits of an address the baseline looks at, newest first. */
export const BASELINE_DEPTH = 20;

/**
 * Runs one queued audit to its end: fence from the addresses that passed
 * the request's permission check (and --scan-allow), engine, report,
 * state done | failed in one write, then the mail.
 */
export class AuditRunner {
  private readonly store: AuditStore;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly scanAllow: readonly string[],
    private readonly mailers: { primary: Mailer; outbox: Mailer },
    private readonly logger: Logger,
    private readonly engine: Engine = runAudit,
    /** --scan-discovery: host discovery before the port scan (off: as nmap -Pn). */
    private readonly discovery = true,
  ) {
    this.store = new AuditStore(db);
  }

  /** The engine's wait on a silent port (config.auditProbeTimeoutMs); undefined: the engine's own default. */
  probeTimeoutMs: number | undefined = undefined;

  /** CA certificates the audits trust besides Node's roots and the system's (config.auditCa, serve --audit-ca). */
  caCertificates: readonly string[] = [];

  /** Called as each audit ends (metrics); the runner itself does not know about them. */
  onEnded: ((e: AuditEnded) => void) | null = null;

  /** `job.owner` holds the audit's lease: the result is written only while it still does. */
  async run(job: AuditJob, signal: AbortSignal): Promise<void> {
    const audit = await this.store.get(job.id);
    const addresses = await this.store.addresses(job.id);
    const facts = await this.logFacts(audit, addresses);
    if (job.attempt > MAX_ATTEMPTS) return this.finish(audit, job.owner, addresses, null, 'interrupted', facts);
    this.logger.info({ ...facts, attempt: job.attempt }, 'audit started');
    let result: AuditResult;
    // Progress goes to the store: the list may be read by another process than the one running the audit.
    const progress = new ProgressWriter(this.clock, (p) =>
      this.store.setProgress(audit.id, job.owner, JSON.stringify(p)),
    );
    let last: AuditProgress | null = null;
    const tell = (p: AuditProgress) => progress.report((last = p));
    try {
      const ports = storedPorts(audit.ports);
      result = await this.engine(
        {
          type: audit.type as AuditType,
          excludedos: audit.excludedos === 1,
          addresses,
          discovery: this.discovery,
          ...(ports ? { ports } : {}),
        },
        new Fence(addresses, this.scanAllow),
        {
          signal,
          onProgress: tell,
          ...(this.probeTimeoutMs ? { probeTimeoutMs: this.probeTimeoutMs } : {}),
          ...(this.caCertificates.length ? { caCertificates: this.caCertificates } : {}),
        },
      );
      if (last) tell({ ...(last as AuditProgress), phase: 'reporting' });
      await progress.flush();
    } catch (err) {
      await progress.flush();
      if (signal.aborted) {
        // Shutdown: the queue puts the audit back and a later start runs it again.
        this.logger.info({ ...facts, attempt: job.attempt }, 'audit interrupted');
        throw err;
      }
      this.logger.error({ err, scanuid: job.id }, 'audit engine failed');
      return this.finish(audit, job.owner, addresses, null, 'engineError', facts);
    }
    await this.finish(audit, job.owner, addresses, result, null, facts);
  }

  /** The facts every audit line carries; userid, not the internal account id, is what an operator knows. */
  private async logFacts(audit: AuditRow, addresses: string[]): Promise<LogFacts> {
    const account = await accountContact(this.db, audit.account_id);
    return {
      scanuid: audit.id,
      userid: account?.userid ?? null,
      type: audit.type,
      hostip: audit.hostip,
      targets: addresses.length,
    };
  }

  private async finish(
    audit: AuditRow,
    owner: string,
    addresses: string[],
    result: AuditResult | null,
    reason: string | null,
    log: LogFacts,
  ): Promise<void> {
    const facts: AuditFacts = {
      scanuid: audit.id,
      type: audit.type,
      hostip: audit.hostip,
      excludedos: audit.excludedos === 1,
      notification: audit.notification === 1,
      queuedAt: audit.queued_at,
      startedAt: audit.started_at,
      endedAt: this.clock.now(),
    };
    const report = result
      ? buildReport(facts, result, await this.earlier(audit, addresses), usualService)
      : failedReport(facts, reason!);
    const coverage = result ? JSON.stringify(coverageOf(result)) : null;
    const written = await this.store.finish(audit.id, owner, {
      state: result ? 'done' : 'failed',
      reason,
      ended_at: facts.endedAt,
      report: JSON.stringify(report),
      coverage,
    });
    if (!written) {
      // Another worker took the audit over (this one stopped renewing its lease in time): its run's result counts.
      this.logger.warn({ ...log, attempt: audit.attempts }, 'audit result dropped: lease lost');
      return;
    }
    // From the first start: a run put back at shutdown and resumed counts as one audit.
    const ms = facts.endedAt - (facts.startedAt ?? facts.endedAt);
    if (result) this.logger.info({ ...log, state: 'done', risk: report.risk, ms }, 'audit finished');
    else this.logger.warn({ ...log, state: 'failed', reason, ms }, 'audit failed');
    this.onEnded?.({
      type: audit.type,
      state: result ? 'done' : 'failed',
      seconds: ms / 1000,
      hostsUp: report.basic.hostsUp ?? 0,
      hostsDown: report.basic.hostsDown ?? 0,
    });
    if (audit.notification === 1) await this.notify(audit, report, addresses);
  }

  /**
   * The account's earlier finished audits of each address, newest first,
   * as the baseline compares them (baseline.ts). BASELINE_DEPTH bounds the
   * look back: a finding is compared with the latest of those audits that
   * checked for it.
   */
  private async earlier(audit: AuditRow, addresses: string[]): Promise<Map<string, Earlier[]>> {
    const out = new Map<string, Earlier[]>();
    // One audit of many addresses is read and indexed once, not once per address.
    const parsed = new Map<number, Omit<Earlier, 'found'> & { found: Map<string, Earlier['found']> }>();
    for (const address of addresses) {
      const rows = await this.store.earlier(audit.account_id, address, audit.id, BASELINE_DEPTH);
      const list: Earlier[] = [];
      for (const row of rows) {
        let p = parsed.get(row.id);
        if (!p) parsed.set(row.id, (p = indexed(row.coverage, await this.store.storedReport(row.id))));
        list.push({ coverage: p.coverage, scannedPorts: p.scannedPorts, found: p.found.get(address) ?? [] });
      }
      out.set(address, list);
    }
    return out;
  }

  /**
   * Sends the completion mail; if the SMTP server refuses it, the outbox
   * keeps it. A scheduled run's mail names what changed since the
   * schedule's previous run first, and with alert=changes is held back
   * when nothing did (alert.ts).
   */
  async notify(audit: AuditRow, report: ScanInfo, addresses: string[]): Promise<void> {
    const account = await accountContact(this.db, audit.account_id);
    if (!account) return;
    const alert = await alertDecision(this.db, audit, report);
    if (!alert.send) {
      this.logger.info(
        { scanuid: audit.id, schedule: alert.schedule, previous: alert.previous },
        'scheduled audit mail held: nothing changed since the previous run',
      );
      return this.store.markNotified(audit.id, this.clock.now(), 'held');
    }
    // No address on file: the outbox keeps the notice for the operator.
    let mail = completionMail(account.email ?? `${account.userid}@invalid`, report, addresses);
    if (alert.schedule !== null && alert.comparison) mail = withChanges(mail, alert.schedule, alert.comparison);
    const first = account.email ? this.mailers.primary : this.mailers.outbox;
    try {
      await first.send(mail);
    } catch (err) {
      this.logger.warn({ err, scanuid: audit.id }, 'audit mail not accepted; kept in the outbox');
      await this.mailers.outbox.send(mail);
    }
    await this.store.markNotified(audit.id, this.clock.now(), alert.schedule !== null ? 'sent' : null);
  }

  /** The mail of an audit that ended without running (a scheduled run refused at its start: schedule-run.ts). */
  async notifyEnded(id: number): Promise<void> {
    const audit = await this.store.get(id);
    if (audit.notification !== 1 || audit.report === null) return;
    await this.notify(audit, JSON.parse(audit.report) as ScanInfo, await this.store.addresses(id));
  }

  /** Mail of audits that ended while the process died before sending it. */
  async resendPending(): Promise<void> {
    const rows = await this.store.unnotified();
    for (const row of rows) {
      await this.notify(row, JSON.parse(row.report!) as ScanInfo, await this.store.addresses(row.id)).catch((err) =>
        this.logger.error({ err, scanuid: row.id }, 'audit mail failed'),
      );
    }
  }
}
