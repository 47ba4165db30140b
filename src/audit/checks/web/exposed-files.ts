import { CONTENT_FAMILIES, type ContentFamily } from '../data/web-content.ts';
import { MONITORING_FAMILIES } from '../data/web-monitoring.ts';
import { SAMPLE_FAMILIES } from '../data/web-samples.ts';
import { type Check, defineCheck } from '../kit.ts';
import { scan } from './lib/content.ts';
import type { Risk } from '../../engine/types.ts';
import { isHttpService } from '../../proto/http.ts';

/**
 * Files that should not be public, one check per family of data/web-content.ts
 * (version-control metadata, status pages, backups, OS metadata,
 * credentials, phpinfo; metrics endpoints in data/web-monitoring.ts; sample
 * applications and manuals in data/web-samples.ts): a new family is a data row, this file is the check.
 */
function exposedFiles(fam: ContentFamily): Check {
  return defineCheck({
    id: fam.id,
    shortid: fam.shortid,
    title: fam.title,
    family: 'Web Servers',
    categories: ['safe', 'discovery', 'vuln', 'default'],
    risk: fam.risk as Risk,
    type: fam.type,
    description: fam.description,
    solution: fam.solution,
    // The body signature is read, not guessed from a status code: an active confirmation.
    qod: 95,
    ports: { where: isHttpService },
    async run({ net, service, host }) {
      const hits = await scan(net, service!, host, fam).catch(() => []);
      if (!hits.length) return null;
      return `${fam.lead}: ${hits.slice(0, 12).join(', ')}${hits.length > 12 ? `, and ${hits.length - 12} more` : ''}.`;
    },
  });
}

export default [...CONTENT_FAMILIES, ...MONITORING_FAMILIES, ...SAMPLE_FAMILIES].map(exposedFiles);
