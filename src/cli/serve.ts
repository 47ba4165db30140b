import { Command, Option } from 'commander';
import { parsePattern } from '../audit/patterns.ts';
import { ALLOW_DOMAINS, type AllowDomain, buildConfig, commaList, DEFAULTS } from '../config.ts';
import { parseDuration } from '../duration.ts';
import { parsePeer } from '../dns/peers.ts';
import { serverLogger } from '../log-format.ts';
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
  dnssecKeyOption,
  logFormatOption,
  logLevelOption,
  metricsListenOption,
  metricsPortOption,
  parsePort,
  scanDiscoveryOption,
} from './options.ts';
import { version } from './version.ts';
import { maxPortsOption, queueLimitOption, scheduleLimitOption, schedulePollMs } from './audit-limits.ts';

const opt = (flags: string, help: string, env: string, parse?: (t: string) => unknown, def?: string) => {
  const o = new Option(flags, help).env(env);
  if (parse) o.argParser(checked(parse));
  if (def !== undefined) o.default(parse ? parse(def) : def, def);
  return o;
};

export const cidrList = (t: string) => {
  const items = commaList(t);
  const bad = items.filter((c) => parsePattern(c) === null);
  if (bad.length) throw new Error(`not an address, CIDR or pattern: ${bad.join(', ')}`);
  return items;
};

const count = (t: string) => {
  if (!/^([1-9]|[1-5]\d|6[0-4])$/.test(t)) throw new Error('must be 1 to 64');
  return Number(t);
};

const allowDomains = (t: string): AllowDomain[] => {
  const items = commaList(t);
  const bad = items.filter((i) => !(ALLOW_DOMAINS as readonly string[]).includes(i));
  if (bad.length) throw new Error(`unknown: ${bad.join(', ')} (choose from ${ALLOW_DOMAINS.join(', ')})`);
  return items as AllowDomain[];
};

/** `--resolver ADDR[:PORT],…`: each entry a DNS peer (IPv6 with a port in brackets). */
const resolverList = (t: string): string[] => {
  const items = commaList(t);
  const bad = items.filter((i) => parsePeer(i) === null);
  if (bad.length) throw new Error(`not ADDR[:PORT]: ${bad.join(', ')}`);
  return items;
};

/** `--metrics-zone-names`: alone or `yes` turns it on; `no` (the default) off. */
const yesNo = (t: string) => {
  if (t !== 'yes' && t !== 'no') throw new Error("must be 'yes' or 'no'");
  return t === 'yes';
};

const positive = (max: number) => (t: string) => {
  if (!/^[1-9]\d{0,9}$/.test(t) || Number(t) > max) throw new Error(`must be 1 to ${max}`);
  return Number(t);
};

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

