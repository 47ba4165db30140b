import type { Check, Finding, HostFacts, Net, Service } from '../types.ts';
import { httpRequest, isHttpService, usesTls, type HttpAnswer } from './http-client.ts';

/**
 * What a web server's answers allow a browser to do: CORS that hands any
 * site the visitor's authenticated data, cookies that scripts or plain
 * HTTP can read, passwords sent in clear with HTTP Basic. Ordinary GETs only.
 */
type Look = (net: Net, svc: Service, host: HostFacts) => Promise<string | null>;

function policy(
  id: string,
  shortid: string,
  title: string,
  risk: 'high' | 'medium' | 'low',
  type: 'HOLE' | 'NOTE',
  qod: number,
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
    qod,
    intrusive: false,
    dos: false,
    active: true,
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

/**
 * Pages fetched once per port and path for the cookie and form checks
 * (checks run concurrently: promises). Keyed on the HostFacts object, which
 * lives as long as one host's audit.
 */
const pageCache = new WeakMap<HostFacts, Map<string, Promise<HttpAnswer | null>>>();
function page(net: Net, svc: Service, host: HostFacts, path: string): Promise<HttpAnswer | null> {
  let m = pageCache.get(host);
  if (!m) pageCache.set(host, (m = new Map()));
  const key = `${svc.port} ${path}`;
  if (!m.has(key))
    m.set(
      key,
      httpRequest(net, svc.port, usesTls(svc), { target: path, timeoutMs: 4000 }).catch(() => null),
    );
  return m.get(key)!;
}

/** Where sessions start and passwords are typed: the home page, usual login pages and what the home page links to. */
async function pages(net: Net, svc: Service, host: HostFacts): Promise<[string, HttpAnswer][]> {
  const home = await page(net, svc, host, '/');
  const paths = [...new Set(['/', '/login', '/login.php', '/admin/', ...linkedPaths(home?.body ?? '')])];
  const got = await Promise.all(paths.map(async (p) => [p, await page(net, svc, host, p)] as const));
  return got.filter((x): x is [string, HttpAnswer] => x[1] !== null);
}

/** Cookie names lacking `attr`, with the first page that set each. */
async function cookiesWithout(
  net: Net,
  svc: Service,
  host: HostFacts,
  attr: string,
  exempt: (name: string) => boolean,
): Promise<string[]> {
  const seen = new Map<string, string>();
  for (const [path, a] of await pages(net, svc, host)) {
    for (const c of a.setCookies.map(parseCookie)) {
      if (c.name && !c.attrs.includes(attr) && !exempt(c.name) && !seen.has(c.name)) seen.set(c.name, path);
    }
  }
  return [...seen].slice(0, 5).map(([name, path]) => `${name} (GET ${path})`);
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
const AUTH_PATHS = [
  '/',
  '/admin/',
  '/private/',
  '/secure/',
  '/protected/',
  '/manager/html',
  '/restricted/',
  '/members/',
];

export const HTTP_POLICY_CHECKS: readonly Check[] = [
  policy(
    'vigil.http.cors-any-origin',
    'HTTP-CORS',
    'CORS reflects any origin with credentials',
    'medium',
    'HOLE',
    99,
    "The server echoes any Origin in Access-Control-Allow-Origin together with Access-Control-Allow-Credentials: true, so any web site a logged-in user visits can read this site's authenticated responses.",
    "Answer Access-Control-Allow-Origin only for a fixed list of your own origins (never echo the request's Origin) wherever Access-Control-Allow-Credentials is sent.",
    async (net, svc) => {
      // A simple GET, a preflight (some servers answer CORS only there), and an API root.
      const tries: [string, string, Record<string, string>][] = [
        ['GET', '/', {}],
        ['OPTIONS', '/', { 'Access-Control-Request-Method': 'GET' }],
        ['GET', '/api/', {}],
      ];
      for (const [method, target, headers] of tries) {
        const a = await httpRequest(net, svc.port, usesTls(svc), {
          method,
          target,
          headers: { Origin: PROBE_ORIGIN, ...headers },
          timeoutMs: 4000,
        });
        if (!a) return null; // no answer: the next tries would only wait as long
        const allow = a.headers['access-control-allow-origin'] ?? '';
        const creds = /^\s*true\s*$/i.test(a.headers['access-control-allow-credentials'] ?? '');
        if (allow.trim() === PROBE_ORIGIN && creds) {
          return `${method} ${target} with Origin: ${PROBE_ORIGIN} answered Access-Control-Allow-Origin: ${PROBE_ORIGIN} and Access-Control-Allow-Credentials: true.`;
        }
      }
      return null;
    },
  ),
  policy(
    'vigil.http.cookie-no-httponly',
    'HTTP-COOKIE-HTTPONLY',
    'Cookie without the HttpOnly attribute',
    'low',
    'NOTE',
    95,
    'A cookie is set without HttpOnly, so any script running in the page (an injected one included) can read it and steal the session.',
    "Add the HttpOnly attribute to session and authentication cookies (in the application's cookie settings, e.g. PHP session.cookie_httponly = 1).",
    async (net, svc, host) => {
      const bare = await cookiesWithout(net, svc, host, 'httponly', scriptReadable);
      return bare.length ? `Set without HttpOnly: ${bare.join(', ')}.` : null;
    },
  ),
  policy(
    'vigil.http.cookie-no-secure',
    'HTTP-COOKIE-SECURE',
    'Cookie over HTTPS without the Secure attribute',
    'low',
    'NOTE',
    95,
    'An HTTPS site sets a cookie without Secure, so the browser also sends it over plain HTTP, where anyone on the path can read it.',
    'Add the Secure attribute to every cookie the HTTPS site sets (e.g. PHP session.cookie_secure = 1).',
    async (net, svc, host) => {
      // Over plain HTTP, Secure cannot be set (browsers ignore it there); the weakness exists on HTTPS only.
      if (!usesTls(svc)) return null;
      const bare = await cookiesWithout(net, svc, host, 'secure', () => false);
      return bare.length ? `Set over HTTPS without Secure: ${bare.join(', ')}.` : null;
    },
  ),
  policy(
    'vigil.http.password-form-cleartext',
    'HTTP-PASSWORD-FORM',
    'Password form served over plain HTTP',
    'medium',
    'NOTE',
    95,
    'A page with a password field is served over unencrypted HTTP: the password is sent in clear text, and anyone on the path can also rewrite the form to send it elsewhere.',
    'Serve the site over HTTPS only and redirect HTTP to it.',
    async (net, svc, host) => {
      if (usesTls(svc)) return null;
      // HTML's <input type=password> (any quoting); a page that only says "password" is not a form.
      const hit = (await pages(net, svc, host)).find(
        ([, a]) => a.status === 200 && /<input\b[^>]*\btype\s*=\s*["']?password\b/i.test(a.body),
      );
      return hit ? `GET ${hit[0]} over plain HTTP serves a form with a password field.` : null;
    },
  ),
  policy(
    'vigil.http.basic-auth-cleartext',
    'HTTP-BASIC-CLEAR',
    'HTTP Basic authentication over plain HTTP',
    'medium',
    'NOTE',
    95,
    'The server asks for a password with HTTP Basic authentication on an unencrypted connection: the browser sends the user name and password in base64, readable by anyone on the path.',
    'Serve the protected area over HTTPS only (redirect HTTP to HTTPS).',
    async (net, svc) => {
      if (usesTls(svc)) return null;
      const basic = (a: { status: number; headers: Record<string, string> } | null) =>
        a?.status === 401 && /(?:^|,)\s*Basic\b/i.test(a.headers['www-authenticate'] ?? '');
      if (basic(svc.http)) return 'GET / answered 401 with WWW-Authenticate: Basic over plain HTTP.';
      const paths = [
        ...new Set([...(svc.http ? AUTH_PATHS.slice(1) : AUTH_PATHS), ...linkedPaths(svc.http?.body ?? '')]),
      ];
      for (const path of paths) {
        const a = await httpRequest(net, svc.port, false, { target: path, timeoutMs: 4000 });
        if (!a) return null;
        if (basic(a))
          return `GET ${path} answered 401 with WWW-Authenticate: ${a!.headers['www-authenticate']!.slice(0, 80)} over plain HTTP.`;
      }
      return null;
    },
  ),
];
