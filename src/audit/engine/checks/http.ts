import type { Check, Finding, HostFacts, HttpInfo, Risk, Service } from '../types.ts';
import { HTTP_PROBE_CHECKS } from './http-probes.ts';

/**
 * Passive HTTP checks: they read the GET / answer service detection
 * recorded (Service.http; detection may use fetchHttpInfo from
 * http-client.ts). Checks that send requests of their own are in
 * http-probes.ts.
 */
type Look = (http: HttpInfo, svc: Service) => string | null;

function passive(
  id: string,
  shortid: string,
  title: string,
  risk: Risk,
  type: 'HOLE' | 'NOTE' | 'LOG',
  description: string,
  solution: string,
  look: Look,
): Check {
  return {
    id,
    shortid,
    title,
    category: 'Web Servers',
    risk,
    cves: [],
    type,
    description,
    solution,
    intrusive: false,
    dos: false,
    active: false,
    async run(host: HostFacts): Promise<Finding[]> {
      const findings: Finding[] = [];
      for (const svc of host.services) {
        if (!svc.http) continue;
        try {
          const detail = look(svc.http, svc);
          if (detail) findings.push({ port: svc.port, detail });
        } catch {
          // odd input costs this port only
        }
      }
      return findings;
    },
  };
}

const LISTING = [
  /<title>\s*Index of \//i,
  /<h1>\s*Index of \//i,
  /Directory listing for \//i,
  /\[To Parent Directory\]/i,
  /<title>\s*Directory listing/i,
];

/** Stock pages left in place: the server was installed and never configured. */
const DEFAULT_PAGES: [RegExp, string][] = [
  [/Welcome to nginx!/i, 'nginx default page ("Welcome to nginx!")'],
  [/<h1>\s*It works!\s*<\/h1>/i, 'Apache default page ("It works!")'],
  [/Apache2 (Debian|Ubuntu) Default Page/i, 'Apache Debian/Ubuntu default page'],
  [/Test Page for the (Apache HTTP Server|HTTP Server on|nginx)/i, 'Red Hat / CentOS test page'],
  [/<title>\s*IIS Windows( Server)?\s*<\/title>|<title>\s*IIS[78]\s*<\/title>|iisstart\.png/i, 'IIS default page'],
  [/<title>\s*Welcome to IIS/i, 'IIS default page'],
  [/lighttpd server[\s\S]{0,200}Placeholder page|<title>\s*Placeholder page\s*<\/title>/i, 'lighttpd placeholder page'],
  [/<title>\s*Apache Tomcat\/\d/i, 'Apache Tomcat default page'],
];

const isHtml = (h: HttpInfo) => !h.headers['content-type'] || /html/i.test(h.headers['content-type']);

const PASSIVE: readonly Check[] = [
  passive(
    'vigil.http.dir-listing',
    'HTTP-DIRLIST',
    'Web server directory listing enabled',
    'medium',
    'NOTE',
    'The web server lists the files of a directory that has no index page, exposing file names (backups, scripts, data) an attacker can then fetch.',
    'Turn directory listings off (Apache: Options -Indexes; nginx: autoindex off) or put an index page in the directory.',
    (h) =>
      h.status === 200 && LISTING.some((re) => re.test(h.body))
        ? `GET / answers with a directory listing: "${/Index of [^<]*|Directory listing[^<]*|\[To Parent Directory\]/i.exec(h.body)?.[0] ?? 'listing'}".`
        : null,
  ),
  // Information, as scanners report it (OpenVAS "HTTP Server type and version", Nessus
  // "HTTP Server Type and Version": log/info): a patched Debian Apache says
  // "Apache/2.4.x (Debian)" by default, and a NOTE there was a false alarm.
  passive(
    'vigil.http.server-version',
    'HTTP-SERVER-VERSION',
    'Web server discloses its version',
    'other',
    'LOG',
    'The Server header names the software and its version, which tells an attacker which exploits to try.',
    'Hide the version (Apache: ServerTokens Prod; nginx: server_tokens off).',
    (h) => (/\d+\.\d+/.test(h.headers['server'] ?? '') ? `Server: ${h.headers['server']!.slice(0, 200)}` : null),
  ),
  passive(
    'vigil.http.powered-by',
    'HTTP-POWERED-BY',
    'Web application platform disclosed (X-Powered-By)',
    'low',
    'NOTE',
    'Headers such as X-Powered-By and X-AspNet-Version name the application platform and often its version.',
    'Remove these headers (PHP: expose_php = Off in php.ini; ASP.NET: enableVersionHeader="false" in web.config; or strip them at the server or proxy).',
    (h) => {
      const seen = ['x-powered-by', 'x-aspnet-version', 'x-aspnetmvc-version']
        .filter((k) => h.headers[k])
        .map((k) => `${k}: ${h.headers[k]!.slice(0, 120)}`);
      return seen.length ? seen.join('; ') : null;
    },
  ),
  passive(
    'vigil.http.security-headers',
    'HTTP-SEC-HEADERS',
    'Missing HTTP security headers',
    'low',
    'NOTE',
    'The page is served without X-Frame-Options (or CSP frame-ancestors), X-Content-Type-Options: nosniff or Content-Security-Policy, leaving visitors open to clickjacking, MIME sniffing and script injection.',
    'Send X-Frame-Options: DENY (or CSP frame-ancestors), X-Content-Type-Options: nosniff and a Content-Security-Policy from the server or application configuration (Apache: Header always set; nginx: add_header).',
    (h) => {
      if (!isHtml(h) || h.status >= 400) return null;
      const csp = h.headers['content-security-policy'] ?? '';
      const missing: string[] = [];
      if (!h.headers['x-frame-options'] && !/frame-ancestors/i.test(csp))
        missing.push('X-Frame-Options (or CSP frame-ancestors)');
      if (!/nosniff/i.test(h.headers['x-content-type-options'] ?? '')) missing.push('X-Content-Type-Options: nosniff');
      if (!csp) missing.push('Content-Security-Policy');
      return missing.length ? `HTTP ${h.status} answer to GET / lacks ${missing.join(', ')}.` : null;
    },
  ),
  passive(
    'vigil.http.default-page',
    'HTTP-DEFAULT-PAGE',
    'Web server default page',
    'low',
    'NOTE',
    'The server shows the page it was installed with: it is probably unmaintained, and the page reveals the software.',
    'Remove the default site (Debian Apache: a2dissite 000-default; nginx: delete the default server) and serve only your own content.',
    (h) => {
      const hit = DEFAULT_PAGES.find(([re]) => re.test(h.body));
      return hit ? `GET / shows the ${hit[1]}.` : null;
    },
  ),
];

export const HTTP_CHECKS: readonly Check[] = Object.freeze([...PASSIVE, ...HTTP_PROBE_CHECKS]);
