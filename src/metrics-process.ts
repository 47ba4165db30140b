import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { AuditEnded } from './audit/runner.ts';

/** A registry with prom-client's process metrics (CPU, memory, open files, event-loop lag, GC), prefixed `vigil_`. */
export function processRegistry(): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'vigil_' });
  return registry;
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
