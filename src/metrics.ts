import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { AuditEnded } from './audit/runner.ts';
import type { CycleFacts } from './dns/cycle-loop.ts';
import { type DnsCounters, RCODE_NAMES, TRANSPORTS } from './dns/server/counters.ts';
import type { NotifyStats } from './dns/server/notify.ts';
import { AuditMetrics, processRegistry } from './metrics-process.ts';
import { ThreadMetrics } from './metrics-threads.ts';

/** Zone-health finding levels (docs/dns.md, "Zone health"), each a series of vigil_zone_health_findings_total. */
const HEALTH_LEVELS = ['ERROR', 'WARNING', 'NOTICE', 'INFO'] as const;

/** What the service counts elsewhere in plain numbers; read only when scraped. */
export interface MetricSources {
  dns: DnsCounters;
  notify: NotifyStats;
  slaves: { transfers: number; failures: number };
  nextCycleAt: () => number;
  audits: () => Promise<{ queued: number; running: number }>;
  /** Each zone this server answers for, with the serial it serves. */
  servedSerials: () => Iterable<[string, number]>;
  /** What the serving set's reloads read and built (src/dns/server/serving-set.ts ServingStats). */
  reloads?: () => { serials: number; reads: number; builds: number; fullReads: number };
}

/**
 * A counter whose total is kept elsewhere as a plain number: at each
 * scrape it is raised by what the source gained since the last one (a
 * Prometheus counter only goes up; the sources do too).
 */
function mirroredCounter(
  registry: Registry,
  name: string,
  help: string,
  labelNames: string[],
  read: () => [Record<string, string>, number][],
) {
  const last = new Map<string, number>();
  return new Counter({
    name,
    help,
    labelNames,
    registers: [registry],
    collect() {
      for (const [labels, value] of read()) {
        const key = JSON.stringify(labels);
        const gained = value - (last.get(key) ?? 0);
        if (gained > 0) this.inc(labels, gained);
        last.set(key, value);
      }
    },
  });
}

/**
 * The Prometheus metrics of one `serve` process (docs/operations.md,
 * "Monitoring"), through prom-client: the text format and the process
 * metrics (CPU, memory, event-loop lag, handles) come from it.
 */
export class Metrics {
  readonly registry = processRegistry();
  private readonly apiRequests = new Counter({
    name: 'vigil_api_requests_total',
    help: 'API requests by script and outcome code ("0" for success, else the error code)',
    labelNames: ['script', 'code'],
    registers: [this.registry],
  });
  private readonly apiSeconds = new Histogram({
    name: 'vigil_api_request_duration_seconds',
    help: 'API request latency by script',
    labelNames: ['script'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });
  private readonly logins = new Counter({
    name: 'vigil_logins_refused_total',
    help: 'auth.php calls refused: failed (wrong key, userid or password) or throttled',
    labelNames: ['outcome'],
    registers: [this.registry],
  });
  private readonly cycles = new Counter({
    name: 'vigil_distribution_cycles_total',
    help: 'distribution cycles run by this server',
    registers: [this.registry],
  });
  private readonly cycleSeconds = new Histogram({
    name: 'vigil_distribution_cycle_duration_seconds',
    help: 'duration of a distribution cycle',
    buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 30],
    registers: [this.registry],
  });
  private readonly zones = new Counter({
    name: 'vigil_distribution_zones_total',
    help: "zones distributed (new versions) and removed by this server's cycles",
    labelNames: ['change'],
    registers: [this.registry],
  });
  private readonly healthFindings = new Counter({
    name: 'vigil_zone_health_findings_total',
    help: 'findings of zone-health checks (dnsCheckDomain.php) by level',
    labelNames: ['level'],
    registers: [this.registry],
  });
  private readonly healthChecks = new Counter({
    name: 'vigil_zone_health_checks_total',
    help: 'zone-health checks run (dnsCheckDomain.php)',
    registers: [this.registry],
  });

  private readonly audits = new AuditMetrics(this.registry);
  /** The publish and signing threads' jobs (src/dns/job-thread.ts): their runners report here. */
  readonly threads = new ThreadMetrics(this.registry);

  /**
   * `zoneNames` (serve --metrics-zone-names): a series per served zone, named. Off by default: the scrape
   * would list every tenant's domains to whoever reaches the listener (issue 28).
   */
  constructor(
    private readonly scripts: ReadonlySet<string>,
    private readonly zoneNames = false,
  ) {
    // Every level a series from the first scrape, before any check: rate() then sees the first findings.
    for (const level of HEALTH_LEVELS) this.healthFindings.inc({ level }, 0);
  }

  /** One API request; unknown script names are one label value, so a scanner cannot grow the series. */
  api(script: string | null, code: string | null, seconds: number): void {
    const name = script && this.scripts.has(script) ? script : 'unknown';
    this.apiRequests.inc({ script: name, code: code ?? '0' });
    this.apiSeconds.observe({ script: name }, seconds);
  }

  login(outcome: 'failed' | 'throttled'): void {
    this.logins.inc({ outcome });
  }

  cycle(facts: CycleFacts): void {
    this.cycles.inc();
    this.cycleSeconds.observe(facts.ms / 1000);
    this.zones.inc({ change: 'distributed' }, facts.distributed.length);
    this.zones.inc({ change: 'removed' }, facts.removed.length);
  }

