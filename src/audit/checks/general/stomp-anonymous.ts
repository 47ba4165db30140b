import { defineCheck } from '../kit.ts';
import { stompConnect } from '../../proto/stomp.ts';
import { shown } from '../../proto/talk.ts';

/**
 * A STOMP broker accepting a CONNECT with no `login` and no `passcode`
 * header: ActiveMQ Classic without an authentication plugin, Artemis with
 * anonymous access, RabbitMQ's STOMP plugin falling back to its
 * default_user (guest) for a login-less CONNECT, Apollo, CoilMQ. Keyed on
 * the protocol, not a banner: the CONNECTED frame (STOMP 1.2 "Connecting")
 * is the proof; an ERROR frame ("Access refused", "User name [null] or
 * password is invalid") or silence is not a finding.
 */
export default defineCheck({
  id: 'vigil.stomp.anonymous',
  shortid: 'STOMP-ANON',
  title: 'STOMP broker accepts clients without credentials',
  family: 'General',
  categories: ['safe', 'auth', 'default'],
  risk: 'high',
  type: 'HOLE',
  qod: 99,
  description:
    "The STOMP message broker accepted a CONNECT frame that carried no login and no passcode: anyone who reaches the port can subscribe to the broker's queues and topics and read the messages, and send messages that applications will act on.",
  solution:
    'Require authentication on the STOMP connector (ActiveMQ: simpleAuthenticationPlugin or a JAAS plugin with anonymousAccessAllowed false; Artemis: security-enabled with no anonymous role; RabbitMQ: remove guest, or set stomp.default_user to none) and prefer STOMP over TLS (61614).',
  references: ['https://stomp.github.io/stomp-specification-1.2.html#CONNECT_or_STOMP_Frame'],
  ports: { services: ['stomp'], ports: [61613] },
  run: async ({ net, port }) => {
    const r = await stompConnect(net, port);
    if (r?.reply.command !== 'CONNECTED') return null;
    const h = r.reply.headers;
    const said = ['server', 'version', 'session']
      .filter((k) => h[k])
      .map((k) => `${k}:${shown(h[k]!, 60)}`)
      .join(', ');
    return `CONNECT (accept-version 1.0,1.1,1.2${r.sent.includes('host:') ? ', host /' : ''}; no login, no passcode) was answered CONNECTED (${said || 'no headers'}).`;
  },
});
