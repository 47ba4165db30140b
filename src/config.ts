import { resolve, join } from 'node:path';

/** Everything `vigil serve` can be told, typed once; frozen after it is built. */
export interface Config {
  readonly dataDir: string;
  /** `postgres://…` for a shared PostgreSQL; null = the SQLite file in dataDir. */
  readonly db: string | null;
  readonly listen: string;
  readonly httpsPort: number;
  readonly httpPort: number;
  readonly dnsPort: number;
  /** Name-server processes sharing the DNS sockets; 1 answers in the main process. */
  readonly dnsWorkers: number;
  readonly forwardPort: number;
  /** Prometheus /metrics and /healthz over plain HTTP; 0: off. */
  readonly metricsPort: number;
  /** Address of the metrics listener, apart from `listen` (loopback by default: it has no TLS and no login). */
  readonly metricsListen: string;
  /** Zone names as metric labels (a series per served zone); off: the scrape would list every tenant's domains. */
  readonly metricsZoneNames: boolean;
  readonly publishIntervalMs: number;
  readonly sessionTtlMs: number;
  readonly tlsCert: string | null;
  readonly tlsKey: string | null;
  readonly domainHold: 'manual' | 'none';
  readonly nsDomain: string;
  readonly secondaries: readonly string[];
  /** `--resolver`: where zone-health checks look the world up (ADDR[:PORT]); empty: the system's resolvers. */
  readonly resolvers: readonly string[];
  readonly catalogZone: string;
  readonly forwardAddress: string;
  /** The key-encryption key of the zones' DNSSEC keys (src/dns/dnssec/kek.ts); default DATA/dnssec/kek. */
  readonly dnssecKeyFile: string;
  readonly smtpUrl: string | null;
  readonly scanAllow: readonly string[];
  /** Host discovery before an audit's port scan (--scan-discovery; off: every address scanned, as nmap -Pn). */
  readonly scanDiscovery: boolean;
  /** Audits running at once in this process; 0: none (serve --audit-workers 0: a `worker` runs them). */
  readonly auditWorkers: number;
  /** How long a running audit stays held without a renewal (VIGIL_AUDIT_LEASE; docs/workers.md). */
  readonly auditLeaseMs: number;
  /**
   * An audit's per-read wait on a silent port, in detection and the checks' default (VIGIL_AUDIT_PROBE_TIMEOUT;
   * docs/workers.md). Tests against silent targets lower it; a lower value misses slow services.
   */
  readonly auditProbeTimeoutMs: number;
  /**
   * CA certificates (PEM blocks) the audits trust besides Node's bundled roots and the system's bundle
   * (--audit-ca FILE; the TLS check vigil.tls.cert-untrusted, docs/audits.md).
   */
  readonly auditCa: readonly string[];
  /** Audits of one account running at once; more wait in the queue. */
  readonly auditAccountLimit: number;
  /** Audits of one account queued or running at once; saRunAudit past it answers auditQueueFull (docs/audits.md). */
  readonly auditQueueLimit: number;
  /** Schedules one account may hold (saScheduleAudit; scheduleLimitReached past it). */
  readonly scheduleLimit: number;
  /** Ports one saRunAudit/saScheduleAudit `ports` list may name, counting repeats (at most 65,535). */
  readonly auditMaxPorts: number;
  /** How often each process looks for due schedules (VIGIL_SCHEDULE_POLL; src/audit/scheduler.ts). */
  readonly schedulePollMs: number;
  /** Sender of audit mail. */
  readonly mailFrom: string;
  readonly logLevel: string;
  /** Where the name server may send DNS traffic on a tenant's behalf (slave masters, NOTIFY); --secondaries always. */
  readonly dnsPeersAllow: readonly string[];
  /** Operator exceptions to the domain-name rules of docs/security.md. */
  readonly allowDomains: readonly AllowDomain[];
  /** Records one domain may hold (the SOA and Options included). */
  readonly maxZoneRecords: number;
  /** Bytes of a domain's zone text. */
  readonly maxZoneBytes: number;
  /** Open connections one client address may hold, on the API and on DNS over TCP (each). */
  readonly maxConnectionsPerIp: number;
  /** Longest time an API request may take to arrive, headers and body. */
  readonly requestTimeoutMs: number;
  /** Longest life of one DNS-over-TCP connection, however busy (not an idle timer). */
  readonly dnsTcpLifetimeMs: number;
  /** UDP response rate limiting: identical responses a second to one client network; 0: off (docs/dns.md). */
  readonly dnsRrlRate: number;
  /**
   * Tests only, never set by `serve`: the zone whose jobs throw on the publish thread, and the one whose
   * signing throws on the signing thread (src/dns/job-thread.ts), to show the fault's typed code, the
   * metrics and the thread's replacement.
   */
  readonly threadFaultZones: { readonly publish?: string; readonly sign?: string };
}

/** `--allow-domains`: what the operator lets tenants add beyond the default rules. */
export const ALLOW_DOMAINS = ['nested', 'public-suffix', 'reverse'] as const;
export type AllowDomain = (typeof ALLOW_DOMAINS)[number];

