import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ADDR, hostOf, netFor, NGINX, nginx, PHP_FPM, phpFpm, service } from '../../../../test/helpers/web-daemons.ts';
import type { HostFacts, Net } from '../../engine/types.ts';
import { CHECKS as CATALOGUE, FILES } from '../catalogue.ts';
import { fetchHttpInfo } from '../../proto/http.ts';

const WEB_CONTENT_CHECKS = [FILES['web/exposed-files.ts']!].flat();
const HTTP_CHECKS = CATALOGUE.filter((c) => c.id.startsWith('vigil.http.'));
const CHECKS = [
  ...WEB_CONTENT_CHECKS,
  ...HTTP_CHECKS.filter((c) => /git-exposed|env-exposed|server-status/.test(c.id)),
];

/** Every file a careless deployment leaves in the web root, in its real format. */
export const PLANTED: Record<string, string | Buffer> = {
  'index.html': '<html><body>Our own site</body></html>',
  '.svn/wc.db': Buffer.concat([Buffer.from('SQLite format 3\0'), Buffer.alloc(84)]),
  '.svn/entries': '12\n',
  '.hg/requires': 'dotencode\nfncache\ngeneraldelta\nrevlogv1\nsparserevlog\nstore\n',
  '.bzr/branch-format': 'Bazaar-NG meta directory, format 1\n',
  'CVS/Entries': '/index.php/1.3/Mon Nov 23 10:00:00 2026//\nD/lib////\n',
  '.git/config': '[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = false\n',
  '.env': 'APP_ENV=production\nDB_PASSWORD=hunter2\n',
  'index.php~': "<?php\n$db = new PDO('mysql:host=localhost', 'app', 'hunter2');\n",
  '.index.php.swp': Buffer.concat([Buffer.from('b0VIM 9.0\0\0\0\0'), Buffer.alloc(1000)]),
  'backup.sql':
    "-- MySQL dump 10.13  Distrib 10.11.6-MariaDB\nCREATE TABLE users (id int, pw text);\nINSERT INTO users VALUES (1,'x');\n",
  '.DS_Store': Buffer.concat([Buffer.from([0, 0, 0, 1]), Buffer.from('Bud1'), Buffer.alloc(2040)]),
  'Thumbs.db': Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(504)]),
  '.htpasswd': 'admin:$apr1$Vg1l$Qm9vZHVtbXloYXNoaGFzaA\n',
  id_rsa:
    '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n-----END OPENSSH PRIVATE KEY-----\n',
  '.aws/credentials':
    '[default]\naws_access_key_id = AKIAIOSFODNN7EXAMPLE\naws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\n',
  '.npmrc': '//registry.npmjs.org/:_authToken=npm_0123456789abcdef\n',
  '.git-credentials': 'https://deploy:ghp_0123456789abcdef@github.com\n',
  'wp-config.php.bak': "<?php\ndefine( 'DB_NAME', 'wp' );\ndefine( 'DB_PASSWORD', 'hunter2' );\n",
  '.env.local': 'APP_DEBUG=true\nSTRIPE_SECRET_KEY=sk_test_hunter2\n',
  '.netrc': 'machine ftp.example.com login deploy password hunter2\n',
  'index.html.bak': '<html><body>Our own site, last year</body></html>',
  'desktop.ini': '[.ShellClassInfo]\r\nIconResource=C:\\Windows\\System32\\imageres.dll,-3\r\n',
  '._index.html': Buffer.concat([Buffer.from([0, 5, 0x16, 7, 0, 2, 0, 0]), Buffer.alloc(200)]),
};

async function flagged(net: Net, host: HostFacts): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const c of CHECKS) {
    const f = await c.runOn(host, net);
    if (f.length) out.set(c.id, f.map((x) => x.detail).join(' | '));
  }
  return out;
}

async function httpHost(address: string, port: number): Promise<HostFacts> {
  const net = netFor(address);
  return hostOf(address, [service(port, 'http', { http: await fetchHttpInfo(net, port, false) })]);
}

