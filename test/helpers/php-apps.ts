/**
 * Debian's PHP web applications for the form-login tests and the detection
 * bench: phpMyAdmin (phpmyadmin) and Cacti (cacti), each a copy of the
 * installed tree (hard links: instant on one file system) whose only
 * changed file is the one pointing at /etc (phpMyAdmin's
 * libraries/vendor_config.php, Cacti's include/config.php symlink to
 * /etc/cacti/debian.php), so that nothing under /etc is touched; and one
 * MariaDB for all of them, reached three ways with a root account each:
 * the socket (root@localhost), TCP from 127.0.0.1 and TCP over ::1.
 */
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const PMA_TREE = '/usr/share/phpmyadmin';
export const CACTI_TREE = '/usr/share/cacti/site';
export const CACTI_SQL = '/usr/share/cacti/conf_templates/cacti.sql';
export const PHP = '/usr/bin/php';

/** A copy of `src` at `dst`: hard links where the file system allows, else a real copy. */
export function copyTree(src: string, dst: string): void {
  mkdirSync(join(dst, '..'), { recursive: true });
  try {
    execFileSync('cp', ['-al', src, dst], { stdio: 'pipe' });
  } catch {
    execFileSync('cp', ['-a', src, dst], { stdio: 'pipe' });
  }
}

/** Replaces one file of a copied tree (unlinking first: a hard link would write through to the original). */
function replace(path: string, text: string): void {
  rmSync(path, { force: true });
  writeFileSync(path, text, { mode: 0o644 });
}

/** The MariaDB accounts the apps log in with: root per way in, and Cacti's own user. */
export interface Db {
  socket: string;
  address: string;
  port: number;
}

/**
 * mariadbd's init file: root@localhost (the socket) keeps mariadb-install-db's empty password, root@127.0.0.1
 * gets `tcpRoot`, root@::1 `v6Root`; a `cacti` user owns the cacti_* databases.
 */
export const dbInit = (tcpRoot: string, v6Root: string, cactiPassword: string) =>
  [
    `ALTER USER 'root'@'127.0.0.1' IDENTIFIED BY '${tcpRoot}';`,
    `ALTER USER 'root'@'::1' IDENTIFIED BY '${v6Root}';`,
    `CREATE USER IF NOT EXISTS 'cacti'@'%' IDENTIFIED BY '${cactiPassword}';`,
    `GRANT ALL ON \`cacti\\_%\`.* TO 'cacti'@'%';`,
    'FLUSH PRIVILEGES;',
    '',
  ].join('\n');

/** mariadb-install-db's arguments for a data directory of ours, root logging in by password (no unix_socket). */
export const mariadbInstallArgs = (dir: string) => [
  '--no-defaults',
  `--datadir=${join(dir, 'data')}`,
  `--tmpdir=${dir}`,
  '--user=root',
  '--auth-root-authentication-method=normal',
  '--skip-test-db',
];

/** mariadbd's arguments: that data directory, `addresses` (comma-separated), the socket in `dir`, init.sql there. */
export const mariadbArgs = (dir: string, addresses: string, port: number) => [
  '--no-defaults',
  `--datadir=${join(dir, 'data')}`,
  `--tmpdir=${dir}`,
  '--user=root',
  `--bind-address=${addresses}`,
  `--port=${port}`,
  `--socket=${join(dir, 'sock')}`,
  `--pid-file=${dir}/pid`,
  `--init-file=${join(dir, 'init.sql')}`,
  '--skip-name-resolve',
  '--innodb-buffer-pool-size=16M',
  `--log-error=${dir}/err.log`,
];

/** SQL through the socket as root (the socket's root has no password: dbInit). */
export const loadSql = (socket: string, sql: string) =>
  new Promise<void>((resolve, reject) => {
    const p = spawn('mariadb', [`--socket=${socket}`, '-uroot'], { stdio: ['pipe', 'ignore', 'pipe'] });
    let err = '';
    p.stderr.on('data', (d) => (err += d));
    p.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`mariadb load failed (${code}): ${err}`))));
    p.stdin.end(sql);
  });

/**
 * A tree's phpMyAdmin, logging in (cookie auth) to `server`; `noPassword`: AllowNoPassword, as XAMPP sets it;
 * `login`: auth_type config with that account, every visitor logged in as it.
 */
