import { defineCheck } from '../kit.ts';
import { CONNACK, mqttAnonymousConnect } from '../../proto/mqtt.ts';

/**
 * An MQTT broker accepting clients without credentials (Mosquitto's
 * allow_anonymous true, EMQX and RabbitMQ's MQTT plugin with anonymous
 * access, HiveMQ's allow-all extension): keyed on the protocol, the
 * CONNACK return code 0 to a CONNECT with no user name or password, not on
 * any product's banner. A broker that wants credentials answers 5 (not
 * authorized) or 4, or closes the connection (MQTT 3.1.1 §3.2.2.3).
 */
export default defineCheck({
  id: 'vigil.mqtt.anonymous',
  shortid: 'MQTT-ANON',
  title: 'MQTT broker accepts anonymous clients',
  family: 'General',
  categories: ['safe', 'auth', 'default'],
  risk: 'high',
  type: 'HOLE',
  description:
    'The MQTT broker lets anyone connect without a user name or password: any client can subscribe to every topic (#) and read what devices report, and publish commands to them.',
  solution:
    'Require authentication (Mosquitto: allow_anonymous false with password_file or an auth plugin; EMQX/RabbitMQ/HiveMQ: disable anonymous access), restrict topics with ACLs, and prefer TLS (8883).',
  references: ['https://docs.oasis-open.org/mqtt/mqtt/v3.1.1/os/mqtt-v3.1.1-os.html#_Toc398718035'],
  ports: { services: ['mqtt'], ports: [1883] },
  run: async ({ net, port }) => {
    const code = await mqttAnonymousConnect(net, port);
    return code === 0
      ? `CONNECT (MQTT 3.1.1) with no user name and no password was answered CONNACK return code 0 (${CONNACK[0]}).`
      : null;
  },
});
