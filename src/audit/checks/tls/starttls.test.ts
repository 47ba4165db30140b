import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  POSTFIX,
  postfix,
  DOVECOT,
  dovecot,
  PG_BIN,
  postgres,
  SLAPD,
  slapd,
  VSFTPD,
  vsftpd,
} from '../../../../test/helpers/mail-daemons.ts';
import {
  ADDR,
  certificate,
  dhParams,
  freePort,
  legacyOpenssl,
  hostOf,
  netFor,
  NGINX,
  nginx,
  service,
  tempDir,
} from '../../../../test/helpers/web-daemons.ts';
import type { Service } from '../../engine/types.ts';
import { fetchHttpInfo } from '../../proto/http.ts';
import { readTlsInfo } from '../../proto/tls.ts';
import { CHECKS as CATALOGUE, checkById } from '../catalogue.ts';

/** The weaknesses planted on the weak twins; the hardened twins must show none of them. */
const PLANTED = ['vigil.tls.dh-weak', 'vigil.tls.cert-expiring', 'vigil.tls.tls10', 'vigil.http.cookie-no-secure'];
const CHECKS = CATALOGUE.filter((c) => PLANTED.includes(c.id));

/** Check id -> "port: detail" lines. */
async function flagged(address: string, services: Service[]): Promise<Map<string, string[]>> {
  const host = hostOf(address, services);
  const out = new Map<string, string[]>();
  for (const c of CHECKS)
    for (const f of await c.runOn(host, netFor(address)))
      out.set(c.id, [...(out.get(c.id) ?? []), `${f.port}: ${f.detail}`]);
  return out;
}
const on = (found: Map<string, string[]>, id: string, port: number) =>
  (found.get(id) ?? []).find((l) => l.startsWith(`${port}: `));

/**
 * Weak: a certificate 10 days from expiry, a 1024-bit DH group, TLS 1.0 allowed. Hardened: 365 days,
 * ffdhe2048, TLS 1.2+.
 */
function material(tag: string) {
  const weakDir = tempDir(`${tag}-weak`);
  const hardDir = tempDir(`${tag}-hard`);
  return {
    weak: { ...certificate(weakDir, { days: 10 }), dh: dhParams(weakDir, true) },
    hard: { ...certificate(hardDir, { days: 365 }), dh: dhParams(hardDir, false) },
  };
}

test('real nginx over HTTPS: weak DH group, certificate near expiry, TLS 1.0, cookie without Secure; the hardened twin is silent', {
  skip: NGINX ? false : 'nginx is not installed',
}, async () => {
  const a = ADDR(40);
  const m = material('nginx');
  const weak = await nginx(
    a,
    `ssl_certificate ${m.weak.cert}; ssl_certificate_key ${m.weak.key}; ssl_dhparam ${m.weak.dh};
    ssl_protocols TLSv1 TLSv1.1 TLSv1.2; ssl_ciphers "DHE-RSA-AES128-SHA:ECDHE-RSA-AES128-GCM-SHA256:AES128-SHA:@SECLEVEL=0";
    add_header Set-Cookie "sid=1; Path=/; HttpOnly" always;`,
    { 'index.html': 'hi' },
    'ssl',
  );
  const hard = await nginx(
    a,
    `ssl_certificate ${m.hard.cert}; ssl_certificate_key ${m.hard.key}; ssl_dhparam ${m.hard.dh};
    ssl_protocols TLSv1.2 TLSv1.3; ssl_ciphers "ECDHE+AESGCM:DHE+AESGCM";
    add_header Set-Cookie "sid=1; Path=/; HttpOnly; Secure" always;`,
    { 'index.html': 'hi' },
    'ssl',
  );
  const net = netFor(a);
  const services = await Promise.all(
    [weak, hard].map(async (p) =>
      service(p, 'https', { tls: await readTlsInfo(net, p), http: await fetchHttpInfo(net, p, true) }),
    ),
  );
  const found = await flagged(a, services);
  for (const id of PLANTED)
    assert.ok(on(found, id, weak), `${id} not flagged on weak nginx: ${JSON.stringify([...found])}`);
  assert.match(on(found, 'vigil.tls.dh-weak', weak)!, /1024-bit Diffie-Hellman prime/);
  assert.match(on(found, 'vigil.tls.cert-expiring', weak)!, /in (9|10) days/);
  for (const id of PLANTED) assert.equal(on(found, id, hard), undefined, `${id} flagged on hardened nginx`);
});

