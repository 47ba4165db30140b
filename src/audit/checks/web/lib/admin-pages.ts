import { randomBytes } from 'node:crypto';
import type { Net, Service } from '../../../engine/types.ts';
import { type HttpAnswer, httpRequest, usesTls } from '../../../proto/http.ts';
import { basicAuthorization, type Challenge, digestAuthorization, loginChallenge } from '../../../proto/http-auth.ts';
import { ADMIN_PAGES, type AdminPage, GENERIC_ADMIN } from '../../data/web-admin-defaults.ts';
import { AUTH_PATHS, linkedPaths } from './policy.ts';

/**
 * What the admin-page checks share (default-credentials.ts,
 * vendor-default-login.ts, admin-open.ts): GETs with or without HTTP
 * Basic or Digest credentials, the challenge of a 401, other requests of a
 * form login, and the product rows of data/web-admin-defaults.ts.
 */
export interface Asker {
  /** GET without credentials, once per path and audit, whichever check asks first. */
  bare(path: string): Promise<HttpAnswer | null>;
  /**
   * GET with credentials answering `challenge`: Basic (RFC 7617 §2), or Digest (RFC 7616) on a nonce of its own
   * (a fresh GET without credentials first: a nonce may be stale, and some servers take each once).
   */
  login(path: string, user: string, password: string, challenge?: Challenge): Promise<HttpAnswer | null>;
  /** One request, never shared (a form login's fresh page, its POST, its redirects), with the same retries. */
  send(
    path: string,
    opts?: { method?: string; headers?: Record<string, string>; body?: string },
  ): Promise<HttpAnswer | null>;
}

/** Each try of a request: its wait first, then its bound (see asker). */
const TRIES = [
  { waitMs: 0, timeoutMs: 5000 },
  { waitMs: 2000, timeoutMs: 15_000 },
  { waitMs: 4000, timeoutMs: 15_000 },
];

/**
 * The answers to bare GETs, per port and audit: the engine hands every
 * check of a host the same Net (engine/run.ts, fence.net once per host), so
 * the three admin-page checks, which run concurrently, share each page's
 * answer (about fifteen paths a port) instead of each asking it again. Only
 * answers are shared: a request that got none is asked again by the next
 * check, with its own tries (Monit's one-connection server, below).
 */
const answers = new WeakMap<Net, Map<string, Promise<HttpAnswer | null>>>();

/**
 * Requests on one port, for one check. Some admin servers serve one
 * connection at a time: Monit's httpd holds every other connection while
 * one client's request is unfinished (7.7 s behind a slow request,
 * measured), and in bench runs where other checks kept it busy our
 * requests got no answer at all (4 of 9 runs missed its default password).
 * A request that got no answer is sent again after 2 s and after 4 s more,
 * with a longer bound; when the third try gets none either, the port is
 * given up for this check (null from then on, without waiting).
 */
export function asker(net: Net, port: number, service: Service | null): Asker {
  const tls = !!service && usesTls(service);
  let shared = answers.get(net);
  if (!shared) answers.set(net, (shared = new Map()));
  const seen = shared;
  const key = (path: string) => `${port}/${tls ? 'tls' : 'plain'} ${path}`;
  let dead = false;
  const send: Asker['send'] = async (path, opts = {}) => {
    for (const { waitMs, timeoutMs } of TRIES) {
      if (dead) return null;
      if (waitMs) await new Promise((r) => setTimeout(r, waitMs));
      // 64 KB: a login form may sit past the first 16 KB (phpMyAdmin 5.2's at 18.5 KB, measured).
      const a = await httpRequest(net, port, tls, { target: path, timeoutMs, maxBytes: 65536, ...opts }).catch(
        () => null,
      );
      if (a) return a;
    }
    dead = true;
    return null;
  };
  return {
    async bare(path) {
      const prior = seen.get(key(path));
      const had = prior && (await prior);
      if (had) return had;
      if (dead) return null;
      const asked = send(path);
      seen.set(key(path), asked);
      const a = await asked;
      if (!a && seen.get(key(path)) === asked) seen.delete(key(path));
      return a;
    },
    async login(path, user, password, challenge) {
      if (challenge?.scheme !== 'digest')
        return send(path, { headers: { Authorization: basicAuthorization(user, password) } });
      const fresh = loginChallenge(await send(path));
      const auth = fresh?.scheme === 'digest' ? digestAuthorization(fresh, 'GET', path, user, password) : null;
      return auth ? send(path, { headers: { Authorization: auth } }) : null;
    },
    send,
  };
}

/** The body as text, up to what was read (a marker may sit past the first 4 KB: Monit's is at 3 KB). */
export const text = (a: HttpAnswer) => a.raw.toString('latin1');

/** What the report quotes of a proof's match: its first group that matched, else the match, on one line. */
export const quote = (m: RegExpExecArray) =>
  (m.slice(1).find((g) => g !== undefined) ?? m[0]).replace(/\s+/g, ' ').slice(0, 60);

/** A product row recognised on this port: its page answered 401 with its realm (and Server header). */
export interface Recognised {
  page: AdminPage;
  bare: HttpAnswer;
  realm: string;
  /** The challenge a login answers (Digest when offered, else Basic). */
  challenge: Challenge & { realm: string };
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
    const challenge = loginChallenge(bare);
    if (challenge === null || !page.realm.test(challenge.realm)) continue;
    if (page.server && !page.server.test(bare!.headers['server'] ?? '')) continue;
    any = true;
    if ((rows === 'shipped') === !!page.shipped) await use({ page, bare: bare!, realm: challenge.realm, challenge });
  }
  // The generic pairs are guesses; and a recognised product's realm is never tried with them.
  if (any || rows === 'shipped') return;
  // The places basic-auth-cleartext looks too, and what the home page links to: any Basic realm a site has.
  const paths = new Set([...GENERIC_ADMIN.paths, ...AUTH_PATHS, ...linkedPaths(service?.http?.body ?? '')]);
  for (const path of paths) {
    const bare = await ask.bare(path);
    const challenge = loginChallenge(bare);
    // A realm a product row has (a Tomcat realm on /admin) is left to that row: its lock-out counts every try.
    if (challenge === null || ADMIN_PAGES.some((p) => !p.server && p.realm.test(challenge.realm))) continue;
    const product = challenge.scheme === 'digest' ? 'HTTP Digest-protected area' : GENERIC_ADMIN.product;
    await use({ page: { ...GENERIC_ADMIN, product, path }, bare: bare!, realm: challenge.realm, challenge });
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
