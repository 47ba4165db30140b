import type { HostFacts, Net, Service } from '../../../engine/types.ts';
import { type HttpAnswer, httpRequest, usesTls } from '../../../proto/http.ts';

/**
 * What a web server's answers allow a browser to do: CORS that hands any
 * site the visitor's authenticated data, cookies that scripts or plain
 * HTTP can read, passwords sent in clear with HTTP Basic. Ordinary GETs only.
 */
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
export async function pages(net: Net, svc: Service, host: HostFacts): Promise<[string, HttpAnswer][]> {
  const home = await page(net, svc, host, '/');
  const paths = [...new Set(['/', '/login', '/login.php', '/admin/', ...linkedPaths(home?.body ?? '')])];
  const got = await Promise.all(paths.map(async (p) => [p, await page(net, svc, host, p)] as const));
  return got.filter((x): x is [string, HttpAnswer] => x[1] !== null);
}

/** Cookie names lacking `attr`, with the first page that set each. */
export async function cookiesWithout(
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
export const scriptReadable = (name: string) => /csrf|xsrf/i.test(name);

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
export const AUTH_PATHS = [
  '/',
  '/admin/',
  '/private/',
  '/secure/',
  '/protected/',
  '/manager/html',
  '/restricted/',
  '/members/',
];
