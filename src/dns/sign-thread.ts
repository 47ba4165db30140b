import { Worker } from 'node:worker_threads';
import { DnssecError, type DnssecCode } from './dnssec/errors.ts';
import { SignJobs, type SignReply, type SignRequest } from './sign-jobs.ts';

/**
 * Where the signer's CPU-bound half (sign-jobs.ts) runs: on a worker
 * thread, so that signing a large zone does not stall the API or the name
 * server's answers, which share the main thread (issue 32; measured by
 * bench/sign-stall.ts: the p99 of a cheap call while a 100,000-record zone
 * is signed, docs/performance.md). VIGIL_SIGN_INLINE=1 runs it on the main
 * thread instead, as before, for that bench's comparison.
 *
 * One thread, started at the first signing and kept (the signatures
 * reused from one signing to the next, reuse.ts, live on it: ending it
 * would make the next signing a full one, as after a restart), unref'd
 * between jobs so it never keeps the process alive; the cycle loop's stop
 * ends it. Jobs go one at a time (the signing pass is sequential). Only
 * strings and key bytes cross: a snapshot in, a signed snapshot out.
 */
export interface SignRunner {
  run<R extends SignReply>(m: SignRequest): Promise<R>;
  close(): Promise<void>;
}

type FromThread = { id: number; reply: SignReply } | { id: number; error: { code?: string; message: string } };

export function signRunner(): SignRunner {
  if (process.env.VIGIL_SIGN_INLINE === '1') {
    const jobs = new SignJobs();
    return { run: async <R extends SignReply>(m: SignRequest) => jobs.run(m) as R, close: async () => {} };
  }
  return new ThreadRunner();
}

/** The thread's module: sign-worker.js beside this file when built; from source, tsx's loader first (Node 20 does not hand the main thread's hooks on). */
function startThread(): Worker {
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL('./sign-worker.js', import.meta.url));
  const url = new URL('./sign-worker.ts', import.meta.url).href;
  // Resolved here: an eval'd thread resolves bare names from the working directory, which may be anywhere.
  const tsx = import.meta.resolve('tsx/esm/api');
  const boot = `import(${JSON.stringify(tsx)}).then((m) => { m.register(); return import(${JSON.stringify(url)}); })`;
  return new Worker(boot, { eval: true });
}

class ThreadRunner implements SignRunner {
  private worker: Worker | null = null;
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve(r: SignReply): void; reject(e: Error): void }>();

  private thread(): Worker {
    if (this.worker) return this.worker;
    const w = startThread();
    w.on('message', (m: FromThread) => {
      const p = this.waiting.get(m.id);
      this.waiting.delete(m.id);
      if (!this.waiting.size) w.unref();
      if (!p) return;
      if ('reply' in m) p.resolve(m.reply);
      else p.reject(m.error.code ? new DnssecError(m.error.code as DnssecCode) : Object.assign(new Error(), m.error));
    });
    const lost = (why?: unknown) => {
      if (this.worker !== w) return; // closed on purpose, perhaps already replaced
      this.worker = null;
      for (const p of this.waiting.values()) p.reject(Object.assign(new DnssecError('signerLost'), { cause: why }));
      this.waiting.clear();
    };
    w.on('error', lost);
    w.on('exit', lost);
    this.worker = w;
    return w;
  }

  run<R extends SignReply>(m: SignRequest): Promise<R> {
    const w = this.thread();
    const id = this.nextId++;
    w.ref();
    return new Promise<R>((resolve, reject) => {
      this.waiting.set(id, { resolve: resolve as (r: SignReply) => void, reject });
      w.postMessage({ id, request: m });
    });
  }

  async close(): Promise<void> {
    const w = this.worker;
    this.worker = null;
    if (w) await w.terminate();
  }
}
