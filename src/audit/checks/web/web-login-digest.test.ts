/**
 * HTTP Digest logins (RFC 7616) on real Debian servers: Apache's
 * mod_auth_digest (MD5, qop=auth) and lighttpd's mod_auth (SHA-256), each
 * with an admin area left at admin/admin and a twin with a strong
 * password; and the asker shared by the three admin-page checks of one
 * audit, counted in connections on one port. Nagios 4 (Debian nagios4,
 * Digest in its Apache configuration) is in web-login-nagios.test.ts.
 */
import { auditLogins, LOGIN_IDS } from '../../../../test/helpers/login-audit.ts';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { test } from 'node:test';
import {
  APACHE,
  apache,
  binary,
  daemon,
  hostOf,
  netFor,
  tempDir,
  writeFiles,
} from '../../../../test/helpers/web-daemons.ts';
import { detectOne } from '../../engine/detect.ts';
import type { Net } from '../../engine/types.ts';
import { checkById } from '../catalogue.ts';

const A = (n: number) => `127.0.176.${n}`;
const STRONG = 'not-a-real-secret-Dg7kQ3';
const LIGHTTPD = binary('/usr/sbin/lighttpd');

/** htdigest's line: user:realm:MD5(user:realm:password) (what `htdigest` writes). */
const htdigest = (user: string, realm: string, password: string) =>
  `${user}:${realm}:${createHash('md5').update(`${user}:${realm}:${password}`).digest('hex')}\n`;

const digestArea = (file: string) =>
  `LoadModule auth_digest_module /usr/lib/apache2/modules/mod_auth_digest.so
<Location /admin/>
 AuthType Digest
 AuthName "Restricted"
 AuthDigestDomain /admin/
 AuthDigestProvider file
 AuthUserFile $DIR/www/${file}
 Require valid-user
</Location>`;

async function lighttpd(address: string, password: string): Promise<number> {
  const dir = tempDir('lighttpd');
  writeFiles(dir, { 'www/index.html': 'site', 'www/admin/index.html': 'panel', users: `admin:${password}\n` });
  return daemon(address, (port) => {
    const conf = join(dir, `lighttpd-${port}.conf`);
    writeFiles(dir, {
      [`lighttpd-${port}.conf`]: [
        `server.document-root = "${dir}/www"`,
        `server.bind = "${address}"`,
        `server.port = ${port}`,
        'server.modules = ("mod_auth", "mod_authn_file")',
        'index-file.names = ("index.html")',
        'auth.backend = "plain"',
        `auth.backend.plain.userfile = "${dir}/users"`,
        'auth.require = ("/admin/" => ("method" => "digest", "realm" => "Vault", "require" => "valid-user", "algorithm" => "SHA-256"))',
      ].join('\n'),
    });
    return { cmd: LIGHTTPD!, args: ['-D', '-f', conf] };
  });
}

/** A Net that counts the connections made through it. */
function counting(net: Net): { net: Net; count: () => number } {
  let n = 0;
  return {
    net: {
      address: net.address,
      connect: (port, opts) => (n++, net.connect(port, opts)),
      connectTls: (port, opts) => (n++, net.connectTls(port, opts)),
      udpRequest: (port, payload, opts) => net.udpRequest(port, payload, opts),
    },
    count: () => n,
  };
}

test('Apache mod_auth_digest (MD5): admin/admin is found with the challenge quoted and the password masked; a strong password is not; one audit asks each page once', {
  skip: APACHE ? false : 'apache2 is not installed',
}, async (t) => {
  const [weak, twin] = await Promise.all([
    apache(A(1), digestArea('.weak'), {
      '.weak': htdigest('admin', 'Restricted', 'admin'),
      'admin/index.html': 'panel',
    }),
    apache(A(2), digestArea('.strong'), {
      '.strong': htdigest('admin', 'Restricted', STRONG),
      'admin/index.html': 'panel',
    }),
  ]);

  const w = await auditLogins(A(1), weak);
  assert.deepEqual(w['vigil.web.admin-open'], []);
  assert.deepEqual(w['vigil.web.vendor-default-login'], []);
  const [f] = w['vigil.web.default-credentials']!;
  assert.equal(f?.title, 'Default credentials accepted: HTTP Digest-protected area');
  assert.match(
    f!.detail,
    /^GET \/admin\/ without credentials: HTTP 401 \(WWW-Authenticate: Digest realm="Restricted", algorithm=MD5, qop="auth", Server: Apache[^;]*\); with user "admin" and password "a\*\*\*n" \(.*\): HTTP 200, while the same user with a random password got HTTP 401 again/,
  );
  assert.doesNotMatch(f!.detail, /"admin" \(/);
  const s = await auditLogins(A(2), twin);
  for (const id of LOGIN_IDS) assert.deepEqual(s[id], [], id);

  // Each check with a Net of its own (each asked its pages anew before the asker was shared) and the three
  // with one Net, as the engine runs them.
  const alone = LOGIN_IDS.map(() => counting(netFor(A(1))));
  const svc = await detectOne(netFor(A(1)), weak, { nmapProbes: false });
  await Promise.all(LOGIN_IDS.map((id, i) => checkById(id).runOn(hostOf(A(1), [svc]), alone[i]!.net)));
  const shared = counting(netFor(A(1)));
  const found = await Promise.all(LOGIN_IDS.map((id) => checkById(id).runOn(hostOf(A(1), [svc]), shared.net)));
  const before = alone.reduce((n, c) => n + c.count(), 0);
  t.diagnostic(
    `connections on one port for the three admin-page checks: ${before} with a Net each, ${shared.count()} sharing one`,
  );
  assert.ok(shared.count() < before, `${shared.count()} < ${before}`);
  assert.equal(found.flat().length, 1);
});

test('lighttpd mod_auth Digest with algorithm SHA-256: admin/admin is found; a strong password is not', {
  skip: LIGHTTPD ? false : 'lighttpd is not installed',
}, async () => {
  const [weak, twin] = await Promise.all([lighttpd(A(3), 'admin'), lighttpd(A(4), STRONG)]);
  const w = await auditLogins(A(3), weak);
  const [f] = w['vigil.web.default-credentials']!;
  assert.match(
    f?.detail ?? '',
    /^GET \/admin\/ without credentials: HTTP 401 \(WWW-Authenticate: Digest realm="Vault", algorithm=SHA-256, qop="auth".*\); with user "admin" and password "a\*\*\*n" .*: HTTP 200, while the same user with a random password got HTTP 401 again/,
  );
  const s = await auditLogins(A(4), twin);
  for (const id of LOGIN_IDS) assert.deepEqual(s[id], [], id);
});
