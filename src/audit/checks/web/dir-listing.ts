import { defineCheck } from '../kit.ts';
import { LISTING, hasHttpAnswer } from './lib/pages.ts';

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
    'Turn directory listings off (Apache: Options -Indexes; nginx: autoindex off) or put an index page in the directory.',
  ports: { where: hasHttpAnswer },
  async run({ service }) {
    const h = service?.http;
    if (!h) return null;
    return h.status === 200 && LISTING.some((re) => re.test(h.body))
      ? `GET / answers with a directory listing: "${/Index of [^<]*|Directory listing[^<]*|\[To Parent Directory\]/i.exec(h.body)?.[0] ?? 'listing'}".`
      : null;
  },
});
