import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Registry } from 'prom-client';
import { AuditMetrics } from './metrics-process.ts';

// Issue 26: `vigil_audit_hosts_total{state}` adds up the addresses that the
// audits found up and down (the end-to-end count, from a worker's /metrics
// after a real /24 audit: test/console-hosts.test.ts).

test('vigil_audit_hosts_total: both series from the start, each audit adds its hosts, a failed one nothing', async () => {
  const registry = new Registry();
  const m = new AuditMetrics(registry);
  const value = async (state: string) =>
    (await registry.getSingleMetric('vigil_audit_hosts_total')!.get()).values.find((v) => v.labels.state === state)
      ?.value;
  assert.deepEqual([await value('up'), await value('down')], [0, 0]);
  m.ended({ type: 'standard', state: 'done', seconds: 20, hostsUp: 3, hostsDown: 253 });
  m.ended({ type: 'basic', state: 'done', seconds: 2, hostsUp: 1, hostsDown: 0 });
  m.ended({ type: 'basic', state: 'failed', seconds: 1, hostsUp: 0, hostsDown: 0 });
  assert.deepEqual([await value('up'), await value('down')], [4, 253]);
  assert.match(await registry.metrics(), /^# TYPE vigil_audit_hosts_total counter$/m);
});
