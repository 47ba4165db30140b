/**
 * A scan worker thread (pool.ts starts it and keeps it): runs one job at a
 * time on the native addon, whose poll blocks this thread, not the main
 * one. It reports each host as it finishes and stops early when the main
 * thread sets `stop[0]`.
 */
import { parentPort } from 'node:worker_threads';
import type { ScanJob } from './job.ts';
import { runJob } from './job.ts';
import { nativeAvailable, nativeIo, socketIo } from './probes.ts';

parentPort!.on('message', ({ job, stop }: { job: ScanJob; stop: Int32Array }) => {
  // The main thread checked every address against the fence; this thread
  // scans exactly those and nothing else.
  const allowed = new Set(job.hosts.map((h) => h.address));
  const io = nativeAvailable()
    ? nativeIo(job.options.budget, job.syn)
    : socketIo((a) => {
        if (!allowed.has(a)) throw new Error(`address ${a} was not handed to this worker`);
      });
  runJob(job, io, {
    blocking: true,
    stopped: () => Atomics.load(stop, 0) === 1,
    onHost: (i, tally) => parentPort!.postMessage({ kind: 'host', i, tally }),
  }).then(
    () => parentPort!.postMessage({ kind: 'done' }),
    (e) => parentPort!.postMessage({ kind: 'error', message: String(e) }),
  );
});
