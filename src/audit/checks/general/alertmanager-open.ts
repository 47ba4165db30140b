import { defineCheck } from '../kit.ts';
import { alertmanagerStatus } from '../../proto/prometheus.ts';
import { shown } from '../../proto/talk.ts';
import { listed, secretsNote, summarizeConfig } from './lib/monitoring-config.ts';
import { promStackCandidate, STACK_PORTS, tlsOf } from './lib/prometheus-stack.ts';

/**
 * Alertmanager answering anyone: GET /api/v2/status hands out its whole
 * configuration (receivers, mail relay, webhook endpoints, and which of
 * them hold passwords or tokens: reported as present, never quoted, and
 * URLs cut to their host, lib/monitoring-config.ts). Its API has no access
 * control beyond web.config's, over every path alike, so the same client
 * can create silences (the intrusive vigil.alertmanager.silence proves it
 * on the same daemons). A HOLE, medium: the configuration is read; the
 * silencing it implies is the intrusive check's finding, high.
 */
export default defineCheck({
  id: 'vigil.alertmanager.open',
  shortid: 'ALERTMANAGER-OPEN',
  title: 'Alertmanager open to anyone (configuration readable, silences can be created)',
  family: 'General',
  categories: ['safe', 'auth', 'default'],
  risk: 'medium',
  type: 'HOLE',
  qod: 95,
  description:
    "Alertmanager's API answered without credentials: anyone who reaches it reads its configuration (who is paged and how: mail relays, webhook and chat endpoints, and which of them carry credentials), every alert firing, and can create silences that mute all notifications before an attack, or expire the operators' own.",
  solution:
    'Require authentication on every path (exporter-toolkit web.config basic_auth_users over TLS, --web.config.file), or bind --web.listen-address where only Prometheus and operators reach it; keep the cluster port (9094) off untrusted networks too.',
  references: [
    'https://prometheus.io/docs/alerting/latest/https/',
    'https://github.com/prometheus/alertmanager/blob/main/api/v2/openapi.yaml',
  ],
  ports: { ports: STACK_PORTS, where: promStackCandidate },
  run: async ({ net, port, service }) => {
    const st = await alertmanagerStatus(net, port, tlsOf(service));
    if (!st) return null;
    const c = summarizeConfig(st.yaml, 'name');
    const cluster = st.cluster ? `, cluster ${shown(st.cluster.status, 20)} with ${st.cluster.peers} peer(s)` : '';
    return `Alertmanager${st.version ? ` ${shown(st.version, 24)}` : ''}: ${st.via} was answered 200 without credentials with its configuration (${st.yaml.length} bytes${cluster}): receivers ${shown(listed(c.names), 120)}; endpoints ${shown(listed(c.hosts, 4), 200)}${secretsNote(c.secrets)}. Its API has no other access control: silences can be created too.`;
  },
});
