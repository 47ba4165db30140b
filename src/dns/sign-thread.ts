import { DnssecError, type DnssecCode } from './dnssec/errors.ts';
import { type JobRunner, type ThreadObserver, ThreadRunner } from './job-thread.ts';
import { SignJobs, type SignReply, type SignRequest } from './sign-jobs.ts';

/**
 * Where the signer's CPU-bound half (sign-jobs.ts) runs: on a worker
 * thread, so that signing a large zone does not stall the API or the name
 * server's answers, which share the main thread (issue 32; measured by
 * bench/sign-stall.ts: the p99 of a cheap call while a 100,000-record zone
 * is signed, docs/performance.md). VIGIL_SIGN_INLINE=1 runs it on the main
 * thread instead, as before, for that bench's comparison.
 *
 * One thread (job-thread.ts), started at the first signing and kept (the
 * signatures reused from one signing to the next, reuse.ts, live on it:
 * ending it would make the next signing a full one, as after a restart),
 * unref'd between jobs so it never keeps the process alive; the cycle
 * loop's stop ends it. Jobs go one at a time (the signing pass is
 * sequential). Only strings and key bytes cross: a snapshot in, a signed
 * snapshot out.
 */
export interface SignRunner {
  run<R extends SignReply>(m: SignRequest): Promise<R>;
  close(): Promise<void>;
}

/** The metrics' observer, and the tests' fault hook (config threadFaultZones.sign: this zone's `prepare` throws). */
export interface SignRunnerOptions {
  observer?: ThreadObserver;
  faultZone?: string | null;
}

export function signRunner(o: SignRunnerOptions = {}): SignRunner {
  const faultZone = o.faultZone ?? null;
  if (process.env.VIGIL_SIGN_INLINE === '1' && faultZone === null) {
    const jobs = new SignJobs();
    return { run: async <R extends SignReply>(m: SignRequest) => jobs.run(m) as R, close: async () => {} };
  }
  // A DNSSEC code is the job's answer (a key that does not open); anything else is a fault, and a new
  // thread signs next: the signatures kept for reuse are lost with the old one (a full signing follows).
  const thread: JobRunner<SignRequest, SignReply> = new ThreadRunner({
    name: 'sign',
    module: 'sign-worker',
    typed: (e) => new DnssecError(e.code as DnssecCode),
    observer: o.observer,
  });
  return {
    run: <R extends SignReply>(m: SignRequest) =>
      thread.run(m, m.op === 'prepare' && m.zone === faultZone) as Promise<R>,
    close: () => thread.close(),
  };
}
