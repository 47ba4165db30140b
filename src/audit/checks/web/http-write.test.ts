import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { test } from 'node:test';
import { ADDR, APACHE, apache, hostOf, netFor, NGINX, nginx, service } from '../../../../test/helpers/web-daemons.ts';
import { CHECKS as CATALOGUE, FILES } from '../catalogue.ts';
import { fetchHttpInfo, httpRequest } from '../../proto/http.ts';

const HTTP_POLICY_CHECKS = CATALOGUE.filter((c) =>
  /^vigil\.http\.(cors-any-origin|cookie-no-httponly|cookie-no-secure|password-form-cleartext|basic-auth-cleartext)$/.test(
    c.id,
  ),
);
const HTTP_WRITE_CHECKS = CATALOGUE.filter((c) => /^vigil\.http\.(put-write|put-accepted|webdav-open)$/.test(c.id));
const WEB_CONTENT_CHECKS = [FILES['web/exposed-files.ts']!].flat();
const HTTP_CHECKS = CATALOGUE.filter((c) => c.id.startsWith('vigil.http.'));
const CHECKS = [
  ...HTTP_POLICY_CHECKS,
  ...HTTP_WRITE_CHECKS,
  ...WEB_CONTENT_CHECKS,
  ...HTTP_CHECKS.filter((c) => c.id === 'vigil.http.server-status'),
];

async function flagged(address: string, port: number, tls = false): Promise<Map<string, string>> {
  const net = netFor(address);
  const host = hostOf(address, [service(port, tls ? 'https' : 'http', { http: await fetchHttpInfo(net, port, tls) })]);
  const out = new Map<string, string>();
  for (const c of CHECKS) {
    const f = await c.runOn(host, net);
    if (f.length) out.set(c.id.replace('vigil.http.', ''), f.map((x) => x.detail).join(' | '));
  }
  return out;
}

test('real nginx: CORS reflecting any origin, cookie without HttpOnly, Basic over HTTP, PUT via dav_methods; the hardened twin is silent', {
  skip: NGINX ? false : 'nginx is not installed (apt-get install nginx)',
}, async () => {
  const [w, h] = [ADDR(20), ADDR(21)];
  const files = { 'index.html': '<html><body>site</body></html>', 'admin/index.html': 'admin' };
  const login = {
    'login.php':
      '<html><body><form method="post" action="/session"><input name="user"><input type=password name="pw"></form></body></html>',
  };
  const weak = await nginx(
    w,
    `
    add_header Access-Control-Allow-Origin $http_origin always;
    add_header Access-Control-Allow-Credentials true always;
    add_header Set-Cookie "SESSIONID=abc123; Path=/" always;
    location /admin/ { auth_basic "Admin area"; auth_basic_user_file $DIR/htpasswd; }
    location /uploads/ { dav_methods PUT DELETE; create_full_put_path on; dav_access user:rw all:r; }`,
    { ...files, ...login },
  );
  const hard = await nginx(
    h,
    `
    add_header Access-Control-Allow-Origin https://app.example always;
    add_header Access-Control-Allow-Credentials true always;
    add_header Set-Cookie "SESSIONID=abc123; Path=/; HttpOnly; Secure" always;
    location /admin/ { return 301 https://$host$request_uri; }`,
    files,
  );

  const found = await flagged(w, weak);
  for (const id of [
    'cors-any-origin',
    'cookie-no-httponly',
    'basic-auth-cleartext',
    'put-write',
    'put-accepted',
    'password-form-cleartext',
  ])
    assert.ok(found.has(id), `${id} not flagged on weak nginx: ${JSON.stringify([...found])}`);
  assert.match(
    found.get('put-write')!,
    /PUT \/uploads\/vigil-put-[0-9a-f]+\.txt answered HTTP 201 .*DELETE removed it/,
  );
  assert.match(found.get('basic-auth-cleartext')!, /GET \/admin\/ answered 401/);
  assert.match(
    found.get('password-form-cleartext')!,
    /GET \/login\.php over plain HTTP serves a form with a password field/,
  );
  // The probe file is gone again.
  const leftover = await httpRequest(netFor(w), weak, false, {
    target: /PUT (\S+)/.exec(found.get('put-write')!)![1]!,
  });
  assert.equal(leftover?.status, 404);
  // The Expect: 100-continue probe sent no body, so nothing was stored.
  const probed = await httpRequest(netFor(w), weak, false, {
    target: /PUT (\S+) with Expect/.exec(found.get('put-accepted')!)![1]!,
  });
  assert.equal(probed?.status, 404);
  assert.deepEqual([...(await flagged(h, hard))], [], 'hardened nginx flagged');
});