export function serveCommand(): Command {
  return (
    new Command('serve')
      .description('run the whole service in one process: API, plain-HTTP notSSL listener, name server, forwarder')
      .addOption(configOption('VIGIL_SERVE_CONFIG'))
      .addOption(dataOption())
      .addOption(dbOption())
      .addOption(opt('--listen <host>', 'address of every listener', 'VIGIL_LISTEN', undefined, DEFAULTS.listen))
      .addOption(
        opt('--https-port <n>', 'the API over TLS (0: off)', 'VIGIL_HTTPS_PORT', parsePort, String(DEFAULTS.httpsPort)),
      )
      .addOption(
        opt(
          '--http-port <n>',
          'plain HTTP, answers notSSL (0: off)',
          'VIGIL_HTTP_PORT',
          parsePort,
          String(DEFAULTS.httpPort),
        ),
      )
      .addOption(
        opt(
          '--dns-port <n>',
          'authoritative name server, UDP and TCP (0: off)',
          'VIGIL_DNS_PORT',
          parsePort,
          String(DEFAULTS.dnsPort),
        ),
      )
      .addOption(
        opt(
          '--dns-workers <n>',
          'name-server processes sharing the DNS port (1: in the main process)',
          'VIGIL_DNS_WORKERS',
          (t) => {
            if (!/^([1-9]|1[0-6])$/.test(t)) throw new Error('must be 1 to 16');
            return Number(t);
          },
          '1',
        ),
      )
      .addOption(
        opt(
          '--forward-port <n>',
          'web-forwarding HTTP server (0: off)',
          'VIGIL_FORWARD_PORT',
          parsePort,
          String(DEFAULTS.forwardPort),
        ),
      )
      .addOption(metricsPortOption())
      .addOption(metricsListenOption())
      .addOption(
        new Option('--metrics-zone-names [yes|no]', "label metrics with zone names (every tenant's domains; off)")
          .env('VIGIL_METRICS_ZONE_NAMES')
          .argParser(checked(yesNo))
          .preset('yes')
          .default(false, 'no'),
      )
      .addOption(
        opt(
          '--publish-interval <dur>',
          'distribution cycle of published zones',
          'VIGIL_PUBLISH_INTERVAL',
          parseDuration,
          DEFAULTS.publishInterval,
        ),
      )
      .addOption(
        opt('--session-ttl <dur>', 'session token lifetime', 'VIGIL_SESSION_TTL', parseDuration, DEFAULTS.sessionTtl),
      )
      .addOption(
        opt('--tls-cert <file>', 'certificate for the API (default: generated in DATA/tls/)', 'VIGIL_TLS_CERT'),
      )
      .addOption(opt('--tls-key <file>', 'key of --tls-cert', 'VIGIL_TLS_KEY'))
      .addOption(
        opt(
          '--domain-hold <mode>',
          'manual | none',
          'VIGIL_DOMAIN_HOLD',
          (t) => {
            if (t !== 'manual' && t !== 'none') throw new Error("must be 'manual' or 'none'");
            return t;
          },
          DEFAULTS.domainHold,
        ),
      )
      .addOption(
        opt(
          '--ns-domain <name>',
          'default NS records are ns1..ns4 under it',
          'VIGIL_NS_DOMAIN',
          undefined,
          DEFAULTS.nsDomain,
        ),
      )
      .addOption(opt('--secondaries <list>', 'ADDR[:PORT],… stock secondaries', 'VIGIL_SECONDARIES', commaList))
      .addOption(
        opt(
          '--resolver <list>',
          "ADDR[:PORT],… where zone-health checks look names up (default: the system's resolvers)",
          'VIGIL_RESOLVER',
          resolverList,
        ),
      )
      .addOption(
        opt(
          '--catalog-zone <name>',
          'RFC 9432 catalog of served zones',
          'VIGIL_CATALOG_ZONE',
          undefined,
          DEFAULTS.catalogZone,
        ),
      )
      .addOption(
        opt(
          '--forward-address <ip>',
          'address web-forwarded hosts resolve to (default: the listen address)',
          'VIGIL_FORWARD_ADDRESS',
        ),
      )
      .addOption(dnssecKeyOption())
      .addOption(
        opt('--smtp-url <url>', 'SMTP server for audit mail (default: files in DATA/outbox/)', 'VIGIL_SMTP_URL'),
      )
      .addOption(
        opt(
          '--scan-allow <cidrs>',
          'server-wide fence around every audit target',
          'VIGIL_SCAN_ALLOW',
          cidrList,
          DEFAULTS.scanAllow,
        ),
      )
      .addOption(scanDiscoveryOption())
      .addOption(auditCaOption())
      .addOption(
        opt(
          '--audit-workers <n>',
          'audits running at once in this process (0: none; `vigil worker` runs them)',
          'VIGIL_AUDIT_WORKERS',
          auditWorkers(0),
          String(DEFAULTS.auditWorkers),
        ),
      )
      .addOption(
        opt(
          '--audit-account-limit <n>',
          'audits of one account running at once (more wait)',
          'VIGIL_AUDIT_ACCOUNT_LIMIT',
          count,
          String(DEFAULTS.auditAccountLimit),
        ),
      )
      .addOption(opt('--mail-from <addr>', 'sender of audit mail', 'VIGIL_MAIL_FROM', undefined, DEFAULTS.mailFrom))
      .addOption(queueLimitOption())
      .addOption(scheduleLimitOption())
      .addOption(maxPortsOption())
      .addOption(
        opt(
          '--dns-peers-allow <cidrs>',
          "the only addresses DNS traffic goes to on a tenant's behalf (masters, NOTIFY); --secondaries always",
          'VIGIL_DNS_PEERS_ALLOW',
          cidrList,
          DEFAULTS.dnsPeersAllow,
        ),
      )
      .addOption(
        opt(
          '--allow-domains <list>',
          `let tenants add what is refused by default: ${ALLOW_DOMAINS.join(',')}`,
          'VIGIL_ALLOW_DOMAINS',
          allowDomains,
        ),
      )
      .addOption(
        opt(
          '--max-zone-records <n>',
          'records one domain may hold',
          'VIGIL_MAX_ZONE_RECORDS',
          positive(10_000_000),
          String(DEFAULTS.maxZoneRecords),
        ),
      )
      .addOption(
        opt(
          '--max-zone-bytes <n>',
          "bytes of one domain's zone text",
          'VIGIL_MAX_ZONE_BYTES',
          positive(1 << 30),
          String(DEFAULTS.maxZoneBytes),
        ),
      )
      .addOption(
        opt(
          '--max-connections-per-ip <n>',
          'open connections per client address, on each listener (API, DNS over TCP, forwarder, metrics)',
          'VIGIL_MAX_CONNECTIONS_PER_IP',
          positive(100_000),
          String(DEFAULTS.maxConnectionsPerIp),
        ),
      )
      .addOption(
        opt(
          '--request-timeout <dur>',
          'longest time a request may take to arrive (API, forwarder, metrics)',
          'VIGIL_REQUEST_TIMEOUT',
          parseDuration,
          DEFAULTS.requestTimeout,
        ),
      )
      .addOption(
        opt(
          '--dns-tcp-lifetime <dur>',
          'longest life of one DNS-over-TCP connection',
          'VIGIL_DNS_TCP_LIFETIME',
          parseDuration,
          DEFAULTS.dnsTcpLifetime,
        ),
      )
      .addOption(
        opt(
          '--dns-rrl-rate <n>',
          'UDP response rate limiting: identical responses a second to one client network (0: off)',
          'VIGIL_DNS_RRL_RATE',
          (t) => {
            if (!/^(0|[1-9]\d{0,6})$/.test(t) || Number(t) > 1_000_000) throw new Error('must be 0 to 1000000');
            return Number(t);
          },
          String(DEFAULTS.dnsRrlRate),
        ),
      )
      .addOption(logLevelOption())
      .addOption(logFormatOption())
      // After the command line and the environment are parsed, so that the file fills in only defaults.
      .hook('preAction', configFileHook)
      .action(async (o) => {
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
      })
  );
}
