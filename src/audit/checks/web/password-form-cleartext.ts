import { defineCheck } from '../kit.ts';
import { pages } from './lib/policy.ts';
import { plainHttpService } from '../../proto/http.ts';

export default defineCheck({
  id: 'vigil.http.password-form-cleartext',
  shortid: 'HTTP-PASSWORD-FORM',
  title: 'Password form served over plain HTTP',
  family: 'Web Servers',
  categories: ['safe', 'vuln', 'default'],
  risk: 'medium',
  type: 'NOTE',
  qod: 95,
  description:
    'A page with a password field is served over unencrypted HTTP: the password is sent in clear text, and anyone on the path can also rewrite the form to send it elsewhere.',
  solution: 'Serve the site over HTTPS only and redirect HTTP to it.',
  // Plain HTTP only: over TLS the password is protected.
  ports: { where: plainHttpService },
  async run({ net, service, host }) {
    const svc = service!;
    // HTML's <input type=password> (any quoting); a page that only says "password" is not a form.
    const hit = (await pages(net, svc, host)).find(
      ([, a]) => a.status === 200 && /<input\b[^>]*\btype\s*=\s*["']?password\b/i.test(a.body),
    );
    return hit ? `GET ${hit[0]} over plain HTTP serves a form with a password field.` : null;
  },
});
