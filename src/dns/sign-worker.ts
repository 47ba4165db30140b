import { DnssecError } from './dnssec/errors.ts';
import { serveJobs } from './job-thread.ts';
import { SignJobs, type SignRequest } from './sign-jobs.ts';

/** The signing thread (sign-thread.ts): runs each job it is sent and answers with its id. */
const jobs = new SignJobs();
serveJobs(
  (m: SignRequest) => jobs.run(m),
  (err) => (err instanceof DnssecError ? err.code : undefined),
);
