import type { Risk } from '../../engine/types.ts';

/**
 * Web administration pages behind HTTP Basic authentication, per product:
 * where the page is, how its unauthenticated answer (401 and the Basic
 * realm, sometimes the Server header) identifies the product, the few
 * default pairs its vendor ships or its documentation and tutorials print
 * (never a dictionary: at most five pairs), and what only a logged-in
 * answer carries. web/default-credentials.ts tries the pairs on a product
 * it recognised; web/admin-open.ts asks the same pages without credentials.
 *
 * A row without `proof` (the generic realm) is proven by contrast instead:
 * the pair answers 200 where a random password for the same user still
 * answers 401, so a server that lets anyone in is not mistaken for a
 * default password.
 */
export interface AdminPage {
  /** As the report names it. */
  product: string;
  /** The admin page (GET). */
  path: string;
  /** The Basic realm of the 401 without credentials. */
  realm: RegExp;
  /** And, when set, the Server header of that 401. */
  server?: RegExp;
  /** Where the pairs come from, for the report ("the vendor default", …). */
  source: string;
  pairs: readonly (readonly [user: string, password: string])[];
  /** What only a logged-in answer (HTTP 200) carries (the report quotes its first group, else the match); null: proven by contrast (see above). */
  proof: RegExp | null;
  /** Risk of the page open to anyone (admin-open) or logged in with a default. */
  risk: Risk;
  /**
   * Other pages of the same realm with their own proof, asked with a pair that authenticated but lacks the
   * role for `path` (Tomcat answers 403 to a valid user without it), and asked without credentials by
   * admin-open.
   */
  also?: readonly { path: string; what: string; proof: RegExp; risk: Risk }[];
  /** The page open to anyone is another check's finding (admin-open leaves it out). */
  openReportedBy?: string;
  /**
   * The pairs are the product's own shipped default, documented as such (RabbitMQ's guest, ActiveMQ's
   * jetty-realm.properties, Monit's monitrc): one login as the product's documentation tells its users to try,
   * which `norisk` and `standard` send as they send anonymous FTP (web/vendor-default-login.ts). Rows without it
   * (pairs from tutorials, several per user) are password guesses: `advanced` only (web/default-credentials.ts).
   */
  shipped?: true;
}

/**
 * The pairs tomcat-users.xml is given from the documentation and copied
 * tutorials: the commented examples of Tomcat 4-7's file (tomcat/tomcat,
 * both/tomcat, role1/…), the manager how-to's "s3cret", and admin/admin.
 * Five tries per application stay under the LockOutRealm of Tomcat's
 * default server.xml (failureCount 5 per user): no user is tried more
 * than twice per application.
 */
const TOMCAT: AdminPage['pairs'] = [
  ['tomcat', 'tomcat'],
  ['admin', 'admin'],
  ['tomcat', 's3cret'],
  ['both', 'tomcat'],
  ['role1', 'role1'],
];

/**
 * HAProxy's statistics page behind `stats auth` (realm "HAProxy
 * Statistics" unless `stats realm` says otherwise), at its default URI and
 * the one tutorials use; `stats admin` makes it a control page (servers
 * drained, disabled). The pairs tutorials print for `stats auth`.
 */
const HAPROXY = ['/haproxy?stats', '/stats'].map(
  (path): AdminPage => ({
    product: 'HAProxy statistics page',
    path,
    realm: /^HAProxy Statistics$/,
    source: 'the stats auth pair tutorials print',
    pairs: [
      ['admin', 'admin'],
      ['admin', 'password'],
    ],
    // src/stats.c (HAProxy 2.x): the page title, "for pid N" with stats hide-version.
    proof: /Statistics Report for (?:HAProxy|pid \d+)/,
    risk: 'medium',
    openReportedBy: 'vigil.http.status-page',
  }),
);

/**
 * Nagios Core's CGIs and the classic UIs of its family (Icinga 1's), at
 * Debian nagios4's paths (/cgi-bin/nagios4/, its apache2.conf) and
 * upstream's (/nagios/cgi-bin/, /icinga/cgi-bin/). Debian secures them with
 * HTTP Digest (realm "Nagios4", an htdigest file), upstream with Basic
 * ("Nagios Access", "Icinga Access"). nagiosadmin is the user every
 * install guide creates; its password is the guide's (nagiosadmin, nagios):
 * a guess, so advanced only. Proof: the tactical overview's status panels,
 * which tac.cgi draws only from a running daemon's status data (an error
 * page without them).
 */
const NAGIOS = ['/cgi-bin/nagios4/tac.cgi', '/nagios/cgi-bin/tac.cgi', '/icinga/cgi-bin/tac.cgi'].map(
  (path): AdminPage => ({
    product: 'Nagios web interface',
    path,
    realm: /^(?:Nagios|Icinga)/i,
    source: 'the nagiosadmin password of install guides',
    pairs: [
      ['nagiosadmin', 'nagiosadmin'],
      ['nagiosadmin', 'nagios'],
    ],
    // cgi/tac.c: the info box title, then the performance panel drawn from status.dat.
    proof: /(Tactical Status Overview)[\s\S]*Monitoring Performance/,
    risk: 'high',
  }),
);

