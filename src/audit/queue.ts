import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Clock } from '../clock.ts';
import type { Db } from '../store/db.ts';
import { AuditStore, type Lease } from './store.ts';

/** One audit to run: `owner` holds its lease (the result is written only while it does). */
export interface AuditJob {
  id: number;
  attempt: number;
  owner: string;
}

/** Runs one audit; throws only when aborted (the queue then hands it back). */
export type AuditHandler = (job: AuditJob, signal: AbortSignal) => Promise<void>;

/**
 * Where audits wait to run. The embedded store backs it with the `audits`
 * table itself (StoreQueue); a PostgreSQL store backs it with pg-boss
 * (BossQueue, queue-boss.ts). Either way the row in `audits` is the audit's
 * truth (state, lease, attempts, report), and a running audit is held by a
 * lease its process renews: docs/workers.md.
 */
export interface AuditQueue {
  /** Inside the transaction that writes a new audit: make it a job. */
  enqueue(trx: Db, id: number): Promise<void>;
  start(handler: AuditHandler): Promise<void>;
  /** A job was just written: look now instead of at the next poll. */
  wake(): void;
  /** Stops taking jobs, aborts the running ones and hands them back to the queue. */
  stop(): Promise<void>;
  /** Audits waiting and running in the whole store (every process), for the metrics. */
  depth(): Promise<{ queued: number; running: number }>;
}

export interface QueueOptions {
  /** Audits running at once in this process; 0: none (serve --audit-workers 0). */
  concurrency: number;
  /** Audits of one account running at once, across every process; the rest wait their turn. */
  perAccount: number;
  /** How long a running audit stays held without a renewal; renewed every third of it. */
  leaseMs?: number;
  /** A fallback poll; a write in this process wakes the queue at once. */
  pollMs?: number;
}

/**
 * 30 s: long enough that a busy database or a GC pause does not cost a
 * live worker its audit (it renews every 10 s), short enough that a killed
 * worker's audit is running again within the minute. It compares the
 * clocks of the machines involved: they must agree to a few seconds (NTP).
 */
export const DEFAULT_LEASE_MS = 30_000;

/** `host/pid/random`: the holder of a lease, readable by an operator. */
export function leaseOwner(): string {
  return `${hostname()}/${process.pid}/${randomUUID().slice(0, 8)}`;
}

/** Queues open in this process (tests run several apps in one process). */
const liveHere = new Set<string>();

/**
 * A lease holder on this machine whose process (or queue, in this process) is gone: its lease need not run
 * out first.
 */
export function deadHereOwner(self: string): (owner: string) => boolean {
  const [host] = self.split('/');
  return (owner) => {
    const [h, p] = owner.split('/');
    const pid = Number(p);
    if (h !== host || !Number.isInteger(pid)) return false;
    if (pid === process.pid) return !liveHere.has(owner);
    try {
      process.kill(pid, 0);
      return false;
    } catch (err) {
      // EPERM: a live process of another user; only ESRCH says it is gone.
      return (err as NodeJS.ErrnoException).code === 'ESRCH';
    }
  };
}

/**
 * What both queues share: the running audits of this process, each with a
 * lease renewed every third of its length; a renewal that fails (another
 * process took the audit over) aborts the run; an abort by stop() hands
 * the audit back; a periodic sweep puts back audits whose holder died.
 */
export abstract class LeasedQueue implements AuditQueue {
  protected readonly owner = leaseOwner();
  protected readonly store: AuditStore;
  protected readonly leaseMs: number;
  private readonly running = new Map<number, { abort: AbortController; done: Promise<void> }>();
  protected handler: AuditHandler | null = null;
  private timers: NodeJS.Timeout[] = [];
  private filling = false;
  private again = false;
  protected stopped = false;

  constructor(
    protected readonly db: Db,
    protected readonly clock: Clock,
    protected readonly options: QueueOptions,
  ) {
    this.store = new AuditStore(db);
    this.leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  }