test('real nginx: planted VCS metadata, backups, OS metadata, credentials and stub_status are found; a hardened twin, a catch-all and a soft 404 are silent', {
  skip: NGINX ? false : 'nginx is not installed (apt-get install nginx)',
}, async () => {
  const [w, h, c, s] = [ADDR(10), ADDR(11), ADDR(12), ADDR(13)];
  const weak = await nginx(w, 'location = /nginx_status { stub_status; }', PLANTED);
  // Hardened: the same files on disk, denied by the configuration.
  const hard = await nginx(
    h,
    `
    location ~ /\\. { return 404; }
    location ~* (~|\\.(bak|old|orig|save|swp|sql|zip|tgz|gz|db|ini)|/id_[a-z0-9]+)$ { return 404; }
    location ~ /CVS/ { return 404; }
    location = /nginx_status { stub_status; allow 127.0.0.250; deny all; }`,
    PLANTED,
  );
  // Catch-all: every path answers 200 with the same page (a single-page application).
  const catchAll = await nginx(c, 'location / { try_files $uri /index.html; }', {
    'index.html': '<!doctype html><html><body><div id="app">app</div></body></html>',
  });
  // Soft 404: missing files answer 200 with a "not found" page, in plain text.
  const soft = await nginx(s, 'error_page 404 =200 /nf.txt;', {
    'index.html': '<html><body>home</body></html>',
    'nf.txt': 'Sorry, nothing here.\n',
  });

  const found = await flagged(netFor(w), await httpHost(w, weak));
  for (const id of [
    'vcs-exposed',
    'git-exposed',
    'env-exposed',
    'status-page',
    'backup-files',
    'metadata-files',
    'credential-files',
  ]) {
    assert.ok(found.has(`vigil.http.${id}`), `${id} not found on the weak nginx: ${JSON.stringify([...found])}`);
  }
  const vcs = found.get('vigil.http.vcs-exposed')!;
  for (const p of ['/.svn/wc.db', '/.svn/entries', '/.hg/requires', '/.bzr/branch-format', '/CVS/Entries'])
    assert.ok(vcs.includes(p), `${p} missing from ${vcs}`);
  const creds = found.get('vigil.http.credential-files')!;
  for (const p of [
    '/.htpasswd',
    '/id_rsa',
    '/.aws/credentials',
    '/.npmrc',
    '/.git-credentials',
    '/wp-config.php.bak',
    '/.env.local',
    '/.netrc',
  ])
    assert.ok(creds.includes(p), `${p} missing from ${creds}`);
  assert.doesNotMatch([...found.values()].join(' '), /hunter2|AKIA|ghp_|npm_0123/, 'no secret reaches the report');
  for (const p of ['/index.php~', '/.index.php.swp', '/backup.sql', '/index.html.bak (backup copy)'])
    assert.ok(found.get('vigil.http.backup-files')!.includes(p), `${p} missing`);
  for (const p of ['/.DS_Store', '/Thumbs.db', '/desktop.ini', '/._index.html'])
    assert.ok(found.get('vigil.http.metadata-files')!.includes(p), `${p} missing`);

  for (const [addr, port, what] of [
    [h, hard, 'hardened'],
    [c, catchAll, 'catch-all'],
    [s, soft, 'soft-404'],
  ] as const) {
    const quiet = await flagged(netFor(addr), await httpHost(addr, port));
    assert.deepEqual([...quiet], [], `${what} nginx flagged`);
  }
});

test('real nginx + php-fpm: phpinfo() and the FPM status page are found; the hardened twin (status restricted, no info page) is silent', {
  skip: NGINX && PHP_FPM ? false : 'nginx and php-fpm are needed (apt-get install nginx php-fpm)',
}, async () => {
  const [w, h] = [ADDR(14), ADDR(15)];
  const fpm = await phpFpm(w, ['pm.status_path = /fpm-status']);
  const fastcgi = (extra: string) => `
    location ~ \\.php$ { include /etc/nginx/fastcgi_params; fastcgi_param SCRIPT_FILENAME $document_root$fastcgi_script_name; fastcgi_pass ${w}:${fpm}; }
    location = /fpm-status { ${extra} include /etc/nginx/fastcgi_params; fastcgi_param SCRIPT_NAME /fpm-status; fastcgi_param SCRIPT_FILENAME /fpm-status; fastcgi_pass ${w}:${fpm}; }`;
  const weak = await nginx(w, fastcgi(''), { 'index.html': '<html>site</html>', 'info.php': '<?php phpinfo();' });
  const hard = await nginx(h, fastcgi('allow 127.0.0.250; deny all;'), {
    'index.html': '<html>site</html>',
    'index.php': '<?php echo "ok";',
  });
  const found = await flagged(netFor(w), await httpHost(w, weak));
  assert.match(found.get('vigil.http.phpinfo') ?? '', /\/info\.php \(phpinfo\(\)\)/, JSON.stringify([...found]));
  assert.match(
    found.get('vigil.http.status-page') ?? '',
    /\/fpm-status \(PHP-FPM status\)/,
    JSON.stringify([...found]),
  );
  assert.deepEqual([...(await flagged(netFor(h), await httpHost(h, hard)))], [], 'hardened nginx + php-fpm flagged');
});

test('random twins keep the leading dot and the suffix of the candidate', async () => {
  const { twinOf } = await import('./lib/content.ts');
  assert.equal(twinOf('/index.php~', 'r'), '/vigil-r.php~');
  assert.equal(twinOf('/.index.php.swp', 'r'), '/.vigil-r.php.swp');
  assert.equal(twinOf('/.htpasswd', 'r'), '/.vigil-r');
  assert.equal(twinOf('/.svn/wc.db', 'r'), '/vigil-r.db');
  assert.equal(twinOf('/CVS/Entries', 'r'), '/vigil-r');
  assert.equal(twinOf('/backup.tar.gz', 'r'), '/vigil-r.tar.gz');
  // Supervisor's web server drops a decoded '#' and all after it: the twin keeps the leading %23 too.
  assert.equal(twinOf('/%23index.php%23', 'r'), '/%23vigil-r.php%23');
});
