import type { Check, Finding, HostFacts, Net, Service } from '../types.ts';
import { httpRequest, isHttpService, usesTls, type HttpAnswer } from './http-client.ts';

/**
 * What a web server's answers allow a browser to do: CORS that hands any
 * site the visitor's authenticated data, cookies that scripts or plain
 * HTTP can read, passwords sent in clear with HTTP Basic. Ordinary GETs only.
 */
type Look = (net: Net, svc: Service, host: HostFacts) => Promise<string | null>;

function policy(id: string, shortid: string, title: string, risk: 'high' | 'medium' | 'low', type: 'HOLE' | 'NOTE', qod: number, description: string, look: Look): Check {
  return {
    id, shortid, title, category: 'Web Servers', risk, cves: [], type, description, qod,
    intrusive: false, dos: false, active: true,
    async run(host: HostFacts, net: Net): Promise<Finding[]> {
      const findings: Finding[] = [];
      for (const svc of host.services.filter(isHttpService)) {
        const detail = await look(net, svc, host).catch(() => null);
        if (detail) findings.push({ port: svc.port, detail });
      }
      return findings;
    },
  };
}

/** A made-up origin: only ever written into a header, never contacted (.example is reserved, RFC 2606). */
export const PROBE_ORIGIN = 'https://vigil-probe.evil.example';

/** GET / with its Set-Cookie lines, once per port for both cookie checks (checks run concurrently: promises). */
const rootAnswers = new WeakMap<HostFacts, Map<number, Promise<HttpAnswer | null>>>();
function root(net: Net, svc: Service, host: HostFacts): Promise<HttpAnswer | null> {
  let m = rootAnswers.get(host);
  if (!m) rootAnswers.set(host, (m = new Map()));
  if (!m.has(svc.port)) m.set(svc.port, httpRequest(net, svc.port, usesTls(svc), { target: '/' }));
  return m.get(svc.port)!;
}

interface Cookie {
  name: string;
  attrs: string[];
}
const parseCookie = (line: string): Cookie => {
  const [pair, ...attrs] = line.split(';');
  return { name: pair!.split('=')[0]!.trim(), attrs: attrs.map((a) => a.trim().split('=')[0]!.toLowerCase()) };
};
/**
 * Anti-CSRF cookies are meant to be read by the page's own script (the
 * double-submit pattern: Django csrftoken, Angular XSRF-TOKEN), so a
 * missing HttpOnly on them is by design.
 */
const scriptReadable = (name: string) => /csrf|xsrf/i.test(name);

/**
 * Paths the home page links to on the same site (a directory listing lists
 * the protected directory too), at most 6: a protected area is usually
 * reachable from the page in front of it.
 */
export function linkedPaths(html: string): string[] {
  const out: string[] = [];
  for (const m of html.matchAll(/href\s*=\s*["']([^"'#?\s]+)["']/gi)) {
    const href = m[1]!;
    if (/^[a-z][a-z0-9+.-]*:|^\/\//i.test(href) || href.startsWith('..')) continue; // other sites, mailto:, parent
    const path = href.startsWith('/') ? href : `/${href.replace(/^\.\//, '')}`;
    if (path !== '/' && !out.includes(path)) out.push(path);
    if (out.length >= 6) break;
  }
  return out;
}

/** Places a site commonly protects with HTTP authentication, besides what GET / already showed. */
const AUTH_PATHS = ['/', '/admin/', '/private/', '/secure/', '/protected/', '/manager/html', '/restricted/', '/members/'];

export const HTTP_POLICY_CHECKS: readonly Check[] = [
  policy('vigil.http.cors-any-origin', 'HTTP-CORS', 'CORS reflects any origin with credentials', 'medium', 'HOLE', 99,
    'The server echoes any Origin in Access-Control-Allow-Origin together with Access-Control-Allow-Credentials: true, so any web site a logged-in user visits can read this site\'s authenticated responses. Allow only your own origins.',
    async (net, svc) => {
      const a = await httpRequest(net, svc.port, usesTls(svc), { target: '/', headers: { Origin: PROBE_ORIGIN } });
      if (!a) return null;
      const allow = a.headers['access-control-allow-origin'] ?? '';
      const creds = /^\s*true\s*$/i.test(a.headers['access-control-allow-credentials'] ?? '');
      return allow.trim() === PROBE_ORIGIN && creds
        ? `GET / with Origin: ${PROBE_ORIGIN} answered Access-Control-Allow-Origin: ${PROBE_ORIGIN} and Access-Control-Allow-Credentials: true.`
        : null;
    }),
  policy('vigil.http.cookie-no-httponly', 'HTTP-COOKIE-HTTPONLY', 'Cookie without the HttpOnly attribute', 'low', 'NOTE', 95,
    'A cookie is set without HttpOnly, so any script running in the page (an injected one included) can read it and steal the session. Add HttpOnly to session and authentication cookies.',
    async (net, svc, host) => {
      const cookies = ((await root(net, svc, host))?.setCookies ?? []).map(parseCookie);
      const bare = cookies.filter((c) => c.name && !c.attrs.includes('httponly') && !scriptReadable(c.name)).map((c) => c.name);
      return bare.length ? `GET / sets ${bare.slice(0, 5).join(', ')} without HttpOnly.` : null;
    }),
  policy('vigil.http.cookie-no-secure', 'HTTP-COOKIE-SECURE', 'Cookie over HTTPS without the Secure attribute', 'low', 'NOTE', 95,
    'An HTTPS site sets a cookie without Secure, so the browser also sends it over plain HTTP, where anyone on the path can read it. Add Secure to every cookie of an HTTPS site.',
    async (net, svc, host) => {
      // Over plain HTTP, Secure cannot be set (browsers ignore it there); the weakness exists on HTTPS only.
      if (!usesTls(svc)) return null;
      const cookies = ((await root(net, svc, host))?.setCookies ?? []).map(parseCookie);
      const bare = cookies.filter((c) => c.name && !c.attrs.includes('secure')).map((c) => c.name);
      return bare.length ? `GET / over HTTPS sets ${bare.slice(0, 5).join(', ')} without Secure.` : null;
    }),
  policy('vigil.http.basic-auth-cleartext', 'HTTP-BASIC-CLEAR', 'HTTP Basic authentication over plain HTTP', 'medium', 'NOTE', 95,
    'The server asks for a password with HTTP Basic authentication on an unencrypted connection: the browser sends the user name and password in base64, readable by anyone on the path. Serve the protected area over HTTPS only (redirect HTTP to HTTPS).',
    async (net, svc) => {
      if (usesTls(svc)) return null;
      const basic = (a: { status: number; headers: Record<string, string> } | null) => a?.status === 401 && /(?:^|,)\s*Basic\b/i.test(a.headers['www-authenticate'] ?? '');
      if (basic(svc.http)) return 'GET / answered 401 with WWW-Authenticate: Basic over plain HTTP.';
      const paths = [...new Set([...(svc.http ? AUTH_PATHS.slice(1) : AUTH_PATHS), ...linkedPaths(svc.http?.body ?? '')])];
      for (const path of paths) {
        const a = await httpRequest(net, svc.port, false, { target: path, timeoutMs: 4000 });
        if (basic(a)) return `GET ${path} answered 401 with WWW-Authenticate: ${a!.headers['www-authenticate']!.slice(0, 80)} over plain HTTP.`;
      }
      return null;
    }),
];
