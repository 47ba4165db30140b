/**
 * Kerberos KDCs on real Debian daemons: MIT krb5kdc with "backup" left
 * without pre-authentication (MIT's default for a new principal) and RC4
 * keys allowed vs its twin with default_principal_flags = +preauth and AES
 * keys only. The realm is one no list
 * holds: over TCP the KDC's own FIELD_TOOLONG answer names it; over UDP
 * (no TCP port open) it comes from a host name the audit saw. Heimdal's
 * heimdal-kdc conflicts with krb5-kdc in Debian, so it is not here: its
 * code paths (no realm in FIELD_TOOLONG, require-preauth) were read in its
 * source (kdc/connect.c, kdc/kerberos5.c), not run.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { test } from 'node:test';
import { daemon, tempDir, which } from '../../../../test/helpers/daemons-kit.ts';
import { hostOf, netFor, service } from '../../../../test/helpers/web-daemons.ts';
import { type DaemonPlan, MIT_KDC_BINARIES, mitKdcPlan } from '../../../../test/helpers/auth-services-daemons.ts';
import { detectOne } from '../../engine/detect.ts';
import { checkById } from '../catalogue.ts';

const WEAK = '127.0.188.1';
const HARD = '127.0.188.2';
const REALM = 'VIGIL-KDC.TEST';
const missing = MIT_KDC_BINARIES.filter((b) => !which(b));

const roast = checkById('vigil.kerberos.asrep-roast');
const enumeration = checkById('vigil.kerberos.user-enum');

async function kdc(plan: DaemonPlan, address: string): Promise<number> {
  for (const [cmd, args] of plan.setup) execFileSync(cmd, args, { env: plan.env, stdio: 'pipe' });
  return daemon(address, plan.cmd, () => plan.args, { env: plan.env, port: 88 });
}
const mitKdc = (address: string, hardened: boolean) =>
  kdc(mitKdcPlan(tempDir('krb5kdc'), REALM, address, 88, hardened), address);

test('MIT krb5kdc: no pre-authentication (TCP and UDP) and RC4 keys are found; the +preauth, AES-only twin shows only names', {
  skip: missing.length ? `MIT Kerberos is not installed (${missing.join(', ')})` : false,
}, async () => {
  const [weak, hard] = await Promise.all([mitKdc(WEAK, false), mitKdc(HARD, true)]);
  const kdcHost = (address: string, port: number) => hostOf(address, [service(port, 'kerberos-sec')]);

  const found = await roast.runOn(kdcHost(WEAK, weak), netFor(WEAK));
  assert.equal(found.length, 1);
  assert.match(found[0]!.detail, /over tcp, realm VIGIL-KDC\.TEST \(named by the KDC's own KRB_ERR_FIELD_TOOLONG/);
  assert.match(
    found[0]!.detail,
    /"backup" -> AS-REP for backup@VIGIL-KDC\.TEST, enc-part aes256-cts-hmac-sha1-96 \(18\), \d+ bytes/,
  );
  assert.doesNotMatch(found[0]!.detail, /"admin"/);
  const [names] = await enumeration.runOn(kdcHost(WEAK, weak), netFor(WEAK));
  assert.match(names!.detail, /2 exist: admin \(KDC_ERR_PREAUTH_REQUIRED \(25\)\), backup \(an AS-REP\)/);

  const [rc4] = await checkById('vigil.kerberos.weak-etypes').runOn(kdcHost(WEAK, weak), netFor(WEAK));
  assert.match(
    rc4!.detail,
    /^An AS-REQ for "admin" offering only weak etypes was answered with KDC_ERR_PREAUTH_REQUIRED \(25\) whose PA-ETYPE-INFO2 lists it: rc4-hmac \(23\)\.$/,
  );

  // The twin: no AS-REP, AES keys only; the names are information (LOG) only.
  assert.deepEqual(await checkById('vigil.kerberos.weak-etypes').runOn(kdcHost(HARD, hard), netFor(HARD)), []);
  assert.deepEqual(await roast.runOn(kdcHost(HARD, hard), netFor(HARD)), []);
  const [twinNames] = await enumeration.runOn(kdcHost(HARD, hard), netFor(HARD));
  assert.match(twinNames!.detail, /admin \(KDC_ERR_PREAUTH_REQUIRED \(25\)\), backup \(KDC_ERR_PREAUTH_REQUIRED/);
  assert.equal(enumeration.type, 'LOG');

  // UDP only (no TCP port in the host's facts): the realm from a name the host showed elsewhere.
  const udpHost = hostOf(WEAK, [service(25, 'smtp', { banner: '220 mail.vigil-kdc.test ESMTP' })]);
  udpHost.openPorts = [];
  const [udp] = await roast.runOn(udpHost, netFor(WEAK));
  assert.equal(udp?.port, 88);
  assert.match(udp!.detail, /over udp, realm VIGIL-KDC\.TEST \(from the host name mail\.vigil-kdc\.test/);

  // Detection names the port.
  const s = await detectOne(netFor(WEAK), weak, { nmapProbes: false });
  assert.equal(s.name, 'kerberos-sec');
  assert.equal(s.product, 'MIT Kerberos KDC');
});
