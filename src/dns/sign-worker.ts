import { parentPort } from 'node:worker_threads';
import { DnssecError } from './dnssec/errors.ts';
import { SignJobs, type SignRequest } from './sign-jobs.ts';

/** The signing thread (sign-thread.ts): runs each job it is sent and answers with its id. */
const jobs = new SignJobs();
parentPort?.on('message', ({ id, request }: { id: number; request: SignRequest }) => {
  try {
    parentPort!.postMessage({ id, reply: jobs.run(request) });
  } catch (err) {
    const e = err as Error;
    const code = err instanceof DnssecError ? err.code : undefined;
    parentPort!.postMessage({ id, error: { code, message: e.message, stack: e.stack } });
  }
});
