/**
 * What `vigil serve` does once its options are parsed (serve.ts declares
 * them): the configuration, the app and its listeners, the first-account
 * hint, a drain on SIGTERM/SIGINT and the ready line.
 */
import type { OptionValues } from 'commander';
import { buildConfig } from '../config.ts';
import { serverLogger } from '../log-format.ts';
import { auditLeaseMs, auditProbeTimeoutMs } from './options.ts';
import { schedulePollMs } from './audit-limits.ts';
import { version } from './version.ts';

/**
 * The start-up hint when there is no account: a command that makes one able
 * to log in, audit this machine and host domains (an account without
 * --audit-types, --allow-ip and --dns-credits is refused everything), and
 * that keeps the password off the command line, where `ps` shows it.
 */
export function firstAccountHint(dataDir: string, db: string | null): string {
  // Quoted for a POSIX shell, so the line can be pasted as it is.
  const sh = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;
  let store = '';
  if (db) {
    // The same database as this server; its password is not for stdout.
    const url = URL.canParse(db) ? new URL(db) : null;
    if (url?.password) url.password = 'PASSWORD';
    store = ` --db ${url ? sh(url.href) : 'URL'}`;
  }
  return [
    'no accounts yet; create the first one with (it asks for the password, or reads it from a pipe):',
    `  bin/vigil admin account add --data ${sh(dataDir)}${store} --userid USER --password-stdin --audit-types all --allow-ip 127.0.0.1 --dns-credits 10 --json`,
    '',
  ].join('\n');
}

/** Starts the whole service from `serve`'s parsed options and keeps it until a signal drains it. */
export async function runServe(o: OptionValues): Promise<void> {
  const config = buildConfig({
    dataDir: o.data,
    db: o.db ?? null,
    listen: o.listen,
    httpsPort: o.httpsPort,
    httpPort: o.httpPort,
    dnsPort: o.dnsPort,
    dnsWorkers: o.dnsWorkers,
    forwardPort: o.forwardPort,
    metricsPort: o.metricsPort,
    metricsListen: o.metricsListen,
    metricsZoneNames: o.metricsZoneNames,
    publishIntervalMs: o.publishInterval,
    sessionTtlMs: o.sessionTtl,
    tlsCert: o.tlsCert ?? null,
    tlsKey: o.tlsKey ?? null,
    domainHold: o.domainHold,
    nsDomain: o.nsDomain,
    secondaries: o.secondaries,
    resolvers: o.resolver,
    catalogZone: o.catalogZone,
    forwardAddress: o.forwardAddress,
    dnssecKeyFile: o.dnssecKeyFile,
    smtpUrl: o.smtpUrl ?? null,
    scanAllow: o.scanAllow,
    scanDiscovery: o.scanDiscovery,
    auditWorkers: o.auditWorkers,
    auditLeaseMs: auditLeaseMs(),
    auditProbeTimeoutMs: auditProbeTimeoutMs(),
    auditCa: o.auditCa ?? [],
    auditAccountLimit: o.auditAccountLimit,
    auditQueueLimit: o.auditQueueLimit,
    scheduleLimit: o.scheduleLimit,
    auditMaxPorts: o.auditMaxPorts,
    schedulePollMs: schedulePollMs(),
    mailFrom: o.mailFrom,
    logLevel: o.logLevel,
    dnsPeersAllow: o.dnsPeersAllow,
    allowDomains: o.allowDomains,
    maxZoneRecords: o.maxZoneRecords,
    maxZoneBytes: o.maxZoneBytes,
    maxConnectionsPerIp: o.maxConnectionsPerIp,
    requestTimeoutMs: o.requestTimeout,
    dnsTcpLifetimeMs: o.dnsTcpLifetime,
    dnsRrlRate: o.dnsRrlRate,
  });
  // Loaded here, not at the top: it pulls in every dependency, and `--help` needs none.
  const { startApp } = await import('../app.ts');
  // DNS worker processes inherit the environment: the same format as this one.
  process.env.VIGIL_LOG_FORMAT = o.logFormat;
  const logger = await serverLogger(config.logLevel, o.logFormat);
  const app = await startApp(config, { logger });
  // Notes first: the ready line is the last line of start-up output.
  if (app.generatedCertificate)
    process.stdout.write(`self-signed API certificate created: ${app.generatedCertificate}\n`);
  const { anyAccount } = await import('../accounts/account-store.ts'); // the accounts store owns the query
  if (!(await anyAccount(app.services.db))) {
    process.stdout.write(firstAccountHint(config.dataDir, config.db));
  }
  let closing = false;
  const stop = async (signal: NodeJS.Signals) => {
    if (closing) return;
    closing = true;
    logger.info({ signal }, 'serve stopping');
    const started = Date.now();
    await app.close();
    // Drain: in-flight requests answered, running audits put back, listeners and store closed.
    logger.info({ signal, drainMs: Date.now() - started }, 'serve stopped');
    logger.flush?.();
    process.exit(0);
  };
  // Before the ready line: a signal sent as soon as it appears must drain, not kill (the default action).
  // Certificate renewal (e.g. certbot's deploy hook, systemd's ExecReload) without a restart.
  process.on('SIGHUP', () => void app.reloadCertificate());
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  const line = Object.entries(app.listeners)
    .map(([k, v]) => `${k}=${v}`)
    .join(' ');
  process.stdout.write(`vigil ready ${line}\n`);
  logger.info(
    { listeners: app.listeners, version: version(), store: config.db ? 'postgresql' : 'sqlite' },
    'serve started',
  );
}
