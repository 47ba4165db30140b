/**
 * Web admin pages (issue 27) on real Debian daemons: Monit's web interface
 * with its documented admin:monit, with a strong password, and open to any
 * address; an HTTP Basic admin area of nginx and of Apache with admin:admin
 * and with a strong password. Detection runs first, as in an audit, so the
 * port's naming is tested too (2812 must be http).
 * Apache ActiveMQ's console is not in Debian (its README.Debian lists
 * activemq-web-console among the disabled modules): its row is tested on
 * nginx answering with the console's realm and page. HAProxy: its stats page
 * behind `stats auth`.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { daemon, tempDir } from '../../../../test/helpers/daemons-kit.ts';
import { haproxyStatsConf } from '../../../../test/helpers/proxy-configs.ts';
import { MONIT, monitArgs, monitrc } from '../../../../test/helpers/web-admin-configs.ts';
import { APACHE, apache, binary, hostOf, NGINX, netFor, nginx } from '../../../../test/helpers/web-daemons.ts';
import { detectOne } from '../../engine/detect.ts';
import { checkById } from '../catalogue.ts';

const ADDR = '127.0.84.1';
const STRONG = 'not-a-real-secret-Wq7zR2';
const HAVE_MONIT = binary(MONIT);

/** Detection on the port, then the check on what it found. */
async function run(id: string, port: number, address = ADDR) {
  const net = netFor(address);
  const svc = await detectOne(net, port, { nmapProbes: false });
  return { svc, findings: await checkById(id).runOn(hostOf(address, [svc]), net) };
}
const creds = (port: number, address = ADDR) => run('vigil.web.default-credentials', port, address);
const shipped = (port: number, address = ADDR) => run('vigil.web.vendor-default-login', port, address);
const open = (port: number, address = ADDR) => run('vigil.web.admin-open', port, address);

const monit = (address: string, allow: string[]) => {
  const dir = tempDir('monit');
  return daemon(address, MONIT, (port) => monitArgs(monitrc(dir, address, port, allow)));
};

test('Monit: admin:monit is found, a strong password is not; open to any address is found by admin-open', {
  skip: HAVE_MONIT ? false : 'monit is not installed',
}, async () => {
  const [weak, twin, anyone] = await Promise.all([
    monit('127.0.84.2', ['admin:monit']),
    monit('127.0.84.3', [`admin:${STRONG}`]),
    monit('127.0.84.4', ['0.0.0.0/0.0.0.0']),
  ]);
  // Monit's own documented pair is the shipped-default check's (norisk and up); the guessing check leaves it.
  assert.deepEqual((await creds(weak, '127.0.84.2')).findings, []);
  const { svc, findings } = await shipped(weak, '127.0.84.2');
  assert.equal(svc.name, 'http');
  assert.equal(findings.length, 1);
  assert.equal(findings[0]!.title, 'Default credentials accepted: Monit web interface');
  assert.match(
    findings[0]!.detail,
    /^GET \/ without credentials: HTTP 401 \(WWW-Authenticate: Basic realm="monit", Server: monit [\d.]+\); with user "admin" and password "m\*\*\*t" \(.*\): HTTP 200 showing "<h1>Monit Service Manager<\/h1>": logged in/,
  );
  assert.deepEqual((await shipped(twin, '127.0.84.3')).findings, []);
  assert.deepEqual((await open(weak, '127.0.84.2')).findings, []);
  assert.deepEqual((await open(twin, '127.0.84.3')).findings, []);

  const o = await open(anyone, '127.0.84.4');
  assert.equal(o.findings.length, 1);
  assert.match(
    o.findings[0]!.detail,
    /^GET \/ without credentials: HTTP 200 showing "<h1>Monit Service Manager<\/h1>"/,
  );
  // No password was needed: nothing for the default-password checks to prove.
  assert.deepEqual((await shipped(anyone, '127.0.84.4')).findings, []);
});

const apr1 = (user: string, password: string) =>
  `${user}:${execFileSync('openssl', ['passwd', '-apr1', password], { encoding: 'utf8' }).trim()}\n`;

