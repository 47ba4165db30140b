import { randomBytes } from 'node:crypto';
import type { Net, Service } from '../../../engine/types.ts';
import { type HttpAnswer, httpRequest, usesTls } from '../../../proto/http.ts';
import { ADMIN_PAGES, type AdminPage, GENERIC_ADMIN } from '../../data/web-admin-defaults.ts';
import { AUTH_PATHS, linkedPaths } from './policy.ts';

/**
 * What the two admin-page checks share (default-credentials.ts, admin-open.ts):
 * GETs with or without a Basic Authorization header, the realm of a 401,
 * and the product rows of data/web-admin-defaults.ts.
 */
export interface Asker {
  /** GET without credentials, once per path. */
  bare(path: string): Promise<HttpAnswer | null>;
  /** GET with a Basic Authorization header (RFC 7617 §2: base64 of user:password). */
  login(path: string, user: string, password: string): Promise<HttpAnswer | null>;
}

/** Each try of a request: its wait first, then its bound (see asker). */
const TRIES = [
  { waitMs: 0, timeoutMs: 5000 },
  { waitMs: 2000, timeoutMs: 15_000 },
  { waitMs: 4000, timeoutMs: 15_000 },
];

/**
 * GETs on one port. Some admin servers serve one connection at a time:
 * Monit's httpd holds every other connection while one client's request
 * is unfinished (7.7 s behind a slow request, measured), and in bench
 * runs where other checks kept it busy our requests got no answer at all
 * (4 of 9 runs missed its default password). A request that got no answer
 * is sent again after 2 s and after 4 s more, with a longer bound; when
 * the third try gets none either, the port is given up (null from then
 * on, without waiting).
 */
export function asker(net: Net, port: number, service: Service | null): Asker {
  const tls = !!service && usesTls(service);
  let dead = false;
  const get = async (path: string, headers?: Record<string, string>) => {
    for (const { waitMs, timeoutMs } of TRIES) {
      if (dead) return null;
      if (waitMs) await new Promise((r) => setTimeout(r, waitMs));
      const a = await httpRequest(net, port, tls, { target: path, timeoutMs, ...(headers ? { headers } : {}) }).catch(
        () => null,
      );
      if (a) return a;
    }
    dead = true;
    return null;
  };
  const seen = new Map<string, Promise<HttpAnswer | null>>();
  return {
    bare: (path) => {
      if (!seen.has(path)) seen.set(path, get(path));
      return seen.get(path)!;
    },
    login: (path, user, password) =>
      get(path, { Authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` }),
  };
}

/** The realm of a Basic challenge (RFC 7617 §2), or null when the answer is no 401 asking for Basic. */
export function basicRealm(a: HttpAnswer | null): string | null {
  if (a?.status !== 401) return null;
  const m = /(?:^|,)\s*Basic\s+realm\s*=\s*"([^"]*)"/i.exec(a.headers['www-authenticate'] ?? '');
  return m ? m[1]! : null;
}

/** The body as text, up to what was read (a marker may sit past the first 4 KB: Monit's is at 3 KB). */
export const text = (a: HttpAnswer) => a.raw.toString('latin1');

/** What the report quotes of a proof's match: its first group, else the match, on one line. */
export const quote = (m: RegExpExecArray) => (m[1] ?? m[0]).replace(/\s+/g, ' ').slice(0, 60);

/** A product row recognised on this port: its page answered 401 with its realm (and Server header). */
export interface Recognised {
  page: AdminPage;
  bare: HttpAnswer;
  realm: string;
}

/**
 * Product rows first, each handed to `use` as soon as recognised (so that
 * a busy server is asked for its login before the other rows' pages); then
 * the generic realm, only when no product row was recognised (a Tomcat
 * realm is never tried with the generic pairs too: every extra failure
 * counts towards its lock-out).
 */
export async function eachRecognised(
  ask: Asker,
  service: Service | null,
  use: (r: Recognised) => Promise<void>,
  rows: 'shipped' | 'guessed' = 'guessed',
): Promise<void> {
  let any = false;
  for (const page of ADMIN_PAGES) {
    const bare = await ask.bare(page.path);
    const realm = basicRealm(bare);
    if (realm === null || !page.realm.test(realm)) continue;
    if (page.server && !page.server.test(bare!.headers['server'] ?? '')) continue;
    any = true;
    if ((rows === 'shipped') === !!page.shipped) await use({ page, bare: bare!, realm });
  }
  // The generic pairs are guesses; and a recognised product's realm is never tried with them.
  if (any || rows === 'shipped') return;
  // The places basic-auth-cleartext looks too, and what the home page links to: any Basic realm a site has.
  const paths = new Set([...GENERIC_ADMIN.paths, ...AUTH_PATHS, ...linkedPaths(service?.http?.body ?? '')]);
  for (const path of paths) {
    const bare = await ask.bare(path);
    const realm = basicRealm(bare);
    // A realm a product row has (a Tomcat realm on /admin) is left to that row: its lock-out counts every try.
    if (realm === null || ADMIN_PAGES.some((p) => !p.server && p.realm.test(realm))) continue;
    await use({ page: { ...GENERIC_ADMIN, path }, bare: bare!, realm });
    return; // one generic area per port: one realm usually guards them all
  }
}

/** A password no one has: a control login must be refused for the default pair's 200 to prove anything. */
export const controlPassword = () => `vigil-${randomBytes(9).toString('base64url')}`;

/** Every admin page with its logged-in proof: what admin-open asks for without credentials. */
export const PROVABLE_PAGES = ADMIN_PAGES.filter((p) => !p.openReportedBy).flatMap((p) => [
  ...(p.proof ? [{ product: p.product, what: `the ${p.product}`, path: p.path, proof: p.proof, risk: p.risk }] : []),
  ...(p.also ?? []).map((a) => ({ product: p.product, ...a })),
]);
