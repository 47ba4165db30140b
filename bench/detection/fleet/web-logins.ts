/**
 * Web logins beyond HTTP Basic (issue 27): HTTP Digest (RFC 7616).
 * - nagios4 (K 76): a Nagios Core daemon of our own behind Debian's own
 *   Apache configuration for it (test/helpers/nagios.ts): as shipped
 *   (use_authentication=0, open to private addresses, so to us), and
 *   secured with Digest as its comments say, left at nagiosadmin/nagiosadmin;
 *   beside them, an Apache mod_auth_digest area at admin/admin.
 * - http-digest (K 79): lighttpd's Digest (SHA-256) area at admin/admin.
 * Twins: the same daemons with strong passwords. The HTML login forms
 * (phpMyAdmin, Cacti) are php-apps.ts's.
 * nmap: http-default-accounts, which knows Nagios (Basic, "Nagios Access"),
 * is `intrusive` (not in the default,safe,vuln set the bench runs); -sV
 * names the web servers only.
 */
import { join } from 'node:path';
import { htdigest, NAGIOS, nagiosApache, nagiosConfig, nagiosReady } from '../../../test/helpers/nagios.ts';
import { addr, none, sleep, type Daemon, type Weakness } from './kit.ts';
import { startApache } from './apache.ts';
import { INDEX } from './nginx-proc.ts';

export const STRONG = 'bench-L0gin-not-a-secret';
export const CREDS = /^vigil\.web\.default-credentials$/;
const OPEN = /^vigil\.web\.admin-open$/;
export const SHIPPED = /^vigil\.web\.vendor-default-login$/;

export const weakness = (
  daemon: string,
  address: string,
  port: number,
  w: Pick<Weakness, 'id' | 'label' | 'vigil' | 'nmap'>,
): Weakness => ({ family: 'auth', daemon, address, port, proto: 'tcp', ...w });

const HARDENED = [
  'TraceEnable Off',
  'Header always set X-Frame-Options DENY',
  'Header always set X-Content-Type-Options nosniff',
  `Header always set Content-Security-Policy "default-src 'self'"`,
];

