import { defineCheck } from '../kit.ts';
import { jmxConnectors, jmxNewClient } from '../../proto/java-rmi.ts';
import { shown } from '../../proto/talk.ts';

/**
 * The pairs the JDK's own template names: jmxremote.password.template
 * (conf/management/ of every OpenJDK and Oracle JDK) shows
 * "monitorRole  QED" and "controlRole   R&D" as its example entries, and
 * copying the template is how a password file is usually made. Nothing
 * else is tried (never a dictionary).
 */
const PAIRS: readonly (readonly [string, string])[] = [
  ['monitorRole', 'QED'],
  ['controlRole', 'R&D'],
];

/**
 * JMX remote with authentication on, accepting one of the JDK template's
 * example passwords: RMIServer.newClient with {user, password} returned an
 * RMIConnection, after newClient(null) was refused (an open connector is
 * vigil.jmx.noauth's). A login with credentials: `intrusive`, `advanced`
 * only. The connection is closed at once; no MBean is read or invoked.
 */
export default defineCheck({
  id: 'vigil.jmx.default-credentials',
  shortid: 'JMX-DEFAULT-CREDS',
  title: "JMX remote accepts the JDK template's example password",
  family: 'General',
  categories: ['intrusive', 'auth', 'default'],
  risk: 'high',
  type: 'HOLE',
  description:
    "The JMX connector accepted a user and password from the JDK's jmxremote.password.template (monitorRole/QED, controlRole/R&D): anyone who knows the template reads every MBean of the JVM, and with controlRole changes them, stops the JVM and on most JVMs loads and runs code (MLet).",
  solution:
    'Give each JMX role a long random password in the password file (mode 0600), keep only the roles that are needed in the access file (readonly where possible), enable TLS (com.sun.management.jmxremote.ssl=true) and firewall the registry and RMI ports.',
  references: [
    'https://docs.oracle.com/en/java/javase/17/management/monitoring-and-management-using-jmx-technology.html#GUID-F08985BB-629A-4FBF-A0CB-8762DF7590E0',
  ],
  ports: { services: ['java-rmi', 'rmiregistry'], ports: [1099] },
  run: async ({ net, port }) => {
    for (const { name, stub } of await jmxConnectors(net, port)) {
      if (!stub.ref || stub.ref.factory) continue;
      // Open without credentials: that finding is vigil.jmx.noauth's, and any pair would "work".
      if (await jmxNewClient(net, stub.ref, null)) continue;
      for (const [user, password] of PAIRS) {
        const proof = await jmxNewClient(net, stub.ref, [user, password]);
        if (proof)
          return `Registry.lookup("${shown(name, 60)}") returned a JMX connector on port ${stub.ref.port}; RMIServer.newClient(null) was refused, and newClient({"${user}", "${password}"}) returned ${shown(proof, 80)}: logged in with the JDK template's example password (closed again at once; no MBean was read).`;
      }
    }
    return null;
  },
});
