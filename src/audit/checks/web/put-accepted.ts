import { defineCheck } from '../kit.ts';
import { putAcceptedProbe } from './lib/dav.ts';
import { isHttpService } from '../../proto/http.ts';

export default defineCheck({
  id: 'vigil.http.put-accepted',
  shortid: 'HTTP-PUT-ACCEPTED',
  title: 'Web server would accept uploads with PUT (no authentication)',
  family: 'Web Servers',
  categories: ['safe', 'vuln', 'default'],
  risk: 'medium',
  type: 'NOTE',
  qod: 80,
  description:
    'A PUT without credentials gets "100 Continue": the server is ready to store what anyone sends (WebDAV or dav_methods without authentication). Seen without writing anything; the advanced audit confirms it with a real write.',
  solution:
    'Require authentication for PUT and the WebDAV write methods, or disable them (Apache: no Dav On without Require; nginx: no dav_methods).',
  ports: { where: isHttpService },
  run: ({ net, service }) => putAcceptedProbe(net, service!),
});
