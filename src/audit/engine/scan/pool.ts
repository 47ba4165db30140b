/**
 * Scan worker threads (worker.ts), kept between scans: starting one costs
 * 30-50 ms built and 190-290 ms from source under tsx (measured on the
 * 2-core VM, loaded), more than a loopback scan's share of a second. An
 * idle worker is unref'd, so it never keeps the process alive.
 */
import { Worker } from 'node:worker_threads';
import type { HostTally } from './engine.ts';
import type { ScanJob } from './job.ts';

const idle: Worker[] = [];
const KEEP = 8;

/**
 * The worker module. Built, it is worker.js beside this file; run from
 * source (tsx), the thread registers tsx's loader first, since Node 20
 * does not hand the main thread's module hooks on to a worker.
 */
function start(): Worker {
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL('./worker.js', import.meta.url));
  const url = new URL('./worker.ts', import.meta.url).href;
  const boot = `import('tsx/esm/api').then((m) => { m.register(); return import(${JSON.stringify(url)}); })`;
  return new Worker(boot, { eval: true });
}

/** Runs `job` on a worker thread; `stop[0] = 1` asks it to stop early. */
export function runInWorker(job: ScanJob, stop: Int32Array, onHost: (i: number, t: HostTally) => void): Promise<void> {
  const w = idle.pop() ?? start();
  w.ref();
  return new Promise<void>((resolve, reject) => {
    let healthy = true;
    const end = (err?: Error) => {
      w.off('message', onMessage);
      w.off('error', onError);
      w.off('exit', onExit);
      w.unref();
      if (healthy && idle.length < KEEP) idle.push(w);
      else void w.terminate();
      if (err) reject(err);
      else resolve();
    };
    const onMessage = (m: { kind: string; i: number; tally: HostTally; message: string }) => {
      if (m.kind === 'host') onHost(m.i, m.tally);
      else if (m.kind === 'done') end();
      else {
        healthy = false;
        end(new Error(m.message));
      }
    };
    const onError = (e: Error) => {
      healthy = false;
      end(e);
    };
    const onExit = () => {
      healthy = false;
      end(new Error('scan worker exited'));
    };
    w.on('message', onMessage);
    w.once('error', onError);
    w.once('exit', onExit);
    w.postMessage({ job, stop });
  });
}