  abstract enqueue(trx: Db, id: number): Promise<void>;
  /** Takes the next audit this process may run, or null. */
  protected abstract claimNext(): Promise<AuditJob | null>;
  /** Runs inside the transaction that hands an audit back or puts back an abandoned one. */
  protected abstract requeued(trx: Db, id: number): Promise<void>;
  /** Holders known dead before their lease runs out. */
  protected dead(_owner: string): boolean {
    return false;
  }

  protected lease(): Lease {
    return { owner: this.owner, until: this.clock.now() + this.leaseMs };
  }

  async start(handler: AuditHandler): Promise<void> {
    this.handler = handler;
    liveHere.add(this.owner);
    await this.sweep();
    const every = (ms: number, f: () => void) => {
      const t = setInterval(f, ms);
      t.unref();
      this.timers.push(t);
    };
    every(this.options.pollMs ?? 2000, () => this.wake());
    // Half a lease: an abandoned audit waits at most a lease and a half.
    every(
      Math.max(500, this.leaseMs / 2),
      () =>
        void this.sweep().then(
          () => this.wake(),
          () => {},
        ),
    );
    this.wake();
  }

  private async sweep(): Promise<void> {
    const back = await this.store.requeueAbandoned(
      this.clock.now(),
      this.owner,
      (o) => this.dead(o),
      (trx, id) => this.requeued(trx, id),
    );
    if (back.length) this.onRequeued?.(back);
  }

  /** Audits put back because their holder died (for the log). */
  onRequeued: ((ids: number[]) => void) | null = null;

  wake(): void {
    if (this.stopped || !this.handler || this.options.concurrency === 0) return;
    if (this.filling) {
      this.again = true;
      return;
    }
    this.filling = true;
    void this.fill().finally(() => {
      this.filling = false;
      if (this.again) {
        this.again = false;
        this.wake();
      }
    });
  }

  private async fill(): Promise<void> {
    while (!this.stopped && this.running.size < this.options.concurrency) {
      const job = await this.claimNext().catch(() => null);
      if (!job) return;
      this.launch(job);
    }
  }

  private launch(job: AuditJob): void {
    const abort = new AbortController();
    let lost = false;
    const renew = setInterval(
      () => {
        void this.store.renew(job.id, this.lease()).then(
          (held) => {
            if (held || abort.signal.aborted) return;
            lost = true;
            abort.abort(new Error('lease lost'));
          },
          // The database did not answer: keep running; the next renewal may get through before the lease runs out.
          () => {},
        );
      },
      Math.max(200, this.leaseMs / 3),
    );
    renew.unref();
    const done = this.handler!(job, abort.signal)
      .catch(async () => {
        // Aborted by stop(): not the audit's fault, so the attempt is not counted.
        if (!lost) await this.store.handBack(job.id, job.owner, (trx) => this.requeued(trx, job.id)).catch(() => {});
      })
      .finally(() => {
        clearInterval(renew);
        this.running.delete(job.id);
        this.wake();
      });
    this.running.set(job.id, { abort, done });
  }

  depth(): Promise<{ queued: number; running: number }> {
    return this.store.depth();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const t of this.timers) clearInterval(t);
    for (const job of this.running.values()) job.abort.abort();
    await Promise.all([...this.running.values()].map((j) => j.done));
    liveHere.delete(this.owner);
  }
}

/**
 * The embedded store's queue: the `audits` rows are the jobs (queued ->
 * running -> done | failed), claimed oldest first among accounts under
 * their limit. Several processes may share the SQLite file (serve
 * --audit-workers 0 and a `worker` on the same data directory); SQLite has
 * one writer at a time, so a claim's read and write cannot interleave with
 * another's. On one machine a holder's death is seen at once (its pid is
 * gone), not only when its lease runs out.
 */
export class StoreQueue extends LeasedQueue {
  private readonly deadHere = deadHereOwner(this.owner);

  async enqueue(): Promise<void> {}

  protected async requeued(): Promise<void> {}

  protected override dead(owner: string): boolean {
    return this.deadHere(owner);
  }

  protected async claimNext(): Promise<AuditJob | null> {
    const job = await this.store.claimNext(this.lease(), this.options.perAccount, this.clock.now());
    return job && { ...job, owner: this.owner };
  }
}
