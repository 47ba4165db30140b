import { Command, Option } from 'commander';
import { buildConfig, DEFAULTS } from '../config.ts';
import {
  auditLeaseMs,
  auditCaOption,
  auditProbeTimeoutMs,
  auditWorkers,
  checked,
  configFileHook,
  configOption,
  dataOption,
  dbOption,
  logFormatOption,
  logLevelOption,
  metricsListenOption,
  metricsPortOption,
  scanDiscoveryOption,
} from './options.ts';
import { cidrList } from './serve-options.ts';
import { version } from './version.ts';
import { auditLimitsFromEnv, schedulePollMs } from './audit-limits.ts';

const accountLimit = (t: string) => {
  if (!/^([1-9]|[1-5]\d|6[0-4])$/.test(t)) throw new Error('VIGIL_AUDIT_ACCOUNT_LIMIT: must be 1 to 64');
  return Number(t);
};

/**
 * `vigil worker`: audits only, taken from the store's shared queue (pg-boss
 * on PostgreSQL; the `audits` table of the data directory's SQLite file on
 * one machine) until SIGTERM, which hands back what it holds. The flags are
 * INTERFACE.md's list, and the operator's flags `serve` has too: --config
 * (a file of these flags, not serve's: src/cli/config-file.ts), the log
 * level and format, and a metrics listener (process metrics, audit
 * durations, the queue's depth, /healthz). Settings every process of a set
 * must share (the account limit, the lease) come from the environment, as
 * for `serve`. The file is read after the command line and the environment
 * (the preAction hook), so that it fills in only defaults.
 */
export function workerCommand(): Command {
  return new Command('worker')
    .description('run audits from the shared queue (no API, no name server) until SIGTERM')
    .addOption(configOption('VIGIL_WORKER_CONFIG'))
    .addOption(dbOption())
    .addOption(dataOption())
    .addOption(
      new Option('--audit-workers <n>', 'audits running at once in this process')
        .env('VIGIL_AUDIT_WORKERS')
        .argParser(checked(auditWorkers(1)))
        .default(DEFAULTS.auditWorkers),
    )
    .addOption(
      new Option('--scan-allow <cidrs>', 'server-wide fence around every audit target')
        .env('VIGIL_SCAN_ALLOW')
        .argParser(checked(cidrList))
        .default(DEFAULTS.scanAllow.split(','), DEFAULTS.scanAllow),
    )
    .addOption(scanDiscoveryOption())
    .addOption(auditCaOption())
    .addOption(
      new Option('--smtp-url <url>', 'SMTP server for audit mail (default: files in DATA/outbox/)').env(
        'VIGIL_SMTP_URL',
      ),
    )
    .addOption(
      new Option('--mail-from <addr>', 'sender of audit mail').env('VIGIL_MAIL_FROM').default(DEFAULTS.mailFrom),
    )
    .addOption(metricsPortOption())
    .addOption(metricsListenOption())
    .addOption(logLevelOption())
    .addOption(logFormatOption())
    .hook('preAction', configFileHook)
    .action(async (o) => {
      const config = buildConfig({
        dataDir: o.data,
        db: o.db ?? null,
        auditWorkers: o.auditWorkers,
        auditAccountLimit: process.env.VIGIL_AUDIT_ACCOUNT_LIMIT
          ? accountLimit(process.env.VIGIL_AUDIT_ACCOUNT_LIMIT)
          : undefined,
        auditLeaseMs: auditLeaseMs(),
        auditProbeTimeoutMs: auditProbeTimeoutMs(),
        auditCa: o.auditCa ?? [],
        // Scheduled runs start here too (src/audit/scheduler.ts): checked with the set's limits.
        ...auditLimitsFromEnv(),
        schedulePollMs: schedulePollMs(),
        scanAllow: o.scanAllow,
        scanDiscovery: o.scanDiscovery,
        smtpUrl: o.smtpUrl ?? null,
        mailFrom: o.mailFrom,
        logLevel: o.logLevel,
        metricsPort: o.metricsPort,
        metricsListen: o.metricsListen,
      });
      // Loaded here, not at the top: they pull in every dependency, and `--help` needs none.
      const [
        { serverLogger },
        { openStore, NoStoreError },
        { auditWork },
        { systemClock },
        metricsKit,
        { listenMetrics },
        { scheduleMetrics },
      ] = await Promise.all([
        import('../log-format.ts'),
        import('../store/open.ts'),
        import('../audit/queue-open.ts'),
        import('../clock.ts'),
        import('../metrics-process.ts'),
        import('../metrics-server.ts'),
        import('../metrics-schedules.ts'),
      ]);
      const logger = await serverLogger(config.logLevel, o.logFormat);
      // A mistyped --data must not start a worker on a fresh store nobody serves.
      const db = await openStore(config, { create: false }).catch((err) => {
        if (err instanceof NoStoreError)
          throw new Error(
            `no store at ${err.path}: a worker does not create one (check --data or --db; serve creates the store on its first start)`,
          );
        throw err;
      });
      const work = auditWork(db, systemClock, config, logger);
      let metrics: { server: import('node:http').Server; address: string } | null = null;
      if (config.metricsPort !== 0) {
        const registry = metricsKit.processRegistry();
        const audits = new metricsKit.AuditMetrics(registry);
        audits.queue(() => work.queue.depth());
        work.runner.onEnded = (e) => audits.ended(e);
        // A worker starts scheduled runs too (src/audit/scheduler.ts): the set's schedule series, as serve's.
        scheduleMetrics(registry, db, systemClock);
        metrics = await listenMetrics({ registry }, db, logger, config);
      }
      await work.start();
      // The queue's timers do not hold the process open (serve's listeners do); here nothing else would.
      setInterval(() => {}, 3_600_000);
      const store = config.db ? 'postgresql' : 'sqlite';
      process.stdout.write(
        `vigil worker ready store=${store} audit-workers=${config.auditWorkers} lease=${config.auditLeaseMs % 1000 ? `${config.auditLeaseMs}ms` : `${config.auditLeaseMs / 1000}s`}${metrics ? ` metrics=${metrics.address}` : ''}\n`,
      );
      logger.info(
        {
          version: version(),
          store,
          auditWorkers: config.auditWorkers,
          accountLimit: config.auditAccountLimit,
          leaseMs: config.auditLeaseMs,
        },
        'worker started',
      );
      let closing = false;
      const stop = async (signal: NodeJS.Signals) => {
        if (closing) return;
        closing = true;
        logger.info({ signal }, 'worker stopping');
        const started = Date.now();
        // Running audits are aborted and handed back (their attempt not counted): another worker takes them.
        await work.stop();
        if (metrics) {
          metrics.server.close();
          metrics.server.closeAllConnections();
        }
        await db.destroy();
        logger.info({ signal, drainMs: Date.now() - started }, 'worker stopped');
        logger.flush?.();
        process.exit(0);
      };
      process.on('SIGTERM', stop);
      process.on('SIGINT', stop);
    });
}