test('real dovecot (IMAP STARTTLS, POP3 STLS) and vsftpd (AUTH TLS): the TLS checks run after the upgrade', {
  skip: !DOVECOT || !VSFTPD ? 'dovecot or vsftpd is not installed' : false,
}, async () => {
  const a = ADDR(41);
  const m = material('mail');
  const dc = (x: typeof m.weak, weak: boolean) =>
    `ssl = ${weak ? 'yes' : 'required'}\nssl_cert = <${x.cert}\nssl_key = <${x.key}\nssl_dh = <${x.dh}\n` +
    (weak ? 'ssl_min_protocol = TLSv1\nssl_cipher_list = ALL:@SECLEVEL=0\n' : 'ssl_min_protocol = TLSv1.2\n');
  const weakMail = await dovecot(a, dc(m.weak, true));
  const hardMail = await dovecot(a, dc(m.hard, false));
  const ftp = (x: typeof m.weak, weak: boolean) => [
    'local_enable=YES',
    'ssl_enable=YES',
    `rsa_cert_file=${x.cert}`,
    `rsa_private_key_file=${x.key}`,
    ...(weak
      ? ['ssl_tlsv1=YES', 'ssl_ciphers=ALL:@SECLEVEL=0']
      : ['ssl_tlsv1=NO', 'ssl_ciphers=HIGH', 'force_local_logins_ssl=YES']),
  ];
  const weakFtp = await vsftpd(a, ftp(m.weak, true));
  const hardFtp = await vsftpd(a, ftp(m.hard, false));
  const found = await flagged(a, [
    service(weakMail.imap, 'imap'),
    service(weakMail.pop3, 'pop3'),
    service(hardMail.imap, 'imap'),
    service(hardMail.pop3, 'pop3'),
    service(weakFtp, 'ftp'),
    service(hardFtp, 'ftp'),
  ]);
  for (const port of [weakMail.imap, weakMail.pop3]) {
    for (const id of ['vigil.tls.dh-weak', 'vigil.tls.cert-expiring', 'vigil.tls.tls10'])
      assert.ok(on(found, id, port), `${id} not flagged on dovecot ${port}: ${JSON.stringify([...found])}`);
  }
  assert.match(on(found, 'vigil.tls.dh-weak', weakMail.imap)!, /after STARTTLS/);
  for (const id of ['vigil.tls.cert-expiring', 'vigil.tls.tls10'])
    assert.ok(on(found, id, weakFtp), `${id} not flagged on vsftpd: ${JSON.stringify([...found])}`);
  assert.match(on(found, 'vigil.tls.cert-expiring', weakFtp)!, /after AUTH TLS/);
  for (const port of [hardMail.imap, hardMail.pop3, hardFtp])
    for (const id of PLANTED) assert.equal(on(found, id, port), undefined, `${id} flagged on hardened ${port}`);
});

test('real slapd (LDAP StartTLS extended operation) and PostgreSQL (SSLRequest): the TLS checks run after the upgrade', {
  skip: !SLAPD || !PG_BIN ? 'slapd or postgresql is not installed' : false,
}, async () => {
  const a = ADDR(42);
  const m = material('dir');
  // Debian's slapd uses GnuTLS: priority strings, and it picks its own DH group whatever TLSDHParamFile says
  // (observed: 2048 bits), so no weak DH here.
  const ldap = (x: typeof m.weak, weak: boolean) => [
    `TLSCertificateFile ${x.cert}`,
    `TLSCertificateKeyFile ${x.key}`,
    `TLSCipherSuite ${weak ? 'NORMAL:+VERS-TLS1.0' : 'NORMAL:-VERS-TLS1.0:-VERS-TLS1.1'}`,
  ];
  const weakLdap = await slapd(a, ldap(m.weak, true));
  const hardLdap = await slapd(a, ldap(m.hard, false));
  const pg = (x: typeof m.weak, weak: boolean) =>
    postgres(
      a,
      {
        ssl: 'on',
        ssl_cert_file: '$DIR/cert.pem',
        ssl_key_file: '$DIR/key.pem',
        ssl_dh_params_file: '$DIR/dh.pem',
        ...(weak
          ? { ssl_min_protocol_version: 'TLSv1', ssl_ciphers: 'ALL:@SECLEVEL=0' }
          : { ssl_min_protocol_version: 'TLSv1.2' }),
      },
      { 'cert.pem': x.cert, 'key.pem': x.key, 'dh.pem': x.dh },
      weak ? legacyOpenssl(tempDir('pg-openssl')) : undefined,
    );
  const weakPg = await pg(m.weak, true);
  const hardPg = await pg(m.hard, false);
  const found = await flagged(a, [
    service(weakLdap, 'ldap'),
    service(hardLdap, 'ldap'),
    service(weakPg, 'postgresql'),
    service(hardPg, 'postgresql'),
  ]);
  for (const [port, ids] of [
    [weakLdap, ['vigil.tls.cert-expiring', 'vigil.tls.tls10']],
    [weakPg, ['vigil.tls.dh-weak', 'vigil.tls.cert-expiring', 'vigil.tls.tls10']],
  ] as const) {
    for (const id of ids) assert.ok(on(found, id, port), `${id} not flagged on ${port}: ${JSON.stringify([...found])}`);
  }
  assert.match(on(found, 'vigil.tls.cert-expiring', weakLdap)!, /after STARTTLS/);
  assert.match(on(found, 'vigil.tls.cert-expiring', weakPg)!, /after SSLRequest/);
  for (const port of [hardLdap, hardPg])
    for (const id of PLANTED) assert.equal(on(found, id, port), undefined, `${id} flagged on hardened ${port}`);
});