export const ADMIN_PAGES: readonly AdminPage[] = [
  {
    // monit.c / http: realm "monit", Server "monit 5.x"; Debian's monitrc template has `allow admin:monit`.
    product: 'Monit web interface',
    path: '/',
    realm: /^monit$/i,
    server: /^monit\b/i,
    source: "monit's documented default (Debian monitrc: allow admin:monit)",
    pairs: [['admin', 'monit']],
    shipped: true,
    // The status page of every Monit 5.x (http/cervlet.c do_home).
    proof: /<h1>Monit Service Manager<\/h1>/,
    risk: 'high',
  },
  {
    // Tomcat's manager web.xml: BASIC, realm-name "Tomcat Manager Application".
    product: 'Apache Tomcat Manager',
    path: '/manager/html',
    realm: /^Tomcat Manager Application$/,
    source: 'a tomcat-users.xml example pair from the Tomcat documentation and tutorials',
    pairs: TOMCAT,
    proof: /Tomcat Web Application Manager/,
    risk: 'high',
    also: [
      // manager-script: the text API (deploy, undeploy); manager-status: the status page.
      { path: '/manager/text/serverinfo', what: 'the Manager text API', proof: /^OK - Server info/, risk: 'high' },
      {
        path: '/manager/status',
        what: 'the Manager status page',
        proof: /(Server Status)<\/font>[\s\S]*\/manager\/status\/all/,
        risk: 'medium',
      },
    ],
  },
  {
    product: 'Apache Tomcat Host Manager',
    path: '/host-manager/html',
    realm: /^Tomcat Host Manager Application$/,
    source: 'a tomcat-users.xml example pair from the Tomcat documentation and tutorials',
    pairs: TOMCAT,
    proof: /Tomcat Virtual Host Manager/,
    risk: 'high',
    also: [
      { path: '/host-manager/text/list', what: 'the Host Manager text API', proof: /^OK - Listed hosts/, risk: 'high' },
    ],
  },
  {
    // rabbitmq_management: realm "RabbitMQ Management"; guest/guest is the broker's default user.
    product: 'RabbitMQ management API',
    path: '/api/whoami',
    realm: /^RabbitMQ Management$/,
    source: "RabbitMQ's default user",
    pairs: [['guest', 'guest']],
    shipped: true,
    proof: /^\s*\{"name":"[^"]*","tags":/,
    risk: 'high',
  },
  {
    // ActiveMQ 5.x conf/jetty.xml (realm ActiveMQRealm) and conf/jetty-realm.properties (admin: admin, admin;
    // user: user, user).
    product: 'Apache ActiveMQ web console',
    path: '/admin/',
    realm: /^ActiveMQRealm$/,
    source: "ActiveMQ's shipped jetty-realm.properties",
    pairs: [
      ['admin', 'admin'],
      ['user', 'user'],
    ],
    shipped: true,
    proof: /ActiveMQ Console/,
    risk: 'high',
  },
  ...NAGIOS,
  ...HAPROXY,
  {
    // Icecast 2.x (src/admin.c, client.c): the admin pages ask Basic realm "Icecast2 Server"; the icecast.xml it
    // ships has <admin-user>admin</admin-user> and <admin-password>hackme</admin-password> (Debian's too, unless
    // debconf was told otherwise). /admin/stats answers the server's statistics as XML.
    product: 'Icecast admin interface',
    path: '/admin/stats',
    realm: /^Icecast2? Server$/,
    source: "Icecast's shipped icecast.xml",
    pairs: [['admin', 'hackme']],
    shipped: true,
    proof: /<icestats>/,
    risk: 'high',
  },
  {
    // Supervisor's [inet_http_server] (medusa: realm "default"); its documentation's sample supervisord.conf
    // has `username=user` and `password=123`. Written from supervisor's sources (ui/status.html): Debian's
    // supervisor is not installed on the test machine.
    product: 'Supervisor web interface',
    path: '/',
    realm: /^default$/,
    server: /^Medusa\//,
    source: "the sample supervisord.conf's inet_http_server pair",
    pairs: [['user', '123']],
    proof: /<title>Supervisor Status<\/title>/,
    risk: 'high',
  },
  {
    // Apache Felix web console (Karaf, Sling, AEM): realm "OSGi Management Console", admin/admin by default
    // (felix.webconsole.username/password); Karaf's users.properties ships karaf/karaf.
    product: 'Apache Felix web console',
    path: '/system/console',
    realm: /^OSGi Management Console$/,
    source: "the Felix web console's default (Karaf: users.properties)",
    pairs: [
      ['admin', 'admin'],
      ['karaf', 'karaf'],
    ],
    shipped: true,
    proof: null,
    risk: 'high',
  },
];

/**
 * Any other Basic realm of the site (on these paths, the usual protected
 * places web/lib/policy.ts lists, and what the home page links to): the two
 * pairs admin pages are most often left with. Tried only on the first realm
 * found that no product row has.
 */
export const GENERIC_ADMIN: Omit<AdminPage, 'path'> & { paths: readonly string[] } = {
  product: 'HTTP Basic-protected area',
  paths: ['/', '/admin/', '/admin'],
  realm: /[\s\S]*/,
  source: 'a common default for admin pages',
  pairs: [
    ['admin', 'admin'],
    ['admin', 'password'],
  ],
  proof: null,
  risk: 'high',
};
