import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { AuditEnded } from './audit/runner.ts';
import { closedByListener } from './net/connection-cap.ts';

/**
 * A registry with prom-client's process metrics (CPU, memory, open files, event-loop lag, GC), prefixed `vigil_`,
 * and what the listeners' connection caps closed.
 */
export function processRegistry(): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'vigil_' });
  connectionCapMetrics(registry);
  return registry;
}

/**
 * `vigil_connections_closed_total{listener, reason}`: connections the caps of src/net/connection-cap.ts closed
 * on each listener of this process (serve's https, http, dns-tcp with its DNS workers', forward, metrics; a
 * worker's metrics): `address_cap` refused over --max-connections-per-ip, `total_cap` refused at the listener's
 * total, `shed` an older connection closed at the total to take a newer one. Rising values are a flood.
 */
function connectionCapMetrics(registry: Registry): void {
  const last = new Map<string, number>();
  new Counter({
    name: 'vigil_connections_closed_total',
    help: 'connections closed by the listener caps: refused over the per-address cap or at the total, or shed at the total',
    labelNames: ['listener', 'reason'],
    registers: [registry],
    collect() {
      for (const [listener, c] of closedByListener())
        for (const [reason, n] of [
          ['address_cap', c.address],
          ['total_cap', c.total],
          ['shed', c.shed],
        ] as const) {
          const key = `${listener}|${reason}`;
          // inc by 0 at first: the series shows from the start.
          this.inc({ listener, reason }, Math.max(0, n - (last.get(key) ?? 0)));
          last.set(key, Math.max(n, last.get(key) ?? 0));
        }
    },
  });
}

/**
 * The audit series, shared by `serve` (src/metrics.ts) and `worker`
 * (`worker --metrics-port`): how long audits took, and the queue's depth.
 */
export class AuditMetrics {
  private readonly seconds: Histogram;
  private readonly hosts: Counter;

  constructor(private readonly registry: Registry) {
    // Issue 26: how many addresses the audits found up and down, so that a
    // range where discovery finds nothing (a firewall dropping the probes)
    // shows on a dashboard and not only in each report.
    this.hosts = new Counter({
      name: 'vigil_audit_hosts_total',
      help: 'addresses of the audits that ended, by host discovery state (up, down)',
      labelNames: ['state'],
      registers: [registry],
    });
    // Both series exist from the start at 0, so that rate() sees the first audit's increase.
    this.hosts.inc({ state: 'up' }, 0);
    this.hosts.inc({ state: 'down' }, 0);
    this.seconds = new Histogram({
      name: 'vigil_audit_duration_seconds',
      help: 'audits from start to end, by type and final state (done, failed)',
      labelNames: ['type', 'state'],
      // Audits run from seconds (basic, one address) to hours (advanced, a range).
      buckets: [1, 5, 15, 60, 300, 900, 1800, 3600, 7200, 14400],
      registers: [registry],
    });
  }

  ended(e: AuditEnded): void {
    this.seconds.observe({ type: e.type, state: e.state }, e.seconds);
    this.hosts.inc({ state: 'up' }, e.hostsUp);
    this.hosts.inc({ state: 'down' }, e.hostsDown);
  }

  /** `vigil_audits{state}`: read from the store at each scrape. */
  queue(depth: () => Promise<{ queued: number; running: number }>): void {
    new Gauge({
      name: 'vigil_audits',
      help: 'audits queued and running in the whole store',
      labelNames: ['state'],
      registers: [this.registry],
      async collect() {
        // A store that does not answer leaves the last values (healthz reports it).
        const d = await depth().catch(() => null);
        if (!d) return;
        this.set({ state: 'queued' }, d.queued);
        this.set({ state: 'running' }, d.running);
      },
    });
  }
}
