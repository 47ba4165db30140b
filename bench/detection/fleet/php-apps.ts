/**
 * Web applications with HTML login forms (issue 27), Debian's own trees
 * (test/helpers/php-apps.ts), each kind on one MariaDB of its own:
 * - phpmyadmin (K 77): phpMyAdmin behind nginx + php-fpm, on a MariaDB whose
 *   root has an empty password through the socket (with AllowNoPassword,
 *   XAMPP's setup) and root/root over TCP (MAMP's);
 * - cacti (K 78): Cacti with its shipped admin/admin.
 * Twins over HTTPS with HSTS (a password form over plain HTTP is a finding
 * of its own): phpMyAdmin on a root with a strong password, Cacti with its
 * admin password changed. The Zabbix frontend is not planted: Debian's
 * zabbix-frontend-php has no schema (zabbix-server-mysql has it, not
 * installed here). nmap: http-default-accounts knows Cacti but is
 * `intrusive`, outside the default,safe,vuln set the bench runs.
 */
import { join } from 'node:path';
import { leaf } from '../certs.ts';
import {
  cacti,
  cactiSql,
  dbInit,
  loadSql,
  mariadbArgs,
  mariadbInstallArgs,
  PHP,
  phpMyAdmin,
} from '../../../test/helpers/php-apps.ts';
import { addr, none, type Ctx, type Daemon } from './kit.ts';
import { HEADERS, LIMITS, php, startNginx, startPhpFpm } from './nginx-proc.ts';
import { CREDS, SHIPPED, STRONG, weakness } from './web-logins.ts';

/**
 * One MariaDB for a kind, on its own address (never scanned) and, with `v6`, on ::1 (one kind only: the port
 * is 3306 for all), set up by dbInit; resolves when `sql` is loaded.
 */
async function mariadb(
  ctx: Ctx,
  address: string,
  sql: string[],
  v6 = false,
): Promise<{ socket: string; port: number }> {
  const dir = ctx.dir('mariadb');
  ctx.run('mariadb-install-db', mariadbInstallArgs(dir));
  ctx.write(join(dir, 'init.sql'), dbInit('root', STRONG, STRONG));
  const socket = join(dir, 'sock');
  const port = 3306;
  const child = ctx.spawn('mariadbd', 'mariadbd', mariadbArgs(dir, `${address}${v6 ? ',::1' : ''}`, port));
  await ctx.waitTcp(address, port, child, 30_000);
  await Promise.all(sql.map((s) => loadSql(socket, s)));
  return { socket, port };
}

const HSTS = 'add_header Strict-Transport-Security "max-age=31536000" always;';
/** nginx server blocks for PHP trees: plain HTTP for the weak ones, HTTPS with HSTS for the twin. */
async function phpSites(ctx: Ctx, sites: { address: string; root: string; tls: boolean }[]): Promise<void> {
  const dir = ctx.dir('nginx');
  const sock = await startPhpFpm(ctx, dir);
  const servers: string[] = [];
  for (const s of sites) {
    const common = `root ${s.root}; index index.php; ${HEADERS} ${LIMITS} location ~ /\\. { return 404; } ${php(sock)}`;
    if (!s.tls) {
      servers.push(`server { listen ${s.address}:80; ${common} }`);
      continue;
    }
    const pem = await leaf(s.address);
    const crt = ctx.write(join(dir, `${s.address}.crt`), pem.cert);
    const key = ctx.write(join(dir, `${s.address}.key`), pem.key, 0o600);
    servers.push(
      `server { listen ${s.address}:443 ssl; ssl_certificate ${crt}; ssl_certificate_key ${key}; ssl_protocols TLSv1.2 TLSv1.3; ${HSTS} ${common} }`,
    );
  }
  await startNginx(
    ctx,
    dir,
    servers,
    sites.map((s) => [s.address, s.tls ? 443 : 80]),
  );
}

