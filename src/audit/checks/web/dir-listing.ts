import { defineCheck } from '../kit.ts';
import { listingEvidence } from './lib/listing.ts';
import { hasHttpAnswer, isHtml } from './lib/pages.ts';

export default defineCheck({
  id: 'vigil.http.dir-listing',
  shortid: 'HTTP-DIRLIST',
  title: 'Web server directory listing enabled',
  family: 'Web Servers',
  categories: ['safe', 'passive', 'default'],
  risk: 'medium',
  type: 'NOTE',
  description:
    'The web server lists the files of a directory that has no index page, exposing file names (backups, scripts, data) an attacker can then fetch.',
  solution:
    'Turn directory listings off (Apache: Options -Indexes; nginx: autoindex off; Caddy: file_server without browse; h2o: file.dirlisting: OFF; webfsd: -j) or put an index page in the directory.',
  ports: { where: hasHttpAnswer },
  async run({ service }) {
    const h = service?.http;
    if (!h || h.status !== 200 || !isHtml(h)) return null;
    const evidence = listingEvidence(h.body);
    return evidence ? `GET / answers with a directory listing: ${evidence}.` : null;
  },
});
