import { defineCheck } from '../kit.ts';
import { propfindProbe } from './lib/dav.ts';
import { isHttpService } from '../../proto/http.ts';

export default defineCheck({
  id: 'vigil.http.webdav-open',
  shortid: 'HTTP-WEBDAV',
  title: 'WebDAV answers without authentication',
  family: 'Web Servers',
  categories: ['safe', 'auth', 'default'],
  risk: 'medium',
  type: 'NOTE',
  qod: 99,
  description:
    'WebDAV answers PROPFIND without asking for credentials: anyone can list the collection and its properties, and write methods are often enabled with it.',
  solution:
    'Require authentication for the WebDAV location (Apache: AuthType and Require valid-user in its <Location>), or turn WebDAV off.',
  ports: { where: isHttpService },
  run: ({ net, service }) => propfindProbe(net, service!),
});
