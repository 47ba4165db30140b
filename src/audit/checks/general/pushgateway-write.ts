import { defineCheck } from '../kit.ts';
import { pushAndDelete, runningFlags } from '../../proto/prometheus.ts';
import { promStackCandidate, STACK_PORTS, tlsOf } from './lib/prometheus-stack.ts';

/** The scanner's own metric group: a name no real job has, deleted again at once. */
const JOB = 'vigil_scanner_test';

/**
 * A Pushgateway that takes pushes from anyone, proven by one: PUT
 * /metrics/job/vigil_scanner_test with one sample, then DELETE of that
 * group. Intrusive: it writes (for a moment Prometheus may scrape the
 * sample, and a Pushgateway with --persistence.file may save it until the
 * delete). Only on a port that named itself a Pushgateway (its
 * /api/v1/status).
 */
export default defineCheck({
  id: 'vigil.pushgateway.write',
  shortid: 'PUSHGATEWAY-WRITE',
  title: 'Prometheus Pushgateway accepts pushes and deletes from anyone',
  family: 'General',
  categories: ['intrusive', 'auth'],
  risk: 'medium',
  type: 'HOLE',
  qod: 99,
  description:
    'The Pushgateway accepted a metric group pushed without credentials and deleted it on request: anyone who reaches it can feed Prometheus false values (alerts built on them go quiet or fire) and delete the groups real jobs pushed. The test group (job="vigil_scanner_test", one sample) was deleted at once.',
  solution:
    'Require authentication (exporter-toolkit web.config basic_auth_users over TLS, --web.config.file) for the job hosts and Prometheus, or bind it where only they reach it.',
  references: ['https://github.com/prometheus/pushgateway#api'],
  ports: { ports: STACK_PORTS, where: promStackCandidate },
  run: async ({ net, port, service }) => {
    const tls = tlsOf(service);
    if ((await runningFlags(net, port, tls))?.product !== 'Pushgateway') return null;
    const w = await pushAndDelete(net, port, tls, JOB);
    if (!w) return null;
    return `PUT /metrics/job/${JOB} (one sample, "${JOB} 1") was answered HTTP ${w.put.status} without credentials; DELETE /metrics/job/${JOB} answered ${w.deleted ? `HTTP ${w.deleted.status}` : 'nothing'}, removing the group again.`;
  },
});
