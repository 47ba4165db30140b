import { Command, Option } from 'commander';
import { ALLOW_DOMAINS, commaList, DEFAULTS } from '../config.ts';
import { parseDuration } from '../duration.ts';
import {
  auditCaOption,
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
import { maxPortsOption, queueLimitOption, scheduleLimitOption } from './audit-limits.ts';
import { allowDomains, cidrList, count, opt, positive, resolverList, yesNo } from './serve-options.ts';
import { runServe } from './serve-run.ts';

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
        await runServe(o);
      })
  );
}