test('real postfix: STARTTLS with a certificate near expiry, a 1024-bit group and TLS 1.0, and AUTH PLAIN before STARTTLS; the hardened twin is silent', {
  skip:
    !POSTFIX || !DOVECOT || process.getuid?.() !== 0 ? 'postfix and dovecot (SASL), run as root, are needed' : false,
}, async () => {
  const a = ADDR(60);
  const m = material('smtp');
  // SASL from dovecot's auth service over TCP (Postfix smtpd_sasl_type = dovecot, smtpd_sasl_path = inet:…).
  const auth = await freePort(a);
  await dovecot(a, `ssl = no\nservice auth {\n  inet_listener {\n    address = ${a}\n    port = ${auth}\n  }\n}\n`);
  const sasl = ['smtpd_sasl_auth_enable = yes', 'smtpd_sasl_type = dovecot', `smtpd_sasl_path = inet:${a}:${auth}`];
  const weak = await postfix(a, [
    ...sasl,
    `smtpd_tls_cert_file = ${m.weak.cert}`,
    `smtpd_tls_key_file = ${m.weak.key}`,
    `smtpd_tls_dh1024_param_file = ${m.weak.dh}`,
    'smtpd_tls_security_level = may',
    'smtpd_tls_auth_only = no',
    'smtpd_tls_protocols = >=TLSv1',
    'tls_medium_cipherlist = ALL:@SECLEVEL=0',
    'tls_preempt_cipherlist = no',
  ]);
  const hard = await postfix(a, [
    ...sasl,
    `smtpd_tls_cert_file = ${m.hard.cert}`,
    `smtpd_tls_key_file = ${m.hard.key}`,
    `smtpd_tls_dh1024_param_file = ${m.hard.dh}`,
    'smtpd_tls_security_level = may',
    'smtpd_tls_auth_only = yes',
    'smtpd_tls_protocols = >=TLSv1.2',
  ]);
  const host = hostOf(a, [service(weak, 'smtp'), service(hard, 'smtp')]);
  const found = await flagged(a, host.services);
  for (const id of ['vigil.tls.dh-weak', 'vigil.tls.cert-expiring', 'vigil.tls.tls10'])
    assert.ok(on(found, id, weak), `${id} not flagged on weak postfix: ${JSON.stringify([...found])}`);
  assert.match(on(found, 'vigil.tls.dh-weak', weak)!, /after STARTTLS/);
  for (const id of PLANTED) assert.equal(on(found, id, hard), undefined, `${id} flagged on hardened postfix`);
  const auths = await checkById('vigil.smtp.cleartext-auth').runOn(host, netFor(a));
  assert.deepEqual(
    auths.map((f) => f.port),
    [weak],
    JSON.stringify(auths),
  );
  assert.match(auths[0]!.detail, /offers AUTH PLAIN LOGIN \(STARTTLS is offered but not required for AUTH\)/);
});

test('LDAP ExtendedResponse: success, refusal, and bytes that are not one', async () => {
  const { ldapSuccess } = await import('../../proto/starttls.ts');
  // slapd's reply to StartTLS: SEQUENCE { messageID 1, [APPLICATION 24] { resultCode 0, matchedDN "",
  // diagnosticMessage "" } }.
  assert.equal(ldapSuccess(Buffer.from('300c02010178070a010004000400', 'hex')), true);
  // protocolError (2): StartTLS not configured.
  assert.equal(ldapSuccess(Buffer.from('302802010178230a0102040004', 'hex')), false);
  assert.equal(ldapSuccess(Buffer.from('HTTP/1.1 400 Bad Request\r\n')), null);
});
