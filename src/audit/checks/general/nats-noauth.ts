import { defineCheck } from '../kit.ts';
import { natsConnect } from '../../proto/nats.ts';
import { shown } from '../../proto/talk.ts';

/**
 * A NATS server (nats-server, and the brokers that speak its client
 * protocol) serving clients without authentication: its INFO greeting
 * does not set auth_required, and a CONNECT with no user, password, token
 * or nkey followed by PING is answered PONG, which the server sends only
 * once the connection is accepted. A server with an `authorization` block
 * says auth_required and answers -ERR 'Authorization Violation'; that, or
 * a server requiring TLS first, is not a finding.
 */
export default defineCheck({
  id: 'vigil.nats.noauth',
  shortid: 'NATS-NOAUTH',
  title: 'NATS server accepts clients without authentication',
  family: 'General',
  categories: ['safe', 'auth', 'default'],
  risk: 'high',
  type: 'HOLE',
  qod: 99,
  description:
    'The NATS server accepted a client that presented no credentials: anyone who reaches the port can subscribe to every subject (">") and read what the services exchange, and publish requests they will act on.',
  solution:
    'Configure authentication in nats-server.conf (an authorization block with users, a token, nkeys or decentralized JWT accounts), give each client only the subjects it needs, and require TLS.',
  references: ['https://docs.nats.io/running-a-nats-service/configuration/securing_nats/auth_intro'],
  ports: { services: ['nats'], ports: [4222] },
  run: async ({ net, port }) => {
    const r = await natsConnect(net, port);
    if (!r || r.info.authRequired || r.answer !== 'PONG') return null;
    const who = [
      r.info.serverName && `server_name ${shown(r.info.serverName, 60)}`,
      r.info.version && `version ${shown(r.info.version, 20)}`,
    ]
      .filter(Boolean)
      .join(', ');
    return `INFO (${who || 'no version'}) did not set auth_required; CONNECT with no user, password or token, then PING, was answered PONG.`;
  },
});
