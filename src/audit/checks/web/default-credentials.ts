import { defineCheck } from '../kit.ts';
import { isHttpService } from '../../proto/http.ts';
import { loginRun } from './lib/admin-login.ts';

/**
 * Default credentials on web admin pages (data/web-admin-defaults.ts) that
 * are guesses: the pairs tutorials and documentation examples print
 * (Tomcat, HAProxy's stats auth) and, on a realm no product row has, the
 * two commonest admin pairs. Only on a product recognised by its 401
 * (realm, Server header), only its own few pairs, stopping at the first
 * that works; proven by the logged-in page's marker, or for the generic
 * realm a 200 where a random password is still refused
 * (lib/admin-login.ts), over HTTP Basic or Digest or through the product's
 * login form (lib/form-login.ts). A product's own shipped default is
 * vendor-default-login.ts's.
 */
export default defineCheck({
  id: 'vigil.web.default-credentials',
  shortid: 'WEB-DEFAULT-CREDS',
  title: 'Web admin page accepts a default password',
  family: 'Web Servers',
  // A login attempt with guessed passwords: failed logins are logged, count towards lock-outs (Tomcat's
  // LockOutRealm) and may trip fail2ban, so advanced only (docs/audits.md, "Web admin pages").
  categories: ['intrusive', 'auth'],
  risk: 'high',
  type: 'HOLE',
  qod: 99,
  description:
    "A web administration page (Tomcat's Manager or Host Manager, HAProxy's statistics page, Nagios, phpMyAdmin, an HTTP Basic or Digest admin area …) let the scanner in with a password from the product's documentation examples or tutorials, or one of the two commonest admin pairs: anyone who reaches it can do what its administrator does (deploy code to Tomcat, drain HAProxy's servers, silence Nagios, run SQL through phpMyAdmin).",
  solution:
    'Give every admin account a strong unique password (tomcat-users.xml, haproxy `stats auth`, the web server\u2019s password file), remove the example users, and let only administrators\u2019 addresses reach the page, over HTTPS.',
  references: [
    'https://tomcat.apache.org/tomcat-10.1-doc/manager-howto.html',
    'https://nmap.org/nsedoc/scripts/http-default-accounts.html',
  ],
  ports: { where: isHttpService, ports: [2812, 8080, 8161, 8443, 15672] },
  run: loginRun('guessed'),
});
