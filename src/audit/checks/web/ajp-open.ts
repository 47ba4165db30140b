import { randomBytes } from 'node:crypto';
import { defineCheck } from '../kit.ts';
import { ajpForward, answered } from '../../proto/ajp.ts';

/**
 * An AJP/1.3 connector (Tomcat, JBoss/WildFly, Jetty, GlassFish) that
 * serves anyone: a FORWARD_REQUEST with no secret is handed to the
 * applications. AJP trusts its peer to be the front web server, so the
 * request carries the client address, the TLS state and the user as the
 * sender claims them: IP-based restrictions (Tomcat's RemoteAddrValve,
 * which Debian's Manager uses) see the address the scanner wrote, and
 * controls of the front server are skipped. Tomcat 9.0.31+ and 10 refuse a
 * request without the connector's `secret` with 403 (AjpProcessor, the
 * fix of CVE-2020-1938); so does a front-end check of any make. A 403 is
 * ambiguous (an application may answer it too): only another status for /
 * or for a random path proves the request reached an application.
 */
export default defineCheck({
  id: 'vigil.ajp.open',
  shortid: 'AJP-OPEN',
  title: 'AJP connector forwards requests from anyone (no secret)',
  family: 'Web Servers',
  categories: ['safe', 'auth', 'default'],
  risk: 'medium',
  type: 'HOLE',
  description:
    'The servlet container accepts AJP requests without a shared secret from a host that is not its front web server. AJP trusts the sender for the client address, TLS state and remote user, so anyone reaching the port bypasses the front server and address-based restrictions, and may reach files and applications the front server never exposes (CVE-2020-1938, Ghostcat, on containers that accept request attributes).',
  solution:
    'Disable the AJP connector if no front server uses it (Tomcat: remove <Connector protocol="AJP/1.3"> from server.xml). Otherwise bind it to the front server\'s address only (address="127.0.0.1"), require a secret (secretRequired="true" secret="…", the same in mod_jk\'s or mod_proxy_ajp\'s worker), and firewall port 8009.',
  // No CVE: an open connector of a fixed Tomcat is not CVE-2020-1938 (vigil.ajp.file-read proves that one).
  references: [
    'https://tomcat.apache.org/tomcat-10.1-doc/config/ajp.html',
    'https://tomcat.apache.org/connectors-doc/ajp/ajpv13a.html',
  ],
  ports: { services: ['ajp13'], ports: [8009] },
  run: async ({ net, port }) => {
    for (const uri of ['/', `/vigil-${randomBytes(4).toString('hex')}`]) {
      const r = await ajpForward(net, port, { uri });
      if (!r) return null;
      if (r.status !== 403 && r.status >= 100)
        return `FORWARD_REQUEST GET ${uri} with no secret, remote_addr ${net.address}: the container answered ${answered(r)}, so the request reached its applications.`;
    }
    return null;
  },
});
