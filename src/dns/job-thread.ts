import { parentPort, Worker } from 'node:worker_threads';

/**
 * One worker thread that runs a module's jobs off the main thread, which
 * serves the API and the name server's cache misses (issue 32): the signer
 * (sign-thread.ts) and the publish checks (publish-thread.ts) each keep
 * one. The thread starts at the first job and is kept (a start costs the
 * module's load, and the signer keeps state there); it is unref'd between
 * jobs so it never keeps the process alive. Jobs are answered in the order
 * the thread finishes them, each by its id.
 */
export interface JobRunner<Q, R> {
  run(m: Q): Promise<R>;
  close(): Promise<void>;
}

export interface ThreadSpec {
  /** The thread's module beside this file, without its extension (`sign-worker`). */
  module: string;
  /** An error the thread answered with, as the caller's error type (a typed code when it had one). */
  revive(error: ThreadError): Error;
  /** What each job in flight is rejected with when the thread dies (out of memory, a crash). */
  lost(why: unknown): Error;
}

/** An error as it crosses from the thread: an Error's own fields, and its typed code if any. */
export interface ThreadError {
  code?: string;
  message: string;
  stack?: string;
}

type FromThread<R> = { id: number; reply: R } | { id: number; error: ThreadError };

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
  private readonly waiting = new Map<number, { resolve(r: R): void; reject(e: Error): void }>();

  constructor(private readonly spec: ThreadSpec) {}

  private thread(): Worker {
    if (this.worker) return this.worker;
    const w = startThread(this.spec.module);
    w.on('message', (m: FromThread<R>) => {
      const p = this.waiting.get(m.id);
      this.waiting.delete(m.id);
      if (!this.waiting.size) w.unref();
      if (!p) return;
      if ('reply' in m) p.resolve(m.reply);
      else p.reject(this.spec.revive(m.error));
    });
    const lost = (why?: unknown) => {
      if (this.worker !== w) return; // closed on purpose, perhaps already replaced
      this.worker = null;
      for (const p of this.waiting.values()) p.reject(this.spec.lost(why));
      this.waiting.clear();
    };
    w.on('error', lost);
    w.on('exit', lost);
    this.worker = w;
    return w;
  }

  run(m: Q): Promise<R> {
    const w = this.thread();
    const id = this.nextId++;
    w.ref();
    return new Promise<R>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      w.postMessage({ id, request: m });
    });
  }

  async close(): Promise<void> {
    const w = this.worker;
    this.worker = null;
    if (w) await w.terminate();
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
  parentPort?.on('message', ({ id, request }: { id: number; request: Q }) => {
    try {
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