test('nginx: auth_basic areas with admin:admin (/admin/) and admin:password (a path the home page links to) are found, a random password refused; a strong one and open pages are not', {
  skip: NGINX ? false : 'nginx is not installed',
}, async () => {
  const area = (file: string) =>
    `location /admin/ { auth_basic "Administration"; auth_basic_user_file $DIR/www/${file}; } location /secret/ { auth_basic "Vault"; auth_basic_user_file $DIR/www/${file}; } location ~ /\\. { deny all; }`;
  const [weak, twin, plain, linked] = await Promise.all([
    nginx(ADDR, area('.weak'), { '.weak': apr1('admin', 'admin'), 'admin/index.html': 'panel' }),
    nginx(ADDR, area('.strong'), { '.strong': apr1('admin', STRONG), 'admin/index.html': 'panel' }),
    // An admin page without any login: no realm, no product marker: nothing to say.
    nginx(ADDR, '', { 'admin/index.html': '<h1>Admin</h1>', 'index.html': 'site' }),
    // A realm on a path only the home page names.
    nginx(
      ADDR,
      'location /panel/ { auth_basic "Panel"; auth_basic_user_file $DIR/www/.weak; } location ~ /\\. { deny all; }',
      {
        '.weak': apr1('admin', 'password'),
        'index.html': '<a href="/panel/">panel</a>',
        'panel/index.html': 'panel',
      },
    ),
  ]);
  const { findings } = await creds(weak);
  assert.equal(findings.length, 1);
  assert.equal(findings[0]!.title, 'Default credentials accepted: HTTP Basic-protected area');
  assert.match(
    findings[0]!.detail,
    /^GET \/admin\/ without credentials: HTTP 401 \(WWW-Authenticate: Basic realm="Administration", Server: nginx[^)]*\); with user "admin" and password "a\*\*\*n" \(.*\): HTTP 200, while the same user with a random password got HTTP 401 again/,
  );
  assert.deepEqual((await creds(twin)).findings, []);
  assert.deepEqual((await creds(plain)).findings, []);
  const l = await creds(linked);
  assert.match(
    l.findings[0]?.detail ?? '',
    /^GET \/panel\/ without credentials: .*realm="Panel".* user "admin" and password "p\*\*\*\*\*\*d"/,
  );
  for (const p of [weak, twin, plain]) assert.deepEqual((await open(p)).findings, []);
});

test('Apache: an AuthType Basic admin area with admin:admin is found; a strong password is not', {
  skip: APACHE ? false : 'apache2 is not installed',
}, async () => {
  const area = (file: string) =>
    `<Location /admin/>\n AuthType Basic\n AuthName "Restricted"\n AuthBasicProvider file\n AuthUserFile $DIR/www/${file}\n Require valid-user\n</Location>`;
  const bcrypt = (password: string) => execFileSync('htpasswd', ['-nbB', 'admin', password], { encoding: 'utf8' });
  const [weak, twin] = await Promise.all([
    apache(ADDR, area('.weak'), { '.weak': bcrypt('admin'), 'admin/index.html': 'panel' }),
    apache(ADDR, area('.strong'), { '.strong': bcrypt(STRONG), 'admin/index.html': 'panel' }),
  ]);
  const { findings } = await creds(weak);
  assert.equal(findings.length, 1);
  assert.match(findings[0]!.detail, /realm="Restricted".*user "admin" and password "a\*\*\*n"/);
  assert.deepEqual((await creds(twin)).findings, []);
});

test("ActiveMQ's console row: realm ActiveMQRealm with admin:admin and the console page is found; user:user without it is not", {
  skip: NGINX ? false : 'nginx is not installed',
}, async () => {
  const page = '<html><head><title>localhost : ActiveMQ Console</title></head><body>Welcome!</body></html>';
  const conf = (file: string) =>
    `location /admin/ { auth_basic "ActiveMQRealm"; auth_basic_user_file $DIR/www/${file}; } location ~ /\\. { deny all; }`;
  const [weak, other] = await Promise.all([
    nginx(ADDR, conf('.weak'), { '.weak': apr1('admin', 'admin'), 'admin/index.html': page }),
    // The realm, a default pair that logs in, but no console page: no proof, no finding.
    nginx(ADDR, conf('.user'), { '.user': apr1('user', 'user'), 'admin/index.html': 'not the console' }),
  ]);
  const { findings } = await shipped(weak);
  assert.equal(findings.length, 1);
  assert.equal(findings[0]!.title, 'Default credentials accepted: Apache ActiveMQ web console');
  assert.match(findings[0]!.detail, /HTTP 200 showing "ActiveMQ Console": logged in/);
  assert.deepEqual((await shipped(other)).findings, []);
  // A recognised product's realm is never tried with the generic guesses either.
  assert.deepEqual((await creds(weak)).findings, []);
});

const HAPROXY = binary('/usr/sbin/haproxy');

test("HAProxy: the stats page behind stats auth admin:admin is found; a strong pair is not, and an open page is the status-page check's", {
  skip: HAPROXY ? false : 'haproxy is not installed',
}, async () => {
  const haproxy = (guard: string[]) => {
    const dir = tempDir('haproxy');
    return daemon(ADDR, HAPROXY!, (port) => {
      const conf = join(dir, `haproxy-${port}.cfg`);
      writeFileSync(conf, haproxyStatsConf(ADDR, port, guard));
      return ['-db', '-f', conf];
    });
  };
  const [weak, twin, opened] = await Promise.all([
    haproxy(['stats auth admin:admin']),
    haproxy([`stats auth admin:${STRONG}`]),
    haproxy([]),
  ]);
  const { findings } = await creds(weak);
  assert.equal(findings.length, 1);
  assert.match(
    findings[0]!.detail,
    /^GET \/haproxy\?stats without credentials: HTTP 401 \(WWW-Authenticate: Basic realm="HAProxy Statistics"\); with user "admin" and password "a\*\*\*n" .*: HTTP 200 showing "Statistics Report for HAProxy": logged in to the HAProxy statistics page\.$/,
  );
  assert.deepEqual((await creds(twin)).findings, []);
  assert.deepEqual((await creds(opened)).findings, []);
  assert.deepEqual((await open(opened)).findings, []);
});