export const DEFAULTS = Object.freeze({
  dataDir: './data',
  listen: '127.0.0.1',
  httpsPort: 8443,
  httpPort: 8080,
  dnsPort: 5300,
  forwardPort: 8081,
  metricsPort: 0,
  metricsListen: '127.0.0.1',
  publishInterval: '5m',
  sessionTtl: '24h',
  domainHold: 'manual',
  // Reserved names (RFC 2606 / RFC 9432): an operator sets real ones.
  nsDomain: 'vigil.example',
  catalogZone: 'catalog.vigil.invalid',
  scanAllow: '127.0.0.0/8,::1',
  auditWorkers: 2,
  auditAccountLimit: 2,
  // Issue 31: one account queued 200 audits in 0.4 s; 20 is hours of work at 2 running at once (docs/audits.md).
  auditQueueLimit: 20,
  scheduleLimit: 10,
  auditMaxPorts: 65_535,
  mailFrom: 'vigil@localhost',
  logLevel: 'info',
  dnsPeersAllow: '127.0.0.0/8,::1',
  maxZoneRecords: 20_000,
  maxZoneBytes: 4 * 1024 * 1024,
  maxConnectionsPerIp: 64,
  requestTimeout: '30s',
  dnsTcpLifetime: '60s',
  // BIND's ARM suggests 5 to 20; 20 leaves room for a resolver farm behind one /24 (docs/dns.md).
  dnsRrlRate: 20,
});

export function buildConfig(partial: Partial<Config> & { dataDir?: string }): Config {
  const dataDir = resolve(partial.dataDir ?? DEFAULTS.dataDir);
  const listen = partial.listen ?? DEFAULTS.listen;
  return Object.freeze({
    dataDir,
    db: partial.db ?? null,
    listen,
    httpsPort: partial.httpsPort ?? DEFAULTS.httpsPort,
    httpPort: partial.httpPort ?? DEFAULTS.httpPort,
    dnsPort: partial.dnsPort ?? DEFAULTS.dnsPort,
    dnsWorkers: partial.dnsWorkers ?? 1,
    forwardPort: partial.forwardPort ?? DEFAULTS.forwardPort,
    metricsPort: partial.metricsPort ?? DEFAULTS.metricsPort,
    metricsListen: partial.metricsListen ?? DEFAULTS.metricsListen,
    metricsZoneNames: partial.metricsZoneNames ?? false,
    publishIntervalMs: partial.publishIntervalMs ?? 5 * 60_000,
    sessionTtlMs: partial.sessionTtlMs ?? 24 * 3_600_000,
    tlsCert: partial.tlsCert ?? null,
    tlsKey: partial.tlsKey ?? null,
    domainHold: partial.domainHold ?? 'manual',
    nsDomain: partial.nsDomain ?? DEFAULTS.nsDomain,
    secondaries: Object.freeze([...(partial.secondaries ?? [])]),
    resolvers: Object.freeze([...(partial.resolvers ?? [])]),
    catalogZone: partial.catalogZone ?? DEFAULTS.catalogZone,
    forwardAddress: partial.forwardAddress ?? listen,
    dnssecKeyFile: partial.dnssecKeyFile ?? join(dataDir, 'dnssec', 'kek'),
    smtpUrl: partial.smtpUrl ?? null,
    scanAllow: Object.freeze([...(partial.scanAllow ?? DEFAULTS.scanAllow.split(','))]),
    scanDiscovery: partial.scanDiscovery ?? true,
    auditWorkers: partial.auditWorkers ?? DEFAULTS.auditWorkers,
    auditLeaseMs: partial.auditLeaseMs ?? 30_000,
    auditProbeTimeoutMs: partial.auditProbeTimeoutMs ?? 3000,
    auditCa: Object.freeze([...(partial.auditCa ?? [])]),
    auditAccountLimit: partial.auditAccountLimit ?? DEFAULTS.auditAccountLimit,
    auditQueueLimit: partial.auditQueueLimit ?? DEFAULTS.auditQueueLimit,
    scheduleLimit: partial.scheduleLimit ?? DEFAULTS.scheduleLimit,
    auditMaxPorts: partial.auditMaxPorts ?? DEFAULTS.auditMaxPorts,
    schedulePollMs: partial.schedulePollMs ?? 2000,
    mailFrom: partial.mailFrom ?? DEFAULTS.mailFrom,
    logLevel: partial.logLevel ?? DEFAULTS.logLevel,
    dnsPeersAllow: Object.freeze([...(partial.dnsPeersAllow ?? DEFAULTS.dnsPeersAllow.split(','))]),
    allowDomains: Object.freeze([...(partial.allowDomains ?? [])]),
    maxZoneRecords: partial.maxZoneRecords ?? DEFAULTS.maxZoneRecords,
    maxZoneBytes: partial.maxZoneBytes ?? DEFAULTS.maxZoneBytes,
    maxConnectionsPerIp: partial.maxConnectionsPerIp ?? DEFAULTS.maxConnectionsPerIp,
    requestTimeoutMs: partial.requestTimeoutMs ?? 30_000,
    dnsTcpLifetimeMs: partial.dnsTcpLifetimeMs ?? 60_000,
    dnsRrlRate: partial.dnsRrlRate ?? DEFAULTS.dnsRrlRate,
    threadFaultZones: Object.freeze({ ...partial.threadFaultZones }),
  });
}

export function sqlitePath(dataDir: string): string {
  return join(dataDir, 'vigil.sqlite');
}

/** Splits a comma list, dropping blanks. */
export function commaList(text: string | undefined): string[] {
  return (text ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}
