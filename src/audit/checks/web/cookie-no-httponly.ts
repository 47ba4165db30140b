import { defineCheck } from '../kit.ts';
import { cookiesWithout, scriptReadable } from './lib/policy.ts';
import { isHttpService } from '../../proto/http.ts';

export default defineCheck({
  id: 'vigil.http.cookie-no-httponly',
  shortid: 'HTTP-COOKIE-HTTPONLY',
  title: 'Cookie without the HttpOnly attribute',
  family: 'Web Servers',
  categories: ['safe', 'vuln', 'default'],
  risk: 'low',
  type: 'NOTE',
  qod: 95,
  description:
    'A cookie is set without HttpOnly, so any script running in the page (an injected one included) can read it and steal the session.',
  solution:
    "Add the HttpOnly attribute to session and authentication cookies (in the application's cookie settings, e.g. PHP session.cookie_httponly = 1).",
  ports: { where: isHttpService },
  async run({ net, service, host }) {
    const svc = service!;
    const bare = await cookiesWithout(net, svc, host, 'httponly', scriptReadable);
    return bare.length ? `Set without HttpOnly: ${bare.join(', ')}.` : null;
  },
});
