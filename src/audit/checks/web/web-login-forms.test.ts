/**
 * HTML form logins (data/web-form-logins.ts) on Debian's phpMyAdmin and
 * Cacti, each under PHP's built-in server, all on one MariaDB reached
 * three ways (test/helpers/php-apps.ts). phpMyAdmin: an empty root
 * password with AllowNoPassword (XAMPP's setup) is the shipped-default
 * check's; root/root the guessing check's; root with a strong password is
 * silent. Cacti: its shipped admin/admin (a forced change at first login
 * still means it logged in) vs an admin password changed. Each login reads
 * the form first (phpMyAdmin's token, Cacti's csrf-magic field). And a
 * phpMyAdmin with auth_type config, logged in for anyone: admin-open's.
 */
import { auditLogins, LOGIN_IDS } from '../../../../test/helpers/login-audit.ts';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { daemon as kitDaemon, freePort, which } from '../../../../test/helpers/daemons-kit.ts';
import {
  cacti,
  cactiSql,
  dbInit,
  havePhpApps,
  loadSql,
  mariadbArgs,
  mariadbInstallArgs,
  PHP,
  phpMyAdmin,
} from '../../../../test/helpers/php-apps.ts';
import { daemon, tempDir } from '../../../../test/helpers/web-daemons.ts';

const A = (n: number) => `127.0.177.${n}`;
const STRONG = 'not-a-real-secret-Fm4wZ9';
const CACTI_DB = 'cacti-db-Vq2-not-a-secret';
const HAVE = havePhpApps() && which('mariadbd') && which('mariadb-install-db');

/** One MariaDB on A(5) and ::1 (the three root accounts of dbInit), with Cacti's two databases. */
async function mariadb(dir: string) {
  execFileSync('mariadb-install-db', mariadbInstallArgs(dir), { stdio: 'pipe' });
  writeFileSync(join(dir, 'init.sql'), dbInit('root', STRONG, CACTI_DB));
  const port = await kitDaemon(A(5), which('mariadbd')!, (p) => mariadbArgs(dir, `${A(5)},::1`, p), {
    port: await freePort(A(5)),
  });
  const socket = join(dir, 'sock');
  // Both databases at once: one load of cacti.sql took 7 to 9 s on the loaded 2-core test machine.
  await Promise.all([
    loadSql(socket, cactiSql('cacti_weak', `${dir}/cacti-weak.log`)),
    loadSql(socket, cactiSql('cacti_twin', `${dir}/cacti-twin.log`, STRONG)),
  ]);
  return { socket, port };
}

/** PHP's built-in server on `root` (two workers: phpMyAdmin's page asks for its own assets meanwhile). */
const php = (address: string, root: string, dir: string) =>
  daemon(address, (port) => ({
    cmd: PHP,
    args: ['-d', 'display_errors=0', '-d', `session.save_path=${dir}`, '-S', `${address}:${port}`, '-t', root],
    env: { ...process.env, PHP_CLI_SERVER_WORKERS: '2' },
  }));

test('phpMyAdmin (empty root with AllowNoPassword, root/root, strong) and Cacti (shipped admin/admin, changed) through their login forms', {
  skip: HAVE ? false : 'phpmyadmin, cacti, php or mariadb is not installed',
}, async () => {
  const dir = tempDir('php-apps');
  const db = await mariadb(dir);
  const sites = [
    phpMyAdmin(join(dir, 'pma-socket'), { socket: db.socket }, true),
    phpMyAdmin(join(dir, 'pma-tcp'), { host: A(5), port: db.port }),
    phpMyAdmin(join(dir, 'pma-v6'), { host: '::1', port: db.port }),
    cacti(join(dir, 'cacti-weak'), { host: A(5), port: db.port, name: 'cacti_weak', password: CACTI_DB }),
    cacti(join(dir, 'cacti-twin'), { host: A(5), port: db.port, name: 'cacti_twin', password: CACTI_DB }),
    phpMyAdmin(join(dir, 'pma-config'), { host: A(5), port: db.port }, false, { user: 'root', password: 'root' }),
  ];
  const addresses = [A(1), A(2), A(3), A(6), A(7), A(8)];
  const ports = await Promise.all(sites.map((root, i) => php(addresses[i]!, root, dir)));
  const [empty, rootroot, strong, cactiWeak, cactiTwin, configured] = await Promise.all(
    addresses.map((a, i) => auditLogins(a, ports[i]!)),
  );

  const [e] = empty!['vigil.web.vendor-default-login']!;
  assert.equal(e?.title, 'Default credentials accepted: phpMyAdmin');
  assert.match(
    e!.detail,
    /^GET \/: the phpMyAdmin login form \(fields pma_username, pma_password; hidden .*token.*\); POST \/index\.php\?route=\/ with user "root" and password "" \(empty\) \(the database's install default: .*\): HTTP 302 to \/index\.php\?route=\/.* showing ".+": logged in to phpMyAdmin\.$/,
  );
  assert.deepEqual(empty!['vigil.web.admin-open'], []);

  assert.deepEqual(rootroot!['vigil.web.vendor-default-login'], []);
  assert.match(
    rootroot!['vigil.web.default-credentials']![0]?.detail ?? '',
    /user "root" and password "r\*\*t" \(a root password of bundles and tutorials: MAMP's\): HTTP 302/,
  );

  for (const id of LOGIN_IDS) assert.deepEqual(strong![id], [], `phpMyAdmin twin: ${id}`);

  const [c] = cactiWeak!['vigil.web.vendor-default-login']!;
  assert.equal(c?.title, 'Default credentials accepted: Cacti');
  assert.match(
    c!.detail,
    /^GET \/: the Cacti login form \(fields login_username, login_password; hidden .*\); POST .* with user "admin" and password "a\*\*\*n" \(Cacti's shipped admin account, in its cacti\.sql\): HTTP 302 to .*showing ".+": logged in to Cacti\.$/,
  );
  assert.deepEqual(cactiWeak!['vigil.web.default-credentials'], []);
  for (const id of LOGIN_IDS) assert.deepEqual(cactiTwin![id], [], `Cacti twin: ${id}`);

  // auth_type config: everyone is logged in, no password needed (admin-open's, not a default password's).
  assert.match(
    configured!['vigil.web.admin-open']![0]?.detail ?? '',
    /^GET \/ without credentials or cookies: HTTP 200 showing "index\.php\?route=\/logout[^"]*": phpMyAdmin is logged in for anyone\.$/,
  );
  assert.deepEqual(
    [...configured!['vigil.web.vendor-default-login']!, ...configured!['vigil.web.default-credentials']!],
    [],
  );
});
