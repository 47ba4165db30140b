import { type JobRunner, type ThreadObserver, ThreadRunner } from './job-thread.ts';
import {
  type CheckReply,
  type CheckRequest,
  checkVersion,
  type PublishJob,
  runJob,
  type TextRequest,
} from './publish-jobs.ts';

/**
 * Where a publish's checks (publish-jobs.ts) run: on a worker thread, so
 * that dnsPublish.php on a large zone does not stall the API or the name
 * server's answers, which share the main thread (issue 32; measured by
 * bench/publish-stall.ts, docs/performance.md "Publish off the main
 * thread": a 100,000-record zone's checks held the main thread for
 * seconds). VIGIL_PUBLISH_INLINE=1 runs them all on the main thread, as
 * before, for that bench's comparison.
 *
 * A zone under THREAD_FROM records is checked on the main thread all the
 * same: its checks take a few milliseconds, and most zones are that
 * small, so most processes never start the thread.
 * One thread (job-thread.ts), started at the first large publish and kept,
 * unref'd between publishes; it keeps nothing from one job to the next.
 * Publishes of different zones may overlap: the thread takes their jobs
 * in turn. Only strings cross: the records' JSON in; the findings and the
 * version's JSON out (or, for dnsBuildZone.php, its zone text).
 */
export interface PublishRunner {
  check(m: CheckRequest): Promise<CheckReply>;
  text(m: Omit<TextRequest, 'op'>): Promise<string>;
  close(): Promise<void>;
}

/**
 * 1,000 records: the checks of a zone that size take about 4 ms on the
 * main thread once warm (4.2 µs a record: checkVersion in a loop on a
 * 10,000-record zone, 2026-11-27, load average 12), under one slice of a
 * sliced reload (src/dns/server/slices.ts, 8 ms).
 */
export const THREAD_FROM = 1000;

/** What the service tells the runner: who hears of its jobs (the metrics), and the tests' fault hook. */
export interface PublishRunnerOptions {
  observer?: ThreadObserver;
  /**
   * Tests only (config threadFaultZones): this zone's jobs throw on the thread, and every job goes to the
   * thread whatever its zone's size, so that a test's small zones exercise it.
   */
  faultZone?: string | null;
}

export function publishRunner(o: PublishRunnerOptions = {}): PublishRunner {
  const inline = process.env.VIGIL_PUBLISH_INLINE === '1';
  const faultZone = o.faultZone ?? null;
  // The checks throw no typed error (no `typed`): what does is a fault (workerThreadFailed), answered by the
  // script with its system error, unspecifiedError, the only one the spec has for it.
  const thread: JobRunner<PublishJob, CheckReply | string> = new ThreadRunner({
    name: 'publish',
    module: 'publish-worker',
    observer: o.observer,
  });
  const here = (m: PublishJob) => faultZone === null && (inline || m.count < THREAD_FROM);
  const there = (m: PublishJob) => thread.run(m, m.zone === faultZone);
  return {
    check: (m) => (here(m) ? checkVersion(m) : (there(m) as Promise<CheckReply>)),
    text: async (m) => {
      const job: TextRequest = { op: 'text', ...m };
      return here(job) ? (runJob(job) as string) : ((await there(job)) as string);
    },
    close: () => thread.close(),
  };
}
