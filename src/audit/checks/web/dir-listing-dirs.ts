import { randomBytes } from 'node:crypto';
import { defineCheck } from '../kit.ts';
import dirListing from './dir-listing.ts';
import { listingEvidence } from './lib/listing.ts';
import { linkedPaths } from './lib/policy.ts';
import { isHtml } from './lib/pages.ts';
import { type HttpAnswer, httpRequest, isHttpService, usesTls } from '../../proto/http.ts';

/** Directories commonly left without an index page (uploads, downloads, backups). */
const DIRS = ['/files/', '/uploads/', '/upload/', '/backup/', '/backups/', '/download/', '/downloads/', '/pub/'];

/**
 * The listing vigil.http.dir-listing cannot see: past the first 4 KB of the
 * home page detection keeps (Caddy's browse template puts 18 KB of style
 * and icons before its first entry, measured on Caddy 2.6), and in the
 * directories a site commonly leaves without an index. A directory counts
 * only if a random directory of the same server does not answer with the
 * same page (lib/probes.ts: soft-200 servers).
 */
export default defineCheck({
  id: 'vigil.http.dir-listing-dirs',
  shortid: 'HTTP-DIRLIST-DIRS',
  title: 'Web server directory listing enabled (home page or common directories)',
  family: 'Web Servers',
  categories: ['safe', 'discovery', 'default'],
  risk: 'medium',
  type: 'NOTE',
  qod: 95,
  description: dirListing.description,
  solution: dirListing.solution,
  ports: { where: isHttpService },
  async run({ net, service }) {
    const svc = service!;
    const get = (path: string) =>
      httpRequest(net, svc.port, usesTls(svc), { target: path, timeoutMs: 4000, maxBytes: 65536 }).catch(() => null);
    const listing = (a: HttpAnswer | null) =>
      a?.status === 200 && isHtml(a) ? listingEvidence(a.raw.toString('latin1')) : null;
    // What detection saw is vigil.http.dir-listing's: one finding per listing.
    const seen = svc.http?.status === 200 && isHtml(svc.http) ? listingEvidence(svc.http.body) : null;
    if (seen) return null;
    // Detection kept the whole home page when it is under its 4 KB: no second GET / then.
    let page = svc.http && svc.http.body.length < 4096 ? svc.http.body : null;
    if (page === null) {
      const home = await get('/');
      const atHome = listing(home);
      if (atHome) return `GET / answers with a directory listing: ${atHome}.`;
      if (!home) return null;
      page = home.raw.toString('latin1');
    }
    const linked = linkedPaths(page).filter((p) => p.endsWith('/'));
    const random = await get(`/vigil-${randomBytes(6).toString('hex')}/`);
    // A server that lists a random directory too shows one page for any path (its root's listing, or an app):
    // no directory of it proves anything.
    if (!random || listing(random)) return null;
    for (const dir of [...new Set([...linked.slice(0, 3), ...DIRS])]) {
      const a = await get(dir);
      if (!a) return null;
      const evidence = listing(a);
      if (evidence) return `GET ${dir} answers with a directory listing: ${evidence}.`;
    }
    return null;
  },
});
