import { defineCheck } from '../kit.ts';
import { putProbe } from './lib/dav.ts';
import { isHttpService } from '../../proto/http.ts';

export default defineCheck({
  id: 'vigil.http.put-write',
  shortid: 'HTTP-PUT',
  title: 'Web server accepts file uploads with PUT (no authentication)',
  family: 'Web Servers',
  categories: ['intrusive', 'vuln'],
  risk: 'high',
  type: 'HOLE',
  qod: 99,
  description:
    'Anyone can create files on the server with HTTP PUT (WebDAV or dav_methods without authentication): an attacker can deface the site, plant malware for visitors or, where scripts run, upload a web shell.',
  solution:
    'Require authentication for PUT and the WebDAV write methods, or disable them (Apache: no Dav On without Require; nginx: no dav_methods).',
  ports: { where: isHttpService },
  run: ({ net, service }) => putProbe(net, service!),
});