const NK = 76;
const NG = (n: number) => addr(NK, n);
export const NAGIOS4: Daemon = {
  kind: 'nagios4',
  binaries: [NAGIOS, 'apache2', '/usr/lib/cgi-bin/nagios4/tac.cgi'],
  ports: { tcp: [80], udp: [] },
  weaknesses: [
    weakness('nagios4', NG(1), 80, {
      id: 'nagios-open',
      label: "Nagios 4 as Debian ships it: use_authentication=0, CGIs open to private addresses (the scanner's)",
      vigil: { id: OPEN, text: /Nagios/ },
      nmap: none,
    }),
    weakness('nagios4', NG(2), 80, {
      id: 'nagios-digest-default',
      label: "Nagios 4 behind HTTP Digest (Debian's commented stanza) with nagiosadmin/nagiosadmin",
      vigil: { id: CREDS, text: /Nagios/ },
      nmap: none,
    }),
    weakness('apache2', NG(3), 80, {
      id: 'apache-digest-admin',
      label: 'Apache mod_auth_digest /admin/ area with admin/admin',
      vigil: { id: CREDS, text: /Digest/ },
      nmap: none,
    }),
  ],
  twins: [
    {
      address: NG(100),
      note: 'Nagios behind HTTP Digest with a strong nagiosadmin password, an /admin/ Digest area with a strong one',
    },
  ],
  async start(ctx) {
    const cfg = nagiosConfig(ctx.dir('nagios'));
    const daemon = ctx.spawn('nagios', NAGIOS, cfg.args);
    const deadline = Date.now() + 30_000;
    while (!nagiosReady(cfg.status)) {
      if (daemon.exitCode !== null || Date.now() > deadline) throw new Error('nagios4 wrote no status file');
      await sleep(200);
    }
    const root = ctx.dir('apache');
    const users = (name: string, realm: string, user: string, password: string) =>
      ctx.write(join(root, `${name}.digest`), htdigest(user, realm, password));
    const area = (file: string) =>
      `<Location /admin/>\n AuthType Digest\n AuthName "Restricted"\n AuthDigestProvider file\n AuthUserFile ${file}\n Require valid-user\n</Location>`;
    const vhost = (address: string, conf: string) => {
      const www = ctx.dir(`www-${address}`);
      ctx.write(join(www, 'index.html'), INDEX);
      ctx.write(join(www, 'admin', 'index.html'), INDEX);
      // nagiosApache's module lines belong to the server: only its <Directory…>/alias part goes in the host.
      return `<VirtualHost ${address}:80>\n ServerName ${address}\n DocumentRoot ${www}\n <Directory ${www}>\n  Require all granted\n </Directory>\n ${HARDENED.join('\n ')}\n${conf.replace(/^LoadModule .*$/gm, '')}\n</VirtualHost>`;
    };
    const hosts = [
      vhost(NG(1), nagiosApache(cfg.cgiCfg(false), users('open', 'Nagios4', 'nagiosadmin', STRONG), false)),
      vhost(NG(2), nagiosApache(cfg.cgiCfg(true), users('weak', 'Nagios4', 'nagiosadmin', 'nagiosadmin'), true)),
      vhost(NG(3), area(users('area', 'Restricted', 'admin', 'admin'))),
      vhost(
        NG(100),
        `${nagiosApache(cfg.cgiCfg(true), users('twin', 'Nagios4', 'nagiosadmin', STRONG), true)}\n${area(users('area-twin', 'Restricted', 'admin', STRONG))}`,
      ),
    ];
    const modules = [
      'mpm_prefork',
      'authz_core',
      'authz_host',
      'authz_user',
      'authz_groupfile',
      'authn_core',
      'authn_file',
      'auth_digest',
      'mime',
      'dir',
      'alias',
      'cgi',
      'env',
      'headers',
    ];
    const addresses = [NG(1), NG(2), NG(3), NG(100)];
    await startApache(ctx, {
      name: 'nagios',
      root,
      tokens: 'Prod',
      modules,
      extra: ['StartServers 2'],
      addresses,
      vhosts: hosts,
    });
  },
};

const DK = 79;
const DG = (n: number) => addr(DK, n);
export const HTTP_DIGEST: Daemon = {
  kind: 'http-digest',
  binaries: ['lighttpd'],
  ports: { tcp: [80], udp: [] },
  weaknesses: [
    weakness('lighttpd', DG(1), 80, {
      id: 'lighttpd-digest-admin',
      label: 'lighttpd mod_auth Digest (SHA-256) /admin/ area with admin/admin',
      vigil: { id: CREDS, text: /Digest/ },
      nmap: none,
    }),
  ],
  twins: [{ address: DG(100), note: 'the same area with a strong password' }],
  async start(ctx) {
    for (const [address, password] of [
      [DG(1), 'admin'],
      [DG(100), STRONG],
    ] as const) {
      const dir = ctx.dir(address);
      ctx.write(join(dir, 'www', 'index.html'), '<html><body>bench site</body></html>');
      ctx.write(join(dir, 'www', 'admin', 'index.html'), 'panel');
      const users = ctx.write(join(dir, 'users'), `admin:${password}\n`);
      const conf = ctx.write(
        join(dir, 'lighttpd.conf'),
        [
          `server.document-root = "${dir}/www"`,
          `server.bind = "${address}"`,
          'server.port = 80',
          'server.modules = ("mod_auth", "mod_authn_file")',
          'index-file.names = ("index.html")',
          'auth.backend = "plain"',
          `auth.backend.plain.userfile = "${users}"`,
          'auth.require = ("/admin/" => ("method" => "digest", "realm" => "Vault", "require" => "valid-user", "algorithm" => "SHA-256"))',
        ].join('\n'),
      );
      const child = ctx.spawn(`lighttpd-${address}`, 'lighttpd', ['-D', '-f', conf]);
      await ctx.waitTcp(address, 80, child);
    }
  },
};
