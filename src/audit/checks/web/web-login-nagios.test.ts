/**
 * Nagios Core 4 as Debian ships it (nagios4, its apache2.conf): one real
 * daemon of our own feeding three Apache servers. As shipped
 * (use_authentication=0, open to private addresses): the tactical overview
 * answers anyone, admin-open's finding. Secured as Debian's comments say
 * (HTTP Digest over the whole site): nagiosadmin/nagiosadmin, the install
 * guides' pair, is found by default-credentials (Digest, MD5, qop=auth);
 * the same with a strong password is silent for all three checks.
 */
import { auditLogins, LOGIN_IDS } from '../../../../test/helpers/login-audit.ts';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { test } from 'node:test';
import {
  htdigest,
  NAGIOS,
  NAGIOS_APACHE,
  nagiosApache,
  nagiosConfig,
  nagiosReady,
} from '../../../../test/helpers/nagios.ts';
import { eventually } from '../../../../test/helpers/wait.ts';
import { APACHE, apache, binary, onCleanup, tempDir } from '../../../../test/helpers/web-daemons.ts';

const A = (n: number) => `127.0.176.${n}`;
const STRONG = 'not-a-real-secret-Ng5rT8';
const HAVE = APACHE && binary(NAGIOS) && binary(NAGIOS_APACHE) && binary('/usr/lib/cgi-bin/nagios4/tac.cgi');

test('Nagios 4: as Debian ships it the tactical overview is open to anyone; Digest with nagiosadmin/nagiosadmin is found; a strong password is not', {
  skip: HAVE ? false : 'nagios4, its CGIs or apache2 is not installed',
}, async () => {
  const cfg = nagiosConfig(tempDir('nagios'));
  const nagios = spawn(NAGIOS, cfg.args, { stdio: 'ignore', detached: true });
  onCleanup(() => {
    try {
      process.kill(-nagios.pid!, 'SIGTERM');
    } catch {
      // already gone
    }
  });
  const site = (digest: boolean, password: string) =>
    apache(
      A(digest ? (password === STRONG ? 12 : 11) : 10),
      nagiosApache(cfg.cgiCfg(digest), '$DIR/www/.users', digest),
      {
        '.users': htdigest('nagiosadmin', 'Nagios4', password),
      },
    );
  const [open, weak, twin] = await Promise.all([
    site(false, 'nagiosadmin'),
    site(true, 'nagiosadmin'),
    site(true, STRONG),
  ]);
  await eventually(async () => nagiosReady(cfg.status), 'Nagios writing its status file');

  const o = await auditLogins(A(10), open);
  assert.match(
    o['vigil.web.admin-open']![0]?.detail ?? '',
    /^GET \/cgi-bin\/nagios4\/tac\.cgi without credentials: HTTP 200 showing "Tactical Status Overview": the Nagios web interface answers anyone\.$/,
  );
  assert.deepEqual([...o['vigil.web.vendor-default-login']!, ...o['vigil.web.default-credentials']!], []);

  const w = await auditLogins(A(11), weak);
  assert.deepEqual(w['vigil.web.admin-open'], []);
  assert.deepEqual(w['vigil.web.vendor-default-login'], []);
  const [f] = w['vigil.web.default-credentials']!;
  assert.equal(f?.title, 'Default credentials accepted: Nagios web interface');
  assert.match(
    f!.detail,
    /^GET \/cgi-bin\/nagios4\/tac\.cgi without credentials: HTTP 401 \(WWW-Authenticate: Digest realm="Nagios4", algorithm=MD5, qop="auth", Server: Apache[^;]*\); with user "nagiosadmin" and password "n\*{9}n" \(the nagiosadmin password of install guides\): HTTP 200 showing "Tactical Status Overview": logged in to the Nagios web interface\.$/,
  );
  const s = await auditLogins(A(12), twin);
  for (const id of LOGIN_IDS) assert.deepEqual(s[id], [], id);
});