  /** One zone-health check and its findings; every level is a series from the start (0 until seen). */
  zoneHealth(findings: readonly { level: string }[]): void {
    this.healthChecks.inc();
    for (const level of HEALTH_LEVELS)
      this.healthFindings.inc({ level }, findings.filter((f) => f.level === level).length);
  }

  audit(e: AuditEnded): void {
    this.audits.ended(e);
  }

  /** The counters kept elsewhere (the name server's hot path among them). */
  attach(s: MetricSources): void {
    const r = this.registry;
    mirroredCounter(
      r,
      'vigil_dns_responses_total',
      'DNS replies answered in JavaScript, by transport and RCODE (native cache hits: vigil_dns_native_cache_total)',
      ['transport', 'rcode'],
      () => {
        const t = s.dns.totals();
        const out: [Record<string, string>, number][] = [];
        t.replies.forEach((n, i) => {
          if (n > 0)
            out.push([{ transport: TRANSPORTS[Math.floor(i / 16)]!, rcode: RCODE_NAMES[i % 16] ?? String(i % 16) }, n]);
        });
        return out;
      },
    );
    mirroredCounter(
      r,
      'vigil_dns_native_cache_total',
      'UDP queries seen by the native I/O: answered from its cache (hit) or passed on (miss), and dropped',
      ['result'],
      () => {
        const { native } = s.dns.totals();
        return [
          [{ result: 'hit' }, native.hits],
          [{ result: 'miss' }, native.misses],
          [{ result: 'dropped' }, native.dropped],
        ];
      },
    );
    mirroredCounter(
      r,
      'vigil_dns_native_cache_cleared_total',
      'Cached UDP replies the native I/O dropped because their zone changed (the other zones keep theirs)',
      [],
      () => [[{}, s.dns.totals().native.cleared ?? 0]],
    );
    if (s.reloads) {
      const reloads = s.reloads;
      mirroredCounter(
        r,
        'vigil_dns_reload_reads_total',
        "The serving set's reloads: (zone, serial) rows and snapshots read, zone versions indexed, full serial reads",
        ['what'],
        () => {
          const x = reloads();
          return [
            [{ what: 'serials' }, x.serials],
            [{ what: 'snapshots' }, x.reads],
            [{ what: 'indexed' }, x.builds],
            [{ what: 'full' }, x.fullReads],
          ];
        },
      );
    }
    mirroredCounter(
      r,
      'vigil_dns_rrl_total',
      'UDP responses held back by response rate limiting: dropped, or sent empty with TC instead (slip)',
      ['action'],
      () => {
        const { rrl } = s.dns.totals();
        return [
          [{ action: 'drop' }, rrl.dropped],
          [{ action: 'slip' }, rrl.slipped],
        ];
      },
    );
    mirroredCounter(r, 'vigil_dns_zone_transfers_total', 'AXFR/IXFR asked of this server over TCP', ['outcome'], () => {
      const { transfers } = s.dns.totals();
      return [
        [{ outcome: 'served' }, transfers.served],
        [{ outcome: 'refused' }, transfers.refused],
      ];
    });
    mirroredCounter(
      r,
      'vigil_dns_notify_total',
      'NOTIFY messages sent (retries included), peers that acknowledged or never answered, NOTIFYs held back from unresponsive peers',
      ['event'],
      () => [
        [{ event: 'sent' }, s.notify.sent],
        [{ event: 'acknowledged' }, s.notify.acknowledged],
        [{ event: 'unanswered' }, s.notify.unanswered],
        [{ event: 'deferred' }, s.notify.deferred],
      ],
    );
    new Gauge({
      name: 'vigil_dns_notify_unresponsive_peers',
      help: 'NOTIFY targets unresponsive now: each gets one NOTIFY a round until it answers (docs/secondaries.md)',
      registers: [r],
      collect() {
        this.set(s.notify.unresponsive);
      },
    });
    mirroredCounter(
      r,
      'vigil_dns_slave_transfers_total',
      'transfers of slave zones from their masters',
      ['outcome'],
      () => [
        [{ outcome: 'stored' }, s.slaves.transfers],
        [{ outcome: 'failed' }, s.slaves.failures],
      ],
    );
    new Gauge({
      name: 'vigil_distribution_next_cycle_timestamp_seconds',
      help: 'when this server runs its next distribution cycle (Unix time)',
      registers: [r],
      collect() {
        this.set(s.nextCycleAt() / 1000);
      },
    });
    new Gauge({
      name: 'vigil_zones_served',
      help: 'zones this server answers for (the catalog zone not counted); their names with --metrics-zone-names',
      registers: [r],
      collect() {
        this.set([...s.servedSerials()].length);
      },
    });
    if (this.zoneNames)
      new Gauge({
        name: 'vigil_zone_served_serial',
        help: 'the SOA serial this server answers for each zone ("when is my change live": compare with the serial a publish gave)',
        labelNames: ['zone'],
        registers: [r],
        collect() {
          // Zones leave the set when deleted: start from nothing each scrape.
          this.reset();
          for (const [zone, serial] of s.servedSerials()) this.set({ zone }, serial);
        },
      });
    this.audits.queue(s.audits);
  }
}
