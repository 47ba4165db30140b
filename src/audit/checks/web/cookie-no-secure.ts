import { defineCheck } from '../kit.ts';
import { cookiesWithout } from './lib/policy.ts';
import { httpsService } from '../../proto/http.ts';

export default defineCheck({
  id: 'vigil.http.cookie-no-secure',
  shortid: 'HTTP-COOKIE-SECURE',
  title: 'Cookie over HTTPS without the Secure attribute',
  family: 'Web Servers',
  categories: ['safe', 'vuln', 'default'],
  risk: 'low',
  type: 'NOTE',
  qod: 95,
  description:
    'An HTTPS site sets a cookie without Secure, so the browser also sends it over plain HTTP, where anyone on the path can read it.',
  solution: 'Add the Secure attribute to every cookie the HTTPS site sets (e.g. PHP session.cookie_secure = 1).',
  // Over plain HTTP, Secure cannot be set (browsers ignore it there): the weakness exists on HTTPS only.
  ports: { where: httpsService },
  async run({ net, service, host }) {
    const svc = service!;
    const bare = await cookiesWithout(net, svc, host, 'secure', () => false);
    return bare.length ? `Set over HTTPS without Secure: ${bare.join(', ')}.` : null;
  },
});
