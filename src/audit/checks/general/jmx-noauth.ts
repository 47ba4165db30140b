import { defineCheck } from '../kit.ts';
import { jmxConnectors, jmxNewClient } from '../../proto/java-rmi.ts';
import { shown } from '../../proto/talk.ts';

/**
 * JMX remote (the JVM's own agent with
 * -Dcom.sun.management.jmxremote.authenticate=false, ActiveMQ's and other
 * products' connectors) letting anyone in. The registry's names are looked
 * up; for a JMX connector stub (RMIServerImpl_Stub), RMIServer.newClient
 * is called with null credentials on the stub's port of the audited
 * address (never the host the stub names), as jconsole does. A connector
 * with authentication throws SecurityException ("Credentials required"),
 * which is not reported; only an RMIConnection stub coming back proves the
 * open connector. The connection is closed at once (RMIConnection.close):
 * no MBean is read or invoked, so the finding does not prove what the
 * MBeans allow (on the JVM's own agent, MLet loading and so code
 * execution, as Metasploit's java_jmx_server shows).
 */
export default defineCheck({
  id: 'vigil.jmx.noauth',
  shortid: 'JMX-NOAUTH',
  title: 'JMX remote management without authentication',
  family: 'General',
  categories: ['safe', 'auth', 'vuln', 'default'],
  risk: 'high',
  type: 'HOLE',
  description:
    'A JMX connector accepted a client that presented no credentials: anyone reaching it can read and change every MBean of the JVM, stop it, and on most JVMs load and run code of their choosing (javax.management.loading.MLet, or MBeans that run commands), which makes it remote code execution.',
  solution:
    'Require authentication and TLS on JMX (com.sun.management.jmxremote.authenticate=true with a password and an access file, com.sun.management.jmxremote.ssl=true), bind it to a management address (com.sun.management.jmxremote.host) or to localhost only (com.sun.management.jmxremote.local.only), and firewall the registry and RMI ports.',
  references: [
    'https://docs.oracle.com/en/java/javase/17/management/monitoring-and-management-using-jmx-technology.html',
    'https://www.rapid7.com/db/modules/exploit/multi/misc/java_jmx_server/',
  ],
  ports: { services: ['java-rmi', 'rmiregistry'], ports: [1099] },
  run: async ({ net, port }) => {
    for (const { name, stub } of await jmxConnectors(net, port)) {
      // A connector over TLS (UnicastRef2 with a socket factory) is not tried.
      if (!stub.ref || stub.ref.factory) continue;
      const proof = await jmxNewClient(net, stub.ref, null);
      if (proof)
        return `Registry.lookup("${shown(name, 60)}") returned ${shown(stub.className ?? 'a JMX connector stub', 80)} for port ${stub.ref.port} (named host ${shown(stub.ref.host, 60)}); RMIServer.newClient(null) on ${net.address}:${stub.ref.port} returned ${shown(proof, 80)}: a JMX connection without credentials (closed again at once; no MBean was read).`;
    }
    return null;
  },
});