const PK = 77;
const PM = (n: number) => addr(PK, n);
export const PHPMYADMIN: Daemon = {
  kind: 'phpmyadmin',
  binaries: [PHP, 'nginx', 'mariadbd', '/usr/share/phpmyadmin/index.php'],
  ports: { tcp: [80, 443], udp: [] },
  weaknesses: [
    weakness('phpmyadmin', PM(1), 80, {
      id: 'phpmyadmin-empty-root',
      label: 'phpMyAdmin with AllowNoPassword on a MariaDB whose root has an empty password (XAMPP)',
      vigil: { id: SHIPPED, text: /phpMyAdmin/ },
      nmap: none,
    }),
    weakness('phpmyadmin', PM(2), 80, {
      id: 'phpmyadmin-root-root',
      label: 'phpMyAdmin on a MariaDB whose root password is root (MAMP)',
      vigil: { id: CREDS, text: /phpMyAdmin/ },
      nmap: none,
    }),
  ],
  twins: [{ address: PM(100), note: 'phpMyAdmin over HTTPS with HSTS on a root with a strong password' }],
  async start(ctx) {
    const db = await mariadb(ctx, PM(200), [], true);
    const dir = ctx.dir('apps');
    await phpSites(ctx, [
      { address: PM(1), root: phpMyAdmin(join(dir, '1'), { socket: db.socket }, true), tls: false },
      { address: PM(2), root: phpMyAdmin(join(dir, '2'), { host: PM(200), port: db.port }), tls: false },
      { address: PM(100), root: phpMyAdmin(join(dir, '100'), { host: '::1', port: db.port }), tls: true },
    ]);
  },
};

const CK = 78;
const CA = (n: number) => addr(CK, n);
export const CACTI: Daemon = {
  kind: 'cacti',
  binaries: [PHP, 'nginx', 'mariadbd', '/usr/share/cacti/conf_templates/cacti.sql'],
  ports: { tcp: [80, 443], udp: [] },
  weaknesses: [
    weakness('cacti', CA(1), 80, {
      id: 'cacti-admin-admin',
      label: 'Cacti with its shipped admin/admin (forced change at first login pending)',
      vigil: { id: SHIPPED, text: /Cacti/ },
      nmap: none,
    }),
  ],
  twins: [{ address: CA(100), note: 'Cacti over HTTPS with HSTS, the admin password changed' }],
  async start(ctx) {
    const dir = ctx.dir('apps');
    const db = await mariadb(ctx, CA(200), [
      cactiSql('cacti_weak', join(dir, 'weak', 'cacti.log'), undefined),
      cactiSql('cacti_twin', join(dir, 'twin', 'cacti.log'), STRONG),
    ]);
    const site = (name: string) => {
      const root = cacti(join(dir, name), { host: CA(200), port: db.port, name: `cacti_${name}`, password: STRONG });
      // csrf-magic writes its secret, and Cacti its log, beside the tree as the php-fpm user.
      ctx.run('chown', ['www-data:www-data', join(dir, name)]);
      return root;
    };
    // The weak one under PHP's built-in server: behind nginx + php-fpm, Cacti 1.2.24's forced-change page sent
    // the logged-in session back to index.php (a loop: "There are problems with the Change Password page" in
    // its session; not investigated further), so the default's login could not be shown there.
    const weak = ctx.spawn(
      'php-cacti',
      PHP,
      [
        '-d',
        'display_errors=0',
        '-d',
        'expose_php=0',
        '-d',
        `session.save_path=${dir}`,
        '-S',
        `${CA(1)}:80`,
        '-t',
        site('weak'),
      ],
      {
        env: { ...process.env, PHP_CLI_SERVER_WORKERS: '2' },
      },
    );
    await ctx.waitTcp(CA(1), 80, weak);
    await phpSites(ctx, [{ address: CA(100), root: site('twin'), tls: true }]);
  },
};
