import { defineCheck } from '../kit.ts';
import type { Net } from '../../engine/types.ts';
import { type AmqpStart, amqpLogin } from '../../proto/amqp.ts';
import { amqp10Anonymous } from '../../proto/amqp10.ts';
import { shown } from '../../proto/talk.ts';

/**
 * An AMQP 0-9-1 broker that lets a client in without a secret: the SASL
 * ANONYMOUS mechanism when the broker offers it (RabbitMQ 4's
 * anonymous_login_user), else the vendor's documented default account —
 * guest/guest, which RabbitMQ, LavinMQ and Qpid create on first start
 * (RabbitMQ lets guest in only from loopback unless `loopback_users = none`,
 * the classic misconfiguration). Keyed on the protocol (Connection.Start,
 * §1.4.2.1) and the product it names, one or two logins, never a list.
 * Proof is Open-Ok on virtual host "/": the broker accepted the login and
 * opened a session; a Connection.Close 403 ACCESS_REFUSED or a closed
 * socket is not a finding. An AMQP 1.0 broker (Artemis, Qpid, ActiveMQ's
 * AMQP connector, RabbitMQ's amqp1_0 plugin) is asked through SASL: when
 * it offers ANONYMOUS and its sasl-outcome is ok, the proof is its own
 * `open` performative answering ours.
 */
const DEFAULTS: [RegExp, [string, string][]][] = [
  [
    /qpid/i,
    [
      ['guest', 'guest'],
      ['admin', 'admin'],
    ],
  ],
  [/./, [['guest', 'guest']]], // RabbitMQ, LavinMQ, and the convention of the 0-9-1 ecosystem
];

const named = (s: AmqpStart) =>
  [s.properties.product, s.properties.version].filter(Boolean).join(' ') || `AMQP ${s.version}`;

export default defineCheck({
  id: 'vigil.amqp.default-credentials',
  shortid: 'AMQP-DEFAULT-LOGIN',
  title: 'AMQP broker accepts the default guest login',
  family: 'General',
  // One documented default login (guest/guest), as anonymous FTP: safe (engine/types.ts CheckClass).
  categories: ['safe', 'auth', 'default'],
  risk: 'high',
  type: 'HOLE',
  qod: 99,
  description:
    'The AMQP message broker opened a session for a client that used no secret of its own (the ANONYMOUS mechanism, or the default account such as guest/guest): anyone who reaches the port can read every queue it may, publish into the applications that consume them, and with an administrator tag reconfigure the broker.',
  solution:
    'Delete the guest account or give it a strong password (rabbitmqctl delete_user guest), keep loopback_users at its default, disable the ANONYMOUS mechanism (auth_mechanisms), and use TLS (5671) with per-application users.',
  references: ['https://www.rabbitmq.com/docs/access-control#default-state'],
  ports: { services: ['amqp'], ports: [5672] },
  run: async ({ net, port }) => {
    const anonymous = await amqpLogin(net, port, 'ANONYMOUS');
    if (anonymous?.login.ok)
      return `Connection.Start from ${shown(named(anonymous.start), 60)} offered ${anonymous.start.mechanisms.join(' ')}; Start-Ok with ANONYMOUS (no user, no password) was answered Connection.Tune and Open-Ok on virtual host "/".`;
    const first = await amqpLogin(net, port, 'PLAIN', 'guest', 'guest');
    if (!first) return amqp10(net, port);
    const product = first.start.properties.product ?? '';
    const pairs = DEFAULTS.find(([re]) => re.test(product))![1];
    for (const [i, [user, password]] of pairs.entries()) {
      const r = i === 0 ? first : await amqpLogin(net, port, 'PLAIN', user, password);
      if (!r?.login.ok) continue;
      const t = r.login.tune;
      return `Connection.Start from ${shown(named(r.start), 60)} (platform ${shown(r.start.properties.platform ?? '?', 40)}) offered ${r.start.mechanisms.join(' ')}; Start-Ok with PLAIN "${user}"/"${password}" was answered Connection.Tune (channel-max ${t.channelMax}, frame-max ${t.frameMax}) and Open-Ok on virtual host "/".`;
    }
    return amqp10(net, port);
  },
});

/** AMQP 1.0: SASL ANONYMOUS accepted and the connection opened. */
async function amqp10(net: Net, port: number): Promise<string | null> {
  const r = await amqp10Anonymous(net, port);
  if (!r?.opened) return null;
  return `AMQP 1.0: sasl-mechanisms offered ${shown(r.mechanisms.join(' '), 60)}; sasl-init ANONYMOUS was answered sasl-outcome ok, and our open was answered by the broker's open (container-id "${shown(r.opened.containerId, 60)}").`;
}
