import { defineCheck } from '../kit.ts';
import { runningFlags } from '../../proto/prometheus.ts';
import { shown } from '../../proto/talk.ts';
import { promStackCandidate, STACK_PORTS, tlsOf } from './lib/prometheus-stack.ts';

/**
 * The admin API of Prometheus (--web.enable-admin-api: POST
 * /api/v1/admin/tsdb/delete_series, clean_tombstones, snapshot) or of the
 * Pushgateway (same flag: PUT /api/v1/admin/wipe), on a server that lets
 * anyone in. Proof: the flag as the server itself reports it to the same
 * unauthenticated client (Prometheus's /api/v1/status/flags, the
 * Pushgateway's /api/v1/status). No admin endpoint is called: none of them
 * is a read (delete_series and wipe destroy data, snapshot writes a copy
 * of the database to disk), and web.config's authentication, the only one
 * these servers have, guards the admin paths exactly as the status path
 * that answered. QoD 95, not 99: a proxy in front could still block the
 * admin paths alone.
 */
export default defineCheck({
  id: 'vigil.prometheus.admin-api',
  shortid: 'PROMETHEUS-ADMIN',
  title: 'Prometheus / Pushgateway admin API enabled and open to anyone',
  family: 'General',
  categories: ['safe', 'auth', 'default'],
  risk: 'high',
  type: 'HOLE',
  qod: 95,
  description:
    "The server runs with --web.enable-admin-api and answers without credentials: anyone who reaches it can delete any time series from Prometheus's database (delete_series, clean_tombstones), fill its disk with snapshots, or wipe every metric group of a Pushgateway, erasing the evidence and blinding the alerts built on it.",
  solution:
    'Drop --web.enable-admin-api unless an administrator needs it now (Debian: ARGS in /etc/default/prometheus or prometheus-pushgateway), and require authentication on every path (exporter-toolkit web.config basic_auth_users over TLS, --web.config.file).',
  references: [
    'https://prometheus.io/docs/prometheus/latest/querying/api/#tsdb-admin-apis',
    'https://github.com/prometheus/pushgateway#api',
  ],
  ports: { ports: STACK_PORTS, where: promStackCandidate },
  run: async ({ net, port, service }) => {
    const f = await runningFlags(net, port, tlsOf(service));
    if (f?.flags['web.enable-admin-api'] !== 'true') return null;
    const admin =
      f.product === 'Prometheus'
        ? 'POST /api/v1/admin/tsdb/delete_series, clean_tombstones and snapshot'
        : 'PUT /api/v1/admin/wipe';
    return `${f.product}${f.version ? ` ${shown(f.version, 24)}` : ''}: ${f.via} was answered 200 without credentials and reports web.enable-admin-api = true, so ${admin} ${f.product === 'Prometheus' ? 'serve' : 'serves'} anyone too (not called: ${f.product === 'Prometheus' ? 'they delete or write' : 'it deletes'} data).`;
  },
});
