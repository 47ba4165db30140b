/**
 * HTTP authentication schemes a login check speaks: the challenges of a
 * 401 (RFC 9110 §11.6.1, several in one WWW-Authenticate header or in
 * several), HTTP Basic (RFC 7617) and HTTP Digest (RFC 7616: MD5, SHA-256
 * and SHA-512-256, their -sess variants, qop=auth, and RFC 2069's form
 * without qop that old servers still send).
 */
import { createHash, randomBytes } from 'node:crypto';
import type { HttpAnswer } from './http.ts';

export interface Challenge {
  /** Lower case: basic, digest, … */
  scheme: string;
  /** Auth-params, names in lower case, values unquoted. */
  params: Record<string, string>;
}

const TOKEN = /^[!#$%&'*+.^_`|~\w-]+/;

/**
 * Every challenge of a WWW-Authenticate value. A token not followed by
 * `=` starts a new challenge; `name=value` pairs belong to the current
 * one (joined headers arrive as one value separated by commas, which this
 * grammar allows: RFC 9110 §11.6.1).
 */
export function parseChallenges(value: string): Challenge[] {
  const out: Challenge[] = [];
  let s = value;
  let cur: Challenge | null = null;
  for (let guard = 0; s.length && guard < 200; guard++) {
    s = s.replace(/^[\s,]+/, '');
    const t = TOKEN.exec(s);
    if (!t) break;
    s = s.slice(t[0].length);
    const eq = /^\s*=\s*/.exec(s);
    if (!eq || !cur || /^\s*=\s*(?:,|$)/.test(s)) {
      // A token68 (Negotiate's blob) may follow a scheme: skipped.
      if (eq) s = s.replace(/^\s*=+/, '');
      cur = { scheme: t[0].toLowerCase(), params: {} };
      out.push(cur);
      continue;
    }
    s = s.slice(eq[0].length);
    let v: string;
    const q = /^"((?:[^"\\]|\\.)*)"/.exec(s);
    if (q) {
      v = q[1]!.replace(/\\(.)/g, '$1');
      s = s.slice(q[0].length);
    } else {
      const m = /^[^,\s]*/.exec(s)!;
      v = m[0];
      s = s.slice(m[0].length);
    }
    cur.params[t[0].toLowerCase()] = v;
  }
  return out;
}

/** Node's names of the RFC 7616 §3.3 algorithms (and the -sess variants'), null for one we do not speak. */
function hashOf(algorithm: string | undefined): { name: string; sess: boolean } | null {
  const a = (algorithm ?? 'MD5').toUpperCase();
  const sess = a.endsWith('-SESS');
  const base = sess ? a.slice(0, -5) : a;
  const name = { MD5: 'md5', 'SHA-256': 'sha256', 'SHA-512-256': 'sha512-256' }[base];
  return name ? { name, sess } : null;
}

/**
 * The challenge a login answers: Digest when offered in an algorithm we
 * speak (the strongest first, SHA-256 before MD5, as RFC 7616 §3.7 asks of
 * clients), else Basic. Null when the answer is no 401 or offers neither.
 */
export function loginChallenge(a: HttpAnswer | null): (Challenge & { realm: string }) | null {
  if (a?.status !== 401) return null;
  const all = parseChallenges(a.headers['www-authenticate'] ?? '');
  const rank = (c: Challenge) => {
    if (c.scheme === 'basic') return 1;
    if (c.scheme !== 'digest' || !c.params['nonce'] || !hashOf(c.params['algorithm'])) return 0;
    const qop = c.params['qop'];
    if (qop !== undefined && !/(?:^|,)\s*auth\s*(?:,|$)/i.test(qop)) return 0; // auth-int only: not for us
    return hashOf(c.params['algorithm'])!.name === 'md5' ? 2 : 3;
  };
  const best = all.filter((c) => rank(c) > 0 && c.params['realm'] !== undefined).sort((x, y) => rank(y) - rank(x))[0];
  return best ? { ...best, realm: best.params['realm']! } : null;
}

/** The challenge as a report quotes it: scheme, realm and (Digest) algorithm and qop. */
export function describeChallenge(c: Challenge & { realm: string }): string {
  if (c.scheme === 'basic') return `Basic realm="${c.realm}"`;
  const alg = c.params['algorithm'] ? `, algorithm=${c.params['algorithm']}` : '';
  const qop = c.params['qop'] ? `, qop="${c.params['qop']}"` : '';
  return `Digest realm="${c.realm}"${alg}${qop}`;
}

/** RFC 7617 §2: base64 of user:password. */
export const basicAuthorization = (user: string, password: string) =>
  `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

const quoted = (v: string) => `"${v.replace(/["\\]/g, '\\$&')}"`;

/**
 * The Authorization value answering a Digest challenge for `method uri`
 * (RFC 7616 §3.4): response = KD(H(A1), nonce:nc:cnonce:qop:H(A2)) with
 * qop=auth, or H(H(A1):nonce:H(A2)) when the challenge has no qop (RFC
 * 2069). Null for an algorithm we do not speak.
 */
export function digestAuthorization(
  c: Challenge,
  method: string,
  uri: string,
  user: string,
  password: string,
  cnonce = randomBytes(12).toString('hex'),
): string | null {
  const alg = hashOf(c.params['algorithm']);
  const nonce = c.params['nonce'];
  if (!alg || nonce === undefined) return null;
  const H = (s: string) => createHash(alg.name).update(s, 'utf8').digest('hex');
  const realm = c.params['realm'] ?? '';
  const nc = '00000001';
  let ha1 = H(`${user}:${realm}:${password}`);
  if (alg.sess) ha1 = H(`${ha1}:${nonce}:${cnonce}`);
  const ha2 = H(`${method}:${uri}`);
  const qop = c.params['qop'] !== undefined ? 'auth' : null;
  const response = qop ? H(`${ha1}:${nonce}:${nc}:${cnonce}:${qop}:${ha2}`) : H(`${ha1}:${nonce}:${ha2}`);
  // §3.4.4: with userhash=true the username is H(user:realm).
  const hashed = /^true$/i.test(c.params['userhash'] ?? '');
  const parts = [
    `username=${quoted(hashed ? H(`${user}:${realm}`) : user)}`,
    `realm=${quoted(realm)}`,
    `nonce=${quoted(nonce)}`,
    `uri=${quoted(uri)}`,
    ...(c.params['algorithm'] ? [`algorithm=${c.params['algorithm']}`] : []),
    `response=${quoted(response)}`,
    ...(c.params['opaque'] !== undefined ? [`opaque=${quoted(c.params['opaque'])}`] : []),
    ...(qop ? [`qop=${qop}`, `nc=${nc}`, `cnonce=${quoted(cnonce)}`] : []),
    ...(hashed ? ['userhash=true'] : []),
  ];
  return `Digest ${parts.join(', ')}`;
}
