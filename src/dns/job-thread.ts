import { parentPort, Worker } from 'node:worker_threads';
import { FaultError, type FaultCode } from '../errors.ts';

/**
 * One worker thread that runs a module's jobs off the main thread, which
 * serves the API and the name server's cache misses (issue 32): the signer
 * (sign-thread.ts) and the publish checks (publish-thread.ts) each keep
 * one. The thread starts at the first job and is kept (a start costs the
 * module's load, and the signer keeps state there); it is unref'd between
 * jobs so it never keeps the process alive. Jobs are answered in the order
 * the thread finishes them, each by its id.
 *
 * A fault is typed (src/errors.ts FaultError): a job that throws an
 * untyped error fails with `workerThreadFailed`, and since what the thread
 * holds may be half-changed by it (the signer's caches), the next job goes
 * to a new thread; the old one ends once the jobs it still runs are
 * answered. A thread that dies fails its jobs with `workerThreadLost`, and
 * the next job starts a new one too. Every job's outcome and time go to
 * the runner's observer (the metrics, docs/operations.md).
 */
export interface JobRunner<Q, R> {
  /** `fault`: tests only (config threadFaultZones): the thread throws instead of running the job. */
  run(m: Q, fault?: boolean): Promise<R>;
  close(): Promise<void>;
}

export type ThreadName = 'publish' | 'sign';
/** How a job ended: answered, answered with a typed error (the job's own answer, the thread is sound), or a fault. */
export type JobResult = 'ok' | 'typedError' | FaultCode;

/** What the metrics hear of a runner (src/metrics-threads.ts). */
export interface ThreadObserver {
  /** A thread started: at the first job, or in place of one that failed or died. */
  started(thread: ThreadName): void;
  /** A job ended: how, and the seconds from its send to its answer (its wait behind other jobs included). */
  ended(thread: ThreadName, result: JobResult, seconds: number): void;
}

export interface ThreadSpec {
  name: ThreadName;
  /** The thread's module beside this file, without its extension (`sign-worker`). */
  module: string;
  /** An error the thread answered with a typed code, as the caller's error type; none: every error is a fault. */
  typed?(error: ThreadError & { code: string }): Error;
  observer?: ThreadObserver;
}

/** An error as it crosses from the thread: an Error's own fields, and its typed code if any. */
export interface ThreadError {
  code?: string;
  message: string;
  stack?: string;
}

type FromThread<R> = { id: number; reply: R } | { id: number; error: ThreadError };

interface Waiting<R> {
  worker: Worker;
  /** performance.now() at the send. */
  since: number;
  resolve(r: R): void;
  reject(e: Error): void;
}

/** The thread's module: `.js` beside this file when built; from source, tsx's loader first (Node 20 does not hand the main thread's hooks on). */
function startThread(module: string): Worker {
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL(`./${module}.js`, import.meta.url));
  const url = new URL(`./${module}.ts`, import.meta.url).href;
  // Resolved here: an eval'd thread resolves bare names from the working directory, which may be anywhere.
  const tsx = import.meta.resolve('tsx/esm/api');
  const boot = `import(${JSON.stringify(tsx)}).then((m) => { m.register(); return import(${JSON.stringify(url)}); })`;
  return new Worker(boot, { eval: true });
}

export class ThreadRunner<Q, R> implements JobRunner<Q, R> {
  private worker: Worker | null = null;
  private nextId = 1;
  private closing = false;
  private readonly waiting = new Map<number, Waiting<R>>();

  constructor(private readonly spec: ThreadSpec) {}

  private thread(): Worker {
    if (this.worker) return this.worker;
    const w = startThread(this.spec.module);
    this.spec.observer?.started(this.spec.name);
    w.on('message', (m: FromThread<R>) => this.answered(w, m));
    w.on('error', (why) => this.lost(w, why));
    w.on('exit', (code) => this.lost(w, code));
    this.worker = w;
    return w;
  }

  private answered(w: Worker, m: FromThread<R>): void {
    const p = this.waiting.get(m.id);
    this.waiting.delete(m.id);
    if (p) {
      if ('reply' in m) {
        this.ended(p, 'ok');
        p.resolve(m.reply);
      } else if (m.error.code && this.spec.typed) {
        this.ended(p, 'typedError');
        p.reject(this.spec.typed({ ...m.error, code: m.error.code }));
      } else {
        // Replaced: the next job starts a new thread; this one ends below once it runs nothing more.
        if (this.worker === w) this.worker = null;
        this.ended(p, 'workerThreadFailed');
        const cause = Object.assign(new Error(m.error.message), { stack: m.error.stack });
        p.reject(new FaultError('workerThreadFailed', this.spec.name, { cause }));
      }
    }
    if (this.runs(w)) return;
    if (this.worker === w) w.unref();
    else void w.terminate();
  }

  private lost(w: Worker, why: unknown): void {
    if (this.worker === w) this.worker = null;
    for (const [id, p] of this.waiting) {
      if (p.worker !== w) continue;
      this.waiting.delete(id);
      this.ended(p, 'workerThreadLost');
      p.reject(new FaultError('workerThreadLost', this.spec.name, { cause: why }));
    }
  }

  private runs(w: Worker): boolean {
    for (const p of this.waiting.values()) if (p.worker === w) return true;
    return false;
  }

  private ended(p: Waiting<R>, result: JobResult): void {
    // Jobs cut short by close() (the service stopping) are not the thread's failures.
    if (!this.closing || result === 'ok')
      this.spec.observer?.ended(this.spec.name, result, (performance.now() - p.since) / 1000);
  }

  run(m: Q, fault = false): Promise<R> {
    const w = this.thread();
    const id = this.nextId++;
    w.ref();
    return new Promise<R>((resolve, reject) => {
      this.waiting.set(id, { worker: w, since: performance.now(), resolve, reject });
      w.postMessage({ id, request: m, fault });
    });
  }

  async close(): Promise<void> {
    this.closing = true;
    const threads = new Set([...this.waiting.values()].map((p) => p.worker));
    if (this.worker) threads.add(this.worker);
    this.worker = null;
    await Promise.all([...threads].map((w) => w.terminate()));
  }
}

/**
 * The thread's side: runs each job it is sent and answers with its id;
 * `codeOf` names a typed error's code. A job may be async (a publish's
 * hint asks the world): the next job starts when this one waits.
 */
export function serveJobs<Q, R>(run: (m: Q) => R | Promise<R>, codeOf: (err: unknown) => string | undefined): void {
  const failed = (id: number, err: unknown) => {
    const e = err as Error;
    parentPort!.postMessage({ id, error: { code: codeOf(err), message: e.message, stack: e.stack } });
  };
  parentPort?.on('message', ({ id, request, fault }: { id: number; request: Q; fault?: boolean }) => {
    try {
      // The planted fault is untyped on purpose: what a bug in the job would throw.
      if (fault) throw new Error('fault planted by a test (config threadFaultZones)');
      const reply = run(request);
      if (reply instanceof Promise)
        reply.then(
          (r) => parentPort!.postMessage({ id, reply: r }),
          (err) => failed(id, err),
        );
      else parentPort!.postMessage({ id, reply });
    } catch (err) {
      failed(id, err);
    }
  });
}
