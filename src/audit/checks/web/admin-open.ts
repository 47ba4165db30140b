import type { Found } from '../kit.ts';
import { defineCheck } from '../kit.ts';
import { isHttpService } from '../../proto/http.ts';
import { asker, PROVABLE_PAGES, quote, text } from './lib/admin-pages.ts';
import { FORM_PRODUCTS } from './lib/form-login.ts';

/**
 * An admin interface that answers its admin page without credentials:
 * each page of data/web-admin-defaults.ts that has a logged-in marker is
 * asked with a plain GET, and only a 200 carrying that marker counts (Monit
 * with `allow 0.0.0.0/0.0.0.0` and no user, a Tomcat Manager whose
 * security constraint was removed, an ActiveMQ console with
 * authenticate=false), and each login-form application of
 * data/web-form-logins.ts whose page shows its logged-in marker to a
 * request without cookies (phpMyAdmin with auth_type config logs everyone
 * in). A login page, a 401 or a 403 is not a finding.
 */
export default defineCheck({
  id: 'vigil.web.admin-open',
  shortid: 'WEB-ADMIN-OPEN',
  title: 'Web admin interface open without authentication',
  family: 'Web Servers',
  // One ordinary GET per known admin page, no credentials sent: safe, so standard and norisk run it.
  categories: ['safe', 'auth', 'default'],
  risk: 'high',
  type: 'HOLE',
  qod: 95,
  description:
    "A web administration interface answers its admin page to anyone, without asking for credentials: whoever reaches it can do what its administrator does (Monit: stop and restart services; Tomcat's Manager: deploy code; a status page: read the server's state, clients and requests).",
  solution:
    'Require authentication on the interface (monitrc `allow user:password` next to the address rules; restore the security constraints of the Manager web.xml), and let only administrators\u2019 addresses reach it.',
  references: ['https://mmonit.com/monit/documentation/monit.html#AUTHENTICATION'],
  ports: { where: isHttpService, ports: [2812, 8080, 8161, 8443, 15672] },
  async run({ net, service, port }) {
    const ask = asker(net, port, service);
    const out: Found[] = [];
    for (const p of PROVABLE_PAGES) {
      const a = await ask.bare(p.path);
      const m = a?.status === 200 ? p.proof.exec(text(a)) : null;
      if (m)
        out.push({
          detail: `GET ${p.path} without credentials: HTTP 200 showing "${quote(m)}": ${p.what} answers anyone.`,
          title: `Admin interface open without authentication: ${p.product}`,
          risk: p.risk,
        });
    }
    for (const p of FORM_PRODUCTS) {
      for (const path of p.paths) {
        const a = await ask.bare(path);
        // The product named on the page too: a log-out link alone could be any site's.
        const m = a?.status === 200 && p.brand.test(text(a)) ? p.proof.exec(text(a)) : null;
        if (!m) continue;
        out.push({
          detail: `GET ${path} without credentials or cookies: HTTP 200 showing "${quote(m)}": ${p.product} is logged in for anyone.`,
          title: `Admin interface open without authentication: ${p.product}`,
          risk: p.risk,
        });
        break;
      }
    }
    return out;
  },
});
