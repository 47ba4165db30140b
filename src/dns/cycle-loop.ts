import type { Logger } from 'pino';
import type { Clock } from '../clock.ts';
import type { Db } from '../store/db.ts';
import { type CycleResult, distributionCycle, servedGeneration } from './distribute.ts';
import type { ZoneSigner } from './sign-pass.ts';
import { readableTime } from './subscription.ts';
import { claimCycle, readSchedule, type Schedule } from '../store/cycle-schedule.ts';

/** What a script needs to say when a change goes live (publish reply, domain list). */
export interface DistributionSchedule {
  /** Epoch ms of the next distribution cycle of the set of `serve` processes on this store. */
  nextAt(): number;
}

/** Facts of one cycle run by this server, for metrics. */
export interface CycleFacts extends CycleResult {
  ms: number;
  nextAt: number;
}

export interface CycleLoopOptions {
  db: Db;
  clock: Clock;
  intervalMs: number;
  /** How often the store is asked whether what it serves changed elsewhere. */
  pollMs?: number;
  logger: Logger;
  /** Signs the zones that sign (DNSSEC) at each cycle. */
  signer?: ZoneSigner;
  /** Loads the serving set again (name-server workers too) and sends NOTIFY for what changed. */
  apply(): Promise<void>;
  onCycle?(facts: CycleFacts): void;
}

/**
 * The distribution cycle on a timer, and the poll that keeps this
 * process's serving set in step with the store.
 *
 * One cycle per interval for the whole set of `serve` processes sharing a
 * store (issue 13): the interval counts from the set's last cycle
 * (src/store/cycle-schedule.ts), every process arms its timer for that
 * moment, and the one whose claim moves the cycle number runs it; the
 * others find it moved, take the new time and arm again. The poll reads the
 * schedule too, so every process's "next cycle" (publish reply, domain
 * list, metrics) is the set's within a poll. Alone on its store (SQLite, the
 * embedded default) a process always wins its claim: one cycle per interval,
 * as before. A process that claims and then dies loses that interval's
 * cycle; what waited goes out with the next one, one interval later.
 *
 * Every change of what is served goes through `refresh`: it reads the
 * store's served generation (distribute.ts) and applies it only when it
 * moved since the last one applied, one refresh at a time. So this
 * server's own cycle, a slave transfer, `admin distribute` (another
 * process) and the cycles of other `serve` processes sharing one store all
 * reach the name server the same way, each change once: the poll after our
 * own cycle finds the generation already applied and does nothing. Several
 * `serve` processes on one store thus converge within a poll; each sends
 * NOTIFY for what it newly serves, and secondaries ignore a NOTIFY for a
 * serial they already hold. NOTIFY goes only for zones whose serial the
 * reload changed (ServingSet.replace), never twice for one version here.
 */
export class CycleLoop implements DistributionSchedule {
  private applied: string | null = null;
  private refreshing: Promise<void> = Promise.resolve();
  private cycling: Promise<unknown> = Promise.resolve();
  /** The set's schedule as this process last saw it; the interval counts from its lastAt. */
  private seen: Schedule;
  private timer: NodeJS.Timeout | null = null;
  private poller: NodeJS.Timeout | null = null;
  private stopped = false;
  /** Plain counters, read by the metrics collector. */
  readonly stats = { cycles: 0, failures: 0, pollReloads: 0 };

  constructor(private readonly o: CycleLoopOptions) {
    this.seen = { cycle: 0, lastAt: o.clock.now() };
  }

  /** The signer its cycles run (tests count its signings). */
  get signer(): ZoneSigner | undefined {
    return this.o.signer;
  }

  nextAt(): number {
    const { clock, intervalMs } = this.o;
    const anchor = this.seen.lastAt;
    const passed = Math.max(0, clock.now() - anchor);
    return anchor + intervalMs * (Math.floor(passed / intervalMs) + 1);
  }

