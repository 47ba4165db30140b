import { randomBytes } from 'node:crypto';
import type { Candidate, ContentFamily } from '../../data/web-content.ts';
import type { HostFacts, Net, Service } from '../../../engine/types.ts';
import { type HttpAnswer, httpRequest, usesTls } from '../../../proto/http.ts';

/**
 * Files that should not be public (version-control metadata, status pages,
 * backups, OS metadata, credentials, phpinfo). A 200 proves nothing: many
 * servers answer 200 for every path (SPA catch-alls, soft 404s), so a hit
 * needs the file's own signature in the body, and that signature must NOT
 * also appear for a random path of the same shape (a catch-all that serves
 * the same page everywhere is then silent). The paths and signatures are in
 * web-content-data.ts, one family per check.
 */

/**
 * A random path shaped like the candidate's file name: the same leading dot
 * and the same suffix (`index.php~` → `/vigil-<r>.php~`, `.index.php.swp` →
 * `/.vigil-<r>.php.swp`, `.htpasswd` → `/.vigil-<r>`), so that a rule or a
 * handler bound to an extension treats both alike.
 */
export function twinOf(path: string, token: string): string {
  const base = path.slice(path.lastIndexOf('/') + 1);
  // The leading marks too (a dot, emacs's `#` as %23, `_`, `~`): Supervisor's web server drops everything from a
  // decoded `#` on, so `/%23index.php%23` is its home page (200) while `/vigil-x.php%23` is a 404; that was a
  // false "backup copy" on it. Its twin `/%23vigil-x.php%23` is its home page too, and the row stays silent.
  const lead = /^(?:\.|%23|#|_|~)*/.exec(base)![0];
  const suffix = base.slice(lead.length).replace(/^[^.~%]*/, '');
  return `/${lead}vigil-${token}${suffix}`;
}

interface Baseline {
  get(path: string): Promise<HttpAnswer | null>;
}

/**
 * The answers for random twins, per port, shared by all families of one
 * audit: the checks run concurrently, so the cache holds promises. Keyed on
 * the HostFacts object, which lives as long as one host's audit.
 */
const baselines = new WeakMap<HostFacts, Map<number, Baseline>>();

function baselineFor(host: HostFacts, net: Net, svc: Service): Baseline {
  let perPort = baselines.get(host);
  if (!perPort) baselines.set(host, (perPort = new Map()));
  let b = perPort.get(svc.port);
  if (!b) {
    const cache = new Map<string, Promise<HttpAnswer | null>>();
    const token = randomBytes(6).toString('hex');
    b = {
      get(path) {
        const twin = twinOf(path, token);
        if (!cache.has(twin))
          cache.set(twin, httpRequest(net, svc.port, usesTls(svc), { target: twin, timeoutMs: 4000 }));
        return cache.get(twin)!;
      },
    };
    perPort.set(svc.port, b);
  }
  return b;
}

const squash = (s: string) => s.replace(/\s+/g, ' ').trim();

/** Is `a` the file `c` describes, and not what the server says for any path? */
async function confirms(c: Candidate, a: HttpAnswer | null, baseline: Baseline): Promise<boolean> {
  if (!a || a.status !== 200) return false;
  if (c.sig === 'exists') {
    // No format to recognise (a copy of any page): the file exists if its random twin does not.
    const base = await baseline.get(c.path);
    return a.raw.length > 0 && !!base && base.status !== 200 && base.status !== 0;
  }
  if (!c.sig(a)) return false;
  const base = await baseline.get(c.path);
  if (!base || base.status !== 200) return true;
  // The server answers 200 for a path that cannot exist: the hit counts only
  // if that page neither carries the signature nor equals this body.
  return !c.sig(base) && squash(base.body) !== squash(a.body);
}

/** Requests per port at once: enough to keep a remote audit quick, few enough not to look like a flood. */
const PARALLEL = 4;

export async function scan(net: Net, svc: Service, host: HostFacts, fam: ContentFamily): Promise<string[]> {
  const baseline = baselineFor(host, net, svc);
  // A port that does not answer a plain GET of a random name (it hangs or is not HTTP) would cost every
  // candidate its timeout.
  if (!(await baseline.get('/index.txt'))) return [];
  const hits: string[] = [];
  const queue = [...fam.candidates];
  let silent = 0;
  const lane = async () => {
    for (let c = queue.shift(); c; c = queue.shift()) {
      if ((fam.firstOnly && hits.length) || silent >= 4) return;
      const a = await httpRequest(net, svc.port, usesTls(svc), { target: c.path, timeoutMs: 4000 }).catch(() => null);
      if (!a) silent++;
      if (await confirms(c, a, baseline)) hits.push(`${c.path} (${c.what})`);
    }
  };
  await Promise.all(Array.from({ length: PARALLEL }, lane));
  return hits.sort();
}
