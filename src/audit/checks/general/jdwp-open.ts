import { defineCheck } from '../kit.ts';
import { JDWP_PORTS, jdwpVersion } from '../../proto/jdwp.ts';
import { shown } from '../../proto/talk.ts';

/**
 * A Java VM started with a JDWP agent listening to the network
 * (-agentlib:jdwp=transport=dt_socket,server=y,address=*:5005, Tomcat's
 * `catalina.sh jpda`, an IDE's remote-debug run configuration): the debug
 * protocol has no authentication, and a debugger loads classes and
 * invokes any method (Runtime.exec included: nmap's jdwp-exec does it).
 * Proof: the handshake echoed and VirtualMachine.Version answered, as
 * nmap's jdwp-version asks; nothing is suspended, loaded or invoked.
 */
export default defineCheck({
  id: 'vigil.jdwp.open',
  shortid: 'JDWP-OPEN',
  title: 'Java debug port (JDWP) open to the network',
  family: 'General',
  categories: ['safe', 'vuln', 'default'],
  risk: 'high',
  type: 'HOLE',
  qod: 99,
  description:
    "A Java VM answers the Java Debug Wire Protocol, which has no authentication: anyone who reaches the port attaches a debugger, reads and changes the application's memory and runs any code in the VM (Runtime.exec) as its user.",
  solution:
    'Remove the -agentlib:jdwp (or -Xrunjdwp, JPDA_OPTS) option from production start scripts; where remote debugging is needed, bind it to 127.0.0.1 (address=127.0.0.1:5005) and reach it through an SSH tunnel.',
  references: ['https://docs.oracle.com/en/java/javase/17/docs/specs/jpda/conninv.html'],
  ports: { services: ['jdwp'], ports: JDWP_PORTS },
  run: async ({ net, port }) => {
    // The agent takes one debugger at a time and listens again only after the last one left (detection's
    // probe, a moment ago): measured on OpenJDK 17, connections in the next ~50 ms are refused. A quick
    // failure is tried again, up to 4 times; silence (no VM re-listening) is not.
    let v: Awaited<ReturnType<typeof jdwpVersion>> = null;
    for (let i = 0; i < 4 && !v; i++) {
      if (i) await new Promise((r) => setTimeout(r, 150));
      const t0 = Date.now();
      v = await jdwpVersion(net, port);
      if (!v && Date.now() - t0 > 500) break;
    }
    if (!v) return null;
    return `"JDWP-Handshake" was echoed and VirtualMachine.Version answered "${shown(v.description.split('\n')[0] ?? '', 100)}" (JDWP ${shown(v.jdwp, 10)}, ${shown(v.vmName, 60)} ${shown(v.vmVersion, 30)}).`;
  },
});
