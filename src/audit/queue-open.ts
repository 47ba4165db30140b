import { join } from 'node:path';
import type { Logger } from 'pino';
import type { Clock } from '../clock.ts';
import type { Config } from '../config.ts';
import type { Db } from '../store/db.ts';
import { isPostgres } from '../store/dialect.ts';
import { outboxMailer, smtpMailer, type Mailer } from './mailer.ts';
import { type AuditQueue, StoreQueue } from './queue.ts';
import { BossQueue } from './queue-boss.ts';
import { AuditRunner, type Engine } from './runner.ts';
import { Scheduler } from './scheduler.ts';

/** The audit side of a process (`serve` or `worker`): its queue, the runner it feeds and the mail they send. */
export interface AuditWork {
  readonly queue: AuditQueue;
  readonly runner: AuditRunner;
  /** Starts the runs of due schedules (every serve and worker of a set looks; one starts each run). */
  readonly scheduler: Scheduler;
  /** Starts taking audits (none when config.auditWorkers is 0; the queue still takes new audits in). */
  start(): Promise<void>;
  /** Hands back running audits, then closes the mailers. */
  stop(): Promise<void>;
}

/** The queue the store calls for: pg-boss on PostgreSQL, the table itself on SQLite. */
export function openAuditQueue(db: Db, clock: Clock, config: Config, logger: Logger): AuditQueue {
  const options = {
    concurrency: config.auditWorkers,
    perAccount: config.auditAccountLimit,
    leaseMs: config.auditLeaseMs,
  };
  return isPostgres(db) && config.db
    ? new BossQueue(db, clock, config.db, options, logger)
    : new StoreQueue(db, clock, options);
}

export function auditWork(db: Db, clock: Clock, config: Config, logger: Logger, engine?: Engine): AuditWork {
  const queue = openAuditQueue(db, clock, config, logger);
  const outbox = outboxMailer(join(config.dataDir, 'outbox'), config.mailFrom);
  const mailers: { primary: Mailer; outbox: Mailer } = {
    primary: config.smtpUrl ? smtpMailer(config.smtpUrl, config.mailFrom) : outbox,
    outbox,
  };
  const runner = new AuditRunner(db, clock, config.scanAllow, mailers, logger, engine, config.scanDiscovery);
  runner.probeTimeoutMs = config.auditProbeTimeoutMs;
  runner.caCertificates = config.auditCa;
  if (queue instanceof StoreQueue || queue instanceof BossQueue) {
    queue.onRequeued = (ids) =>
      logger.warn({ scanuids: ids }, 'audits put back: their worker stopped renewing its lease');
  }
  const scheduler = new Scheduler({
    db,
    clock,
    scanAllow: config.scanAllow,
    limits: { queued: config.auditQueueLimit, maxPorts: config.auditMaxPorts },
    enqueue: (trx, id) => queue.enqueue(trx, id),
    wake: () => queue.wake(),
    notifyEnded: (id) => runner.notifyEnded(id),
    logger,
    pollMs: config.schedulePollMs,
  });
  return {
    queue,
    runner,
    scheduler,
    async start() {
      await queue.start((job, signal) => runner.run(job, signal));
      // Only where audits run: a serve with --audit-workers 0 leaves the mail to the workers.
      if (config.auditWorkers > 0) void runner.resendPending();
      // After the queue: a run's job is sent through it (pg-boss must have started).
      scheduler.start();
    },
    async stop() {
      await scheduler.stop();
      await queue.stop();
      mailers.primary.close();
      outbox.close();
    },
  };
}
