import { defineCheck } from '../kit.ts';
import { registryList } from '../../proto/java-rmi.ts';
import { shown } from '../../proto/talk.ts';

/**
 * A Java RMI registry answering Registry.list() (nmap's rmi-dumpregistry):
 * the names bound there ("jmxrmi" is a JMX connector). Every registry
 * answers list() to any client (JDK RegistryImpl limits only bind, rebind
 * and unbind to the local host), with or without authentication on the
 * objects behind the names, so this is information: whether a connector
 * lets anyone in is vigil.jmx.noauth's proof.
 */
export default defineCheck({
  id: 'vigil.rmi.registry',
  shortid: 'RMI-REGISTRY',
  title: 'Java RMI registry lists its objects',
  family: 'General',
  categories: ['safe', 'discovery', 'default'],
  risk: 'other',
  type: 'LOG',
  description:
    'A Java RMI registry is reachable and lists the remote objects bound in it (JMX connectors, application services). RMI endpoints deserialize what clients send, a frequent source of remote code execution in outdated JVMs and libraries; expose them to management networks only.',
  solution:
    'Firewall the registry and the RMI ports from untrusted networks, bind JMX to a management address (com.sun.management.jmxremote.host) and keep the JVM current (deserialization filters, JEP 290).',
  references: ['https://docs.oracle.com/en/java/javase/17/docs/specs/rmi/protocol.html'],
  ports: { services: ['java-rmi', 'rmiregistry'], ports: [1099] },
  run: async ({ net, port }) => {
    const names = await registryList(net, port);
    if (names === null) return null;
    const shownNames = names.slice(0, 12).map((n) => `"${shown(n, 60)}"`);
    return `Registry.list() (JRMP call to ObjID 0, operation 1) returned ${names.length} name${names.length === 1 ? '' : 's'}${names.length ? `: ${shownNames.join(', ')}${names.length > 12 ? ', …' : ''}` : ''}.`;
  },
});
