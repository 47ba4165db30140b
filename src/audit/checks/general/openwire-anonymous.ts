import { defineCheck } from '../kit.ts';
import { openWireConnect } from '../../proto/openwire.ts';
import { shown } from '../../proto/talk.ts';

/**
 * An ActiveMQ Classic broker (or anything speaking its OpenWire transport)
 * accepting a connection without credentials: ActiveMQ's default, with no
 * authentication plugin in activemq.xml. Keyed on the protocol: the
 * broker's WireFormatInfo greeting, then a ConnectionInfo with no user
 * name and no password answered Response, not ExceptionResponse. A broker
 * with simpleAuthenticationPlugin or a JAAS plugin answers
 * ExceptionResponse (SecurityException), which is not a finding.
 */
export default defineCheck({
  id: 'vigil.openwire.anonymous',
  shortid: 'OPENWIRE-ANON',
  title: 'ActiveMQ OpenWire accepts connections without credentials',
  family: 'General',
  categories: ['safe', 'auth', 'default'],
  risk: 'high',
  type: 'HOLE',
  qod: 99,
  description:
    "The ActiveMQ broker accepted an OpenWire connection that carried no user name and no password: anyone who reaches the port can browse and consume every queue and topic, send messages applications act on, and, through advisory topics, map the broker's clients.",
  solution:
    'Configure an authentication plugin in activemq.xml (simpleAuthenticationPlugin or jaasAuthenticationPlugin, with anonymousAccessAllowed false) and an authorizationPlugin, and use the ssl:// transport for clients that leave the host.',
  references: ['https://activemq.apache.org/components/classic/documentation/security'],
  ports: { services: ['apachemq', 'openwire', 'activemq'], ports: [61616] },
  run: async ({ net, port }) => {
    const r = await openWireConnect(net, port);
    if (!r?.accepted) return null;
    const p = r.greeting.properties;
    const who = [p.ProviderName, p.ProviderVersion].filter(Boolean).join(' ') || 'OpenWire';
    return `WireFormatInfo from ${shown(who, 40)} (OpenWire version ${r.greeting.version}); ConnectionInfo with no user name and no password was answered Response (accepted), not ExceptionResponse.`;
  },
});
