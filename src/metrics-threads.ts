import { Counter, Histogram, type Registry } from 'prom-client';
import type { JobResult, ThreadName, ThreadObserver } from './dns/job-thread.ts';
import { FAULT_CODES } from './errors.ts';

const THREADS: readonly ThreadName[] = ['publish', 'sign'];
const RESULTS: readonly JobResult[] = ['ok', 'typedError', ...FAULT_CODES];

/**
 * The worker threads' series (src/dns/job-thread.ts; docs/operations.md,
 * "Worker threads"): jobs by thread and result, their time, and the
 * threads started. A fault's result is its typed code (src/errors.ts
 * FAULT_CODES): the API answers the spec's `unspecifiedError` for it, so
 * this and the log line are where the cause shows.
 */
export class ThreadMetrics implements ThreadObserver {
  private readonly jobs: Counter;
  private readonly seconds: Histogram;
  private readonly starts: Counter;

  constructor(registry: Registry) {
    this.jobs = new Counter({
      name: 'vigil_worker_thread_jobs_total',
      help: 'jobs run on the publish and signing threads, by result: ok, typedError (the job answered a typed error), or the fault code',
      labelNames: ['thread', 'result'],
      registers: [registry],
    });
    this.seconds = new Histogram({
      name: 'vigil_worker_thread_job_duration_seconds',
      help: 'time from a job sent to its thread to its answer (the wait behind other jobs included), by thread',
      labelNames: ['thread'],
      // A small zone's checks take milliseconds; a 100,000-record zone's signing, tens of seconds (docs/performance.md).
      buckets: [0.001, 0.005, 0.025, 0.1, 0.5, 2, 10, 30, 120],
      registers: [registry],
    });
    this.starts = new Counter({
      name: 'vigil_worker_thread_starts_total',
      help: 'worker threads started: the first job of each, and each one in place of a thread that failed or died',
      labelNames: ['thread'],
      registers: [registry],
    });
    // Every series from the start at 0, so that rate() and alerts on a fault see its first increase.
    for (const thread of THREADS) {
      this.starts.inc({ thread }, 0);
      for (const result of RESULTS) this.jobs.inc({ thread, result }, 0);
    }
  }

  started(thread: ThreadName): void {
    this.starts.inc({ thread });
  }

  ended(thread: ThreadName, result: JobResult, seconds: number): void {
    this.jobs.inc({ thread, result });
    this.seconds.observe({ thread }, seconds);
  }
}
