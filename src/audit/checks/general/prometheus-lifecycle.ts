import { defineCheck } from '../kit.ts';
import { runningFlags } from '../../proto/prometheus.ts';
import { shown } from '../../proto/talk.ts';
import { promStackCandidate, STACK_PORTS, tlsOf } from './lib/prometheus-stack.ts';

/**
 * The lifecycle endpoints (--web.enable-lifecycle: POST /-/quit stops the
 * server, POST /-/reload rereads its files) of Prometheus or the
 * Pushgateway, on a server that lets anyone in. Proof: the flag as the
 * server reports it to the same unauthenticated client; /-/quit is never
 * called (it would stop the service), and a GET of it proves nothing (405
 * whether enabled or not, measured on Prometheus 2.42). Medium: the
 * monitoring can be stopped, not read or altered.
 */
export default defineCheck({
  id: 'vigil.prometheus.lifecycle',
  shortid: 'PROMETHEUS-LIFECYCLE',
  title: 'Prometheus / Pushgateway lifecycle API (/-/quit) open to anyone',
  family: 'General',
  categories: ['safe', 'auth', 'default'],
  risk: 'medium',
  type: 'HOLE',
  qod: 95,
  description:
    'The server runs with --web.enable-lifecycle and answers without credentials: anyone who reaches it can stop it with POST /-/quit (monitoring and alerting go dark until someone restarts it) or make it reload its configuration.',
  solution:
    'Drop --web.enable-lifecycle (reload with SIGHUP instead), or require authentication on every path (exporter-toolkit web.config basic_auth_users over TLS, --web.config.file).',
  references: ['https://prometheus.io/docs/prometheus/latest/management_api/'],
  ports: { ports: STACK_PORTS, where: promStackCandidate },
  run: async ({ net, port, service }) => {
    const f = await runningFlags(net, port, tlsOf(service));
    if (f?.flags['web.enable-lifecycle'] !== 'true') return null;
    return `${f.product}${f.version ? ` ${shown(f.version, 24)}` : ''}: ${f.via} was answered 200 without credentials and reports web.enable-lifecycle = true, so POST /-/quit and /-/reload serve anyone too (not called: /-/quit stops the server).`;
  },
});