export function phpMyAdmin(
  dir: string,
  server: { socket: string } | { host: string; port: number },
  noPassword = false,
  login?: { user: string; password: string },
): string {
  const root = join(dir, 'phpmyadmin');
  copyTree(PMA_TREE, root);
  const config = join(dir, 'config.inc.php');
  const vendor = join(root, 'libraries', 'vendor_config.php');
  replace(
    vendor,
    readFileSync(vendor, 'utf8')
      .replace(/'configFile' => '[^']*'/, `'configFile' => '${config}'`)
      .replace(/'tempDir' => '[^']*'/, `'tempDir' => '${dir}/tmp/'`),
  );
  mkdirSync(join(dir, 'tmp'), { recursive: true });
  chmodSync(join(dir, 'tmp'), 0o777);
  const where =
    'socket' in server
      ? [`$cfg['Servers'][1]['host'] = 'localhost';`, `$cfg['Servers'][1]['socket'] = '${server.socket}';`]
      : [
          `$cfg['Servers'][1]['host'] = '${server.host}';`,
          `$cfg['Servers'][1]['port'] = '${server.port}';`,
          `$cfg['Servers'][1]['connect_type'] = 'tcp';`,
        ];
  writeFileSync(
    config,
    [
      '<?php',
      `$cfg['blowfish_secret'] = '${randomBytes(16).toString('hex')}';`,
      ...(login
        ? [
            `$cfg['Servers'][1]['auth_type'] = 'config';`,
            `$cfg['Servers'][1]['user'] = '${login.user}';`,
            `$cfg['Servers'][1]['password'] = '${login.password}';`,
          ]
        : [`$cfg['Servers'][1]['auth_type'] = 'cookie';`]),
      ...where,
      `$cfg['Servers'][1]['AllowNoPassword'] = ${noPassword ? 'true' : 'false'};`,
      `$cfg['VersionCheck'] = false;`,
      '',
    ].join('\n'),
  );
  return root;
}

/** A tree's Cacti on database `name` (loaded from Debian's cacti.sql by the caller), served at the site root. */
export function cacti(dir: string, db: { host: string; port: number; name: string; password: string }): string {
  const root = join(dir, 'cacti');
  copyTree(CACTI_TREE, root);
  replace(
    join(root, 'include', 'config.php'),
    [
      '<?php',
      "$database_type = 'mysql';",
      `$database_default = '${db.name}';`,
      `$database_hostname = '${db.host}';`,
      "$database_username = 'cacti';",
      `$database_password = '${db.password}';`,
      `$database_port = '${db.port}';`,
      '$database_retries = 2;',
      '$database_ssl = false;',
      "$database_ssl_key = ''; $database_ssl_cert = ''; $database_ssl_ca = '';",
      '$database_persist = false;',
      '$poller_id = 1;',
      "$url_path = '/';",
      "$cacti_session_name = 'Cacti';",
      '$cacti_db_session = false;',
      '$disable_log_rotation = true;',
      `$path_csrf_secret = '${dir}/csrf-secret.php';`,
      '$proxy_headers = null;',
      '',
    ].join('\n'),
  );
  return root;
}

/**
 * SQL that makes a database of Debian's cacti.sql a finished install (the version the code has, so that
 * index.php shows the login rather than the installer) logging to `log`; with `adminPassword`, the admin
 * account's password changed (the hardened twin; Cacti still reads legacy MD5 hashes).
 */
export function cactiSql(name: string, log: string, adminPassword?: string): string {
  const version = readFileSync(join(CACTI_TREE, 'include', 'cacti_version'), 'utf8').trim();
  return [
    `CREATE DATABASE ${name};`,
    `USE ${name};`,
    readFileSync(CACTI_SQL, 'utf8'),
    `UPDATE version SET cacti = '${version}';`,
    `UPDATE settings SET value = '${log}' WHERE name = 'path_cactilog';`,
    ...(adminPassword ? [`UPDATE user_auth SET password = MD5('${adminPassword}') WHERE username = 'admin';`] : []),
    '',
  ].join('\n');
}

export const havePhpApps = () => existsSync(PHP) && existsSync(PMA_TREE) && existsSync(CACTI_SQL);
