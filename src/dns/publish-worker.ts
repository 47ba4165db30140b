import { serveJobs } from './job-thread.ts';
import { type CheckReply, type PublishJob, runJob } from './publish-jobs.ts';

/** The publish thread (publish-thread.ts): checks each version (or writes its zone text) and answers with its id. */
serveJobs<PublishJob, CheckReply | string>(runJob, () => undefined);
