import { defineCheck } from '../kit.ts';
import { asRecord } from '../../proto/http-json.ts';
import { envelope, promGet, runningFlags } from '../../proto/prometheus.ts';
import { shown } from '../../proto/talk.ts';
import { listed } from './lib/monitoring-config.ts';
import { promStackCandidate, STACK_PORTS, tlsOf } from './lib/prometheus-stack.ts';

/**
 * A Prometheus Pushgateway that answers anyone. Its API reads and writes on
 * the same footing: the only access control it has is web.config's, over
 * every path alike (README "Security"), so GET /api/v1/status answered
 * without credentials means PUT, POST and DELETE of metric groups are
 * open too (the intrusive vigil.pushgateway.write proves it on the same
 * daemons, Debian's 1.5.1). A HOLE, medium: anyone can feed Prometheus
 * false values (silencing or raising the alerts built on pushed batch-job
 * metrics) or delete groups; the groups and their labels also show which
 * jobs run where.
 */
export default defineCheck({
  id: 'vigil.pushgateway.open',
  shortid: 'PUSHGATEWAY-OPEN',
  title: 'Prometheus Pushgateway open to anyone (metrics can be pushed and deleted)',
  family: 'General',
  categories: ['safe', 'auth', 'default'],
  risk: 'medium',
  type: 'HOLE',
  qod: 95,
  description:
    "The Pushgateway's API answered without credentials. It has no access control beyond that, so anyone who reaches it can push metric groups (values Prometheus then scrapes as if the batch jobs had sent them: alerts built on them go quiet or fire) and delete them, and read which jobs push what.",
  solution:
    'Require authentication (exporter-toolkit web.config basic_auth_users over TLS, --web.config.file) for the job hosts and Prometheus, or bind it where only they reach it.',
  references: ['https://github.com/prometheus/pushgateway#api', 'https://github.com/prometheus/pushgateway#security'],
  ports: { ports: STACK_PORTS, where: promStackCandidate },
  run: async ({ net, port, service }) => {
    const tls = tlsOf(service);
    const f = await runningFlags(net, port, tls);
    if (f?.product !== 'Pushgateway') return null;
    const groups = envelope(await promGet(net, port, tls, '/api/v1/metrics'));
    const jobs = Array.isArray(groups)
      ? groups.map((g) => {
          const labels = asRecord(asRecord(g)?.labels) ?? {};
          return Object.entries(labels)
            .map(([k, v]) => `${k}=${String(v)}`)
            .join(',');
        })
      : null;
    const list = jobs
      ? `; GET /api/v1/metrics listed ${jobs.length} metric group(s): ${shown(listed(jobs, 5), 200)}`
      : '';
    return `Pushgateway${f.version ? ` ${shown(f.version, 24)}` : ''}: ${f.via} was answered 200 without credentials (build information and flags)${list}. Its API has no other access control: pushes and deletes are open too.`;
  },
});
