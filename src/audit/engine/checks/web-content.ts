import { randomBytes } from 'node:crypto';
import type { Check, Finding, HostFacts, Net, Risk, Service } from '../types.ts';
import { httpRequest, isHttpService, usesTls, type HttpAnswer } from './http-client.ts';
import { CONTENT_FAMILIES, type Candidate, type ContentFamily } from './web-content-data.ts';

/**
 * Files that should not be public (version-control metadata, status pages,
 * backups, OS metadata, credentials, phpinfo). A 200 proves nothing: many
 * servers answer 200 for every path (SPA catch-alls, soft 404s), so a hit
 * needs the file's own signature in the body, and that signature must NOT
 * also appear for a random path of the same shape (a catch-all that serves
 * the same page everywhere is then silent). The paths and signatures are in
 * web-content-data.ts, one family per check.
 */

/** Random paths shaped like the candidates: dotfile, PHP script, anything else. */
type Shape = 'dot' | 'php' | 'plain';
const shapeOf = (path: string): Shape => (/\/\.[^/]*$/.test(path) ? 'dot' : /\.php\d?$/.test(path) ? 'php' : 'plain');

interface Baseline {
  get(shape: Shape): Promise<HttpAnswer | null>;
}

/**
 * One baseline per port and shape, shared by all families of one audit:
 * the checks run concurrently, so the cache holds promises. Keyed on the
 * HostFacts object, which lives as long as one host's audit.
 */
const baselines = new WeakMap<HostFacts, Map<number, Baseline>>();

function baselineFor(host: HostFacts, net: Net, svc: Service): Baseline {
  let perPort = baselines.get(host);
  if (!perPort) baselines.set(host, (perPort = new Map()));
  let b = perPort.get(svc.port);
  if (!b) {
    const cache = new Map<Shape, Promise<HttpAnswer | null>>();
    const token = randomBytes(6).toString('hex');
    const paths: Record<Shape, string> = { dot: `/.vigil-${token}`, php: `/vigil-${token}.php`, plain: `/vigil-${token}.txt` };
    b = {
      get(shape) {
        if (!cache.has(shape)) cache.set(shape, httpRequest(net, svc.port, usesTls(svc), { target: paths[shape] }));
        return cache.get(shape)!;
      },
    };
    perPort.set(svc.port, b);
  }
  return b;
}

const squash = (s: string) => s.replace(/\s+/g, ' ').trim();

/** Is `a` the file `c` describes, and not what the server says for any path? */
async function confirms(c: Candidate, a: HttpAnswer | null, baseline: Baseline): Promise<boolean> {
  if (!a || a.status !== 200 || !c.sig(a)) return false;
  const base = await baseline.get(shapeOf(c.path));
  if (!base || base.status !== 200) return true;
  // The server answers 200 for a path that cannot exist: the hit counts only
  // if that page neither carries the signature nor equals this body.
  return !c.sig(base) && squash(base.body) !== squash(a.body);
}

/** Requests per port at once: enough to keep a remote audit quick, few enough not to look like a flood. */
const PARALLEL = 4;

async function scan(net: Net, svc: Service, host: HostFacts, fam: ContentFamily): Promise<string[]> {
  const baseline = baselineFor(host, net, svc);
  const hits: string[] = [];
  const queue = [...fam.candidates];
  const lane = async () => {
    for (let c = queue.shift(); c; c = queue.shift()) {
      if (fam.firstOnly && hits.length) return;
      const a = await httpRequest(net, svc.port, usesTls(svc), { target: c.path, timeoutMs: 4000 }).catch(() => null);
      if (await confirms(c, a, baseline)) hits.push(`${c.path} (${c.what})`);
    }
  };
  await Promise.all(Array.from({ length: PARALLEL }, lane));
  return hits.sort();
}

function contentCheck(fam: ContentFamily): Check {
  return {
    id: fam.id, shortid: fam.shortid, title: fam.title, category: 'Web Servers', risk: fam.risk as Risk, cves: [], type: fam.type,
    description: fam.description, intrusive: false, dos: false, active: true,
    // The body signature is read, not guessed from a status code: an active confirmation.
    qod: 95,
    async run(host: HostFacts, net: Net): Promise<Finding[]> {
      const findings: Finding[] = [];
      for (const svc of host.services.filter(isHttpService)) {
        const hits = await scan(net, svc, host, fam).catch(() => []);
        if (hits.length) findings.push({ port: svc.port, detail: `${fam.lead}: ${hits.slice(0, 8).join(', ')}${hits.length > 8 ? `, and ${hits.length - 8} more` : ''}.` });
      }
      return findings;
    },
  };
}

export const WEB_CONTENT_CHECKS: readonly Check[] = CONTENT_FAMILIES.map(contentCheck);
