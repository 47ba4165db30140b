import type { Clock } from '../clock.ts';

/**
 * How far a queued or running audit has come: the `progress` extension
 * field of each saGetAuditList `scans` entry (docs/audits.md). Counts are
 * over every address of the audit: `portsTotal` is the ports scanned per
 * address times the addresses, `checksTotal` the checks run per address
 * times the addresses.
 */
export interface AuditProgress {
  phase: 'queued' | 'scanning' | 'detecting' | 'checking' | 'reporting';
  portsScanned: number;
  portsTotal: number;
  checksDone: number;
  checksTotal: number;
}

/** Progress writes at most this often, besides one at every phase change. */
export const PROGRESS_INTERVAL_MS = 1000;

/**
 * Keeps the latest progress and hands it to `write` at most once per
 * PROGRESS_INTERVAL_MS of the injected clock, and at once on a phase
 * change (a phase is what a reader waits for; counts may lag a second).
 * Writes never overlap: one still in flight makes the next one wait and
 * carry the newest state, so a slow store sees fewer writes, not a queue.
 */
export class ProgressWriter {
  private lastAt = Number.NEGATIVE_INFINITY;
  private lastPhase: AuditProgress['phase'] | null = null;
  private pending: AuditProgress | null = null;
  private inFlight: Promise<void> | null = null;

  constructor(
    private readonly clock: Clock,
    private readonly write: (p: AuditProgress) => Promise<void>,
  ) {}

  report(p: AuditProgress): void {
    const now = this.clock.now();
    if (p.phase === this.lastPhase && now - this.lastAt < PROGRESS_INTERVAL_MS) {
      // Kept: the next write (interval or phase change) carries these counts.
      if (this.pending) this.pending = p;
      return;
    }
    this.lastAt = now;
    this.lastPhase = p.phase;
    this.pending = p;
    this.inFlight ??= this.drain();
  }

  /** Resolves once every accepted write has been made (or failed: progress is best effort). */
  async flush(): Promise<void> {
    while (this.inFlight) await this.inFlight;
  }

  private async drain(): Promise<void> {
    try {
      while (this.pending) {
        const p = this.pending;
        this.pending = null;
        await this.write(p).catch(() => undefined);
      }
    } finally {
      this.inFlight = null;
    }
  }
}