test('a server that answers "100 Continue" to anything (Node http) but refuses PUT is not reported as accepting uploads', async (t) => {
  const { createServer } = await import('node:http');
  const a = ADDR(25);
  const server = createServer((req, res) => {
    res.statusCode = req.method === 'PUT' ? 405 : 404;
    req.resume();
    res.end('no');
  });
  const port = await new Promise<number>((r) =>
    server.listen(0, a, () => r((server.address() as { port: number }).port)),
  );
  t.after(() => server.close());
  const found = await flagged(a, port);
  assert.ok(!found.has('put-accepted') && !found.has('put-write'), JSON.stringify([...found]));
});

test('real apache2 with mod_php, mod_status, mod_info and mod_dav: phpinfo, server-status, server-info, open WebDAV and PUT found; the hardened twin is silent', {
  skip: APACHE ? false : 'apache2 is not installed (apt-get install apache2 libapache2-mod-php)',
}, async () => {
  const [w, h] = [ADDR(22), ADDR(23)];
  const files = {
    'index.html': '<html><body>site</body></html>',
    'info.php': '<?php phpinfo();',
    'private/index.html': 'private',
  };
  const weak = await apache(
    w,
    `
<Location /server-status>
  SetHandler server-status
</Location>
<Location /server-info>
  SetHandler server-info
</Location>
<Directory $DIR/www/webdav>
  Dav On
</Directory>
<Location /private/>
  AuthType Basic
  AuthName "Private"
  AuthUserFile $DIR/htpasswd
  Require valid-user
</Location>`,
    files,
    ['webdav'],
  );
  const hard = await apache(
    h,
    `
<Location /server-status>
  SetHandler server-status
  Require ip 127.0.0.250
</Location>
<Location /server-info>
  SetHandler server-info
  Require ip 127.0.0.250
</Location>
<Files "info.php">
  Require all denied
</Files>
<Directory $DIR/www/webdav>
  Dav On
  Require all denied
</Directory>
Redirect permanent /private/ https://vigil.test/private/`,
    files,
    ['webdav'],
  );

  const found = await flagged(w, weak);
  const php = existsSync('/usr/lib/apache2/modules/libphp8.2.so'); // libapache2-mod-php: phpinfo() runs for real
  // (put-accepted stays silent on Apache: 2.4 answers "100 Continue" even to a POST on a random path, so the
  // control rules it out; PROPFIND covers mod_dav.)
  for (const id of [
    'server-status',
    'status-page',
    'webdav-open',
    'put-write',
    'basic-auth-cleartext',
    ...(php ? ['phpinfo'] : []),
  ]) {
    assert.ok(found.has(id), `${id} not flagged on weak apache: ${JSON.stringify([...found])}`);
  }
  assert.match(found.get('status-page')!, /server-info/);
  assert.match(found.get('put-write')!, /PUT \/webdav\/vigil-put-/);
  assert.deepEqual([...(await flagged(h, hard))], [], 'hardened apache flagged');
});

test('real nginx: Basic auth on a directory only the home page links to (here an autoindex listing) is found too', {
  skip: NGINX ? false : 'nginx is not installed',
}, async () => {
  const a = ADDR(24);
  const port = await nginx(
    a,
    'autoindex on; location /vault/ { auth_basic "Vault"; auth_basic_user_file $DIR/htpasswd; }',
    { 'vault/data.txt': 'x', 'public/readme.txt': 'y' },
  );
  const found = await flagged(a, port);
  assert.match(
    found.get('basic-auth-cleartext') ?? '',
    /GET \/vault\/ answered 401 with WWW-Authenticate: Basic realm="Vault"/,
    JSON.stringify([...found]),
  );
});