  /** First load (no NOTIFY: nothing changed for the secondaries), then the timers. */
  async start(load: () => Promise<unknown>): Promise<void> {
    // Read before the load: a change in between is applied again by the first poll, harmlessly.
    this.applied = await servedGeneration(this.o.db);
    await load();
    this.seen = await readSchedule(this.o.db, this.o.clock.now());
    this.arm();
    this.poller = setInterval(() => {
      void this.refresh(true);
      void this.follow();
    }, this.o.pollMs ?? 1000);
    this.poller.unref();
  }

  /**
   * The timer for the set's next cycle, never further than one interval
   * (a clock moved back, or a last_at written by a clock ahead of ours) and
   * at once when it is overdue (every process was down at the time).
   */
  private arm(delayMs?: number): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    const { intervalMs, clock } = this.o;
    const delay = delayMs ?? Math.min(intervalMs, Math.max(0, this.seen.lastAt + intervalMs - clock.now()));
    this.timer = setTimeout(() => {
      this.cycling = this.fire();
    }, delay);
  }

  /** The timer fired: claim the set's next cycle and run it, or follow whoever did. */
  private async fire(): Promise<void> {
    try {
      const claimed = await claimCycle(this.o.db, this.seen, this.o.clock.now());
      if (claimed) {
        this.seen = claimed;
        this.arm();
        await this.cycle();
      } else {
        this.seen = await readSchedule(this.o.db, this.o.clock.now());
        this.arm();
      }
    } catch (err) {
      // The store is unreachable: try again one interval on, not in a tight loop.
      this.stats.failures++;
      this.o.logger.error({ err }, 'distribution cycle failed');
      this.arm(this.o.intervalMs);
    }
  }

  /** The poll's look at the schedule: another process's cycle moves our timer and our "next cycle". */
  private async follow(): Promise<void> {
    try {
      const now = await readSchedule(this.o.db, this.o.clock.now());
      if (now.cycle <= this.seen.cycle) return;
      this.seen = now;
      this.arm();
    } catch {
      // The refresh beside it logs the store's failure once per poll already.
    }
  }

  /** One cycle by this server, logged, then applied. */
  async cycle(): Promise<void> {
    const started = performance.now();
    try {
      const r = await distributionCycle(this.o.db, this.o.clock, this.o.signer);
      const ms = Math.round(performance.now() - started);
      const nextAt = this.nextAt();
      this.stats.cycles++;
      // Names only while the line stays short; the counts always.
      const names =
        r.distributed.length + r.removed.length <= 20 ? { distributed: r.distributed, removed: r.removed } : {};
      // A cycle that served, removed and signed nothing is the common case (every 5 minutes, all day): at info
      // it buried the lines that matter (issue 29). It stays at debug, where tests count the set's cycles.
      const changed = r.distributed.length + r.removed.length + r.signed.length > 0;
      this.o.logger[changed ? 'info' : 'debug'](
        {
          cycle: this.seen.cycle,
          zones: r.distributed.length,
          removedZones: r.removed.length,
          signedZones: r.signed.length,
          ...names,
          ms,
          next: readableTime(nextAt),
        },
        'distribution cycle',
      );
      this.o.onCycle?.({ ...r, ms, nextAt });
      await this.refresh(false);
    } catch (err) {
      this.stats.failures++;
      this.o.logger.error({ err }, 'distribution cycle failed');
    }
  }

  /** Applies the store's served state when it moved; `polled`: found by the poll, not after our own cycle. */
  refresh(polled = false): Promise<void> {
    this.refreshing = this.refreshing
      .then(async () => {
        const generation = await servedGeneration(this.o.db);
        if (generation === this.applied) return;
        await this.o.apply();
        this.applied = generation;
        if (polled) {
          this.stats.pollReloads++;
          this.o.logger.info({ next: readableTime(this.nextAt()) }, 'dns: serving set reloaded (changed in the store)');
        }
      })
      .catch((err) => this.o.logger.error({ err }, 'dns: serving set reload failed'));
    return this.refreshing;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.poller) clearInterval(this.poller);
    await this.cycling;
    await this.refreshing;
    await this.o.signer?.close();
  }
}
