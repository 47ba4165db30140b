import { randomBytes } from 'node:crypto';
import { defineCheck } from '../kit.ts';
import { alertmanagerStatus, silenceAndExpire } from '../../proto/prometheus.ts';
import { promStackCandidate, STACK_PORTS, tlsOf } from './lib/prometheus-stack.ts';

/**
 * Alertmanager taking silences from anyone, proven by one: a silence
 * matching only vigil_scanner_test="<random>" (a label no alert carries,
 * so nothing is muted), one minute long from the server's own clock, then
 * expired at once (DELETE /api/v2/silence/{id}). Intrusive: the expired
 * silence stays listed until Alertmanager's retention drops it
 * (--data.retention, 120 h by default) and is gossiped to its cluster
 * peers. Only on a port whose status named it Alertmanager.
 */
export default defineCheck({
  id: 'vigil.alertmanager.silence',
  shortid: 'ALERTMANAGER-SILENCE',
  title: 'Alertmanager accepts silences from anyone',
  family: 'General',
  categories: ['intrusive', 'auth'],
  risk: 'high',
  type: 'HOLE',
  qod: 99,
  description:
    'Alertmanager created a silence for a client without credentials: anyone who reaches it can mute every notification (a silence matching alertname=~".+") before an attack and expire it afterwards, so nobody is paged. The test silence matched only a label no alert carries (vigil_scanner_test) and was expired at once; it stays listed as expired until Alertmanager\'s data retention removes it.',
  solution:
    'Require authentication on every path (exporter-toolkit web.config basic_auth_users over TLS, --web.config.file), or bind --web.listen-address where only Prometheus and operators reach it.',
  references: ['https://github.com/prometheus/alertmanager/blob/main/api/v2/openapi.yaml'],
  ports: { ports: STACK_PORTS, where: promStackCandidate },
  run: async ({ net, port, service }) => {
    const tls = tlsOf(service);
    const st = await alertmanagerStatus(net, port, tls);
    if (!st) return null;
    const value = randomBytes(6).toString('hex');
    const s = await silenceAndExpire(net, port, tls, { name: 'vigil_scanner_test', value }, st.date ?? new Date());
    if (!s) return null;
    return `POST /api/v2/silences (matcher vigil_scanner_test="${value}", one minute) was answered 200 without credentials with silenceID ${s.id}; DELETE /api/v2/silence/${s.id} answered ${s.expired ? `HTTP ${s.expired.status}` : 'nothing'}, expiring it again.`;
  },
});
