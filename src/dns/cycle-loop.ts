import type { Logger } from 'pino';
import type { Clock } from '../clock.ts';
import type { Db } from '../store/db.ts';
import { type CycleResult, distributionCycle, servedGeneration } from './distribute.ts';
import { readableTime } from './subscription.ts';

/** What a script needs to say when a change goes live (publish reply, domain list). */
export interface DistributionSchedule {
  /** Epoch ms of this server's next distribution cycle. */
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
  /** Loads the serving set again (name-server workers too) and sends NOTIFY for what changed. */
  apply(): Promise<void>;
  onCycle?(facts: CycleFacts): void;
}

/**
 * The distribution cycle on a timer, and the poll that keeps this
 * process's serving set in step with the store.
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
  /** When the cycle timer last fired (or started): the schedule counts from here. */
  private anchor: number;
  private timers: NodeJS.Timeout[] = [];
  /** Plain counters, read by the metrics collector. */
  readonly stats = { cycles: 0, failures: 0, pollReloads: 0 };

  constructor(private readonly o: CycleLoopOptions) {
    this.anchor = o.clock.now();
  }

  nextAt(): number {
    const { clock, intervalMs } = this.o;
    const passed = Math.max(0, clock.now() - this.anchor);
    return this.anchor + intervalMs * (Math.floor(passed / intervalMs) + 1);
  }

  /** First load (no NOTIFY: nothing changed for the secondaries), then the timers. */
  async start(load: () => Promise<unknown>): Promise<void> {
    // Read before the load: a change in between is applied again by the first poll, harmlessly.
    this.applied = await servedGeneration(this.o.db);
    await load();
    this.anchor = this.o.clock.now();
    const cycle = setInterval(() => {
      this.anchor = this.o.clock.now();
      this.cycling = this.cycle();
    }, this.o.intervalMs);
    const poll = setInterval(() => {
      void this.refresh(true);
    }, this.o.pollMs ?? 1000);
    poll.unref();
    this.timers = [cycle, poll];
  }

  /** One cycle by this server, logged, then applied. */
  async cycle(): Promise<void> {
    const started = performance.now();
    try {
      const r = await distributionCycle(this.o.db, this.o.clock);
      const ms = Math.round(performance.now() - started);
      const nextAt = this.nextAt();
      this.stats.cycles++;
      // Names only while the line stays short; the counts always.
      const names = r.distributed.length + r.removed.length <= 20 ? { distributed: r.distributed, removed: r.removed } : {};
      this.o.logger.info({ zones: r.distributed.length, removedZones: r.removed.length, ...names, ms, next: readableTime(nextAt) }, 'distribution cycle');
      this.o.onCycle?.({ ...r, ms, nextAt });
      await this.refresh(false);
    } catch (err) {
      this.stats.failures++;
      this.o.logger.error({ err }, 'distribution cycle failed');
    }
  }

  /** Applies the store's served state when it moved; `polled`: found by the poll, not after our own cycle. */
  refresh(polled = false): Promise<void> {
    this.refreshing = this.refreshing.then(async () => {
      const generation = await servedGeneration(this.o.db);
      if (generation === this.applied) return;
      await this.o.apply();
      this.applied = generation;
      if (polled) {
        this.stats.pollReloads++;
        this.o.logger.info({ next: readableTime(this.nextAt()) }, 'dns: serving set reloaded (changed in the store)');
      }
    }).catch((err) => this.o.logger.error({ err }, 'dns: serving set reload failed'));
    return this.refreshing;
  }

  async stop(): Promise<void> {
    this.timers.forEach(clearInterval);
    await this.cycling;
    await this.refreshing;
  }
}
