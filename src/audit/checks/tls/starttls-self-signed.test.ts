/**
 * Self-signed certificates behind STARTTLS (issue 27), on real dovecot
 * (IMAP STARTTLS, POP3 STLS), vsftpd (AUTH TLS) and MariaDB (SSLRequest):
 * found after the upgrade; the twins, with a certificate from a CA of
 * their own (not self-signed, as internal CAs issue them), are not reported.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mariadb } from '../../../../test/helpers/daemons-auth.ts';
import { caSigned } from '../../../../test/helpers/ca-signed.ts';
import { which } from '../../../../test/helpers/daemons-kit.ts';
import { DOVECOT, dovecot, VSFTPD, vsftpd } from '../../../../test/helpers/mail-daemons.ts';
import { ADDR, certificate, hostOf, netFor, service, tempDir } from '../../../../test/helpers/web-daemons.ts';
import type { Service } from '../../engine/types.ts';
import { checkById } from '../catalogue.ts';

const check = checkById('vigil.tls.cert-self-signed');

test('dovecot and vsftpd: a self-signed certificate after STARTTLS / STLS / AUTH TLS is found; a CA-signed twin is not', {
  skip: !DOVECOT || !VSFTPD ? 'dovecot or vsftpd is not installed' : false,
}, async () => {
  const a = ADDR(43);
  const self = certificate(tempDir('starttls-self'));
  const signed = caSigned(tempDir('starttls-signed'));
  const dc = (x: { cert: string; key: string }) => `ssl = yes\nssl_cert = <${x.cert}\nssl_key = <${x.key}\n`;
  const ftp = (x: { cert: string; key: string }) => [
    'local_enable=YES',
    'ssl_enable=YES',
    `rsa_cert_file=${x.cert}`,
    `rsa_private_key_file=${x.key}`,
  ];
  const [weakMail, hardMail, weakFtp, hardFtp] = [
    await dovecot(a, dc(self)),
    await dovecot(a, dc(signed)),
    await vsftpd(a, ftp(self)),
    await vsftpd(a, ftp(signed)),
  ];
  const services: Service[] = [
    service(weakMail.imap, 'imap'),
    service(weakMail.pop3, 'pop3'),
    service(weakFtp, 'ftp'),
    service(hardMail.imap, 'imap'),
    service(hardMail.pop3, 'pop3'),
    service(hardFtp, 'ftp'),
  ];
  const found = await check.runOn(hostOf(a, services), netFor(a));
  const by = new Map(found.map((f) => [f.port, f.detail]));
  assert.match(by.get(weakMail.imap) ?? '', /self-signed\. \(after STARTTLS\)/);
  assert.match(by.get(weakMail.pop3) ?? '', /self-signed\. \(after STARTTLS\)/);
  assert.match(by.get(weakFtp) ?? '', /self-signed\. \(after AUTH TLS\)/);
  for (const p of [hardMail.imap, hardMail.pop3, hardFtp]) assert.equal(by.get(p), undefined, `flagged ${p}`);
});

test('MariaDB: a self-signed certificate after the SSLRequest is found; a CA-signed twin is not', {
  skip: which('mariadbd') || which('mysqld') ? false : 'mariadb-server is not installed',
}, async () => {
  const a = ADDR(44);
  const tls = (x: { cert: string; key: string }) => [`--ssl-cert=${x.cert}`, `--ssl-key=${x.key}`];
  const [weak, hard] = await Promise.all([
    mariadb(a, false, undefined, undefined, tls(certificate(tempDir('mariadb-self')))),
    mariadb(a, false, undefined, undefined, tls(caSigned(tempDir('mariadb-signed')))),
  ]);
  const found = await check.runOn(hostOf(a, [service(weak, 'mysql'), service(hard, 'mysql')]), netFor(a));
  assert.deepEqual(
    found.map((f) => [f.port, f.detail.replace(/ \(subject.*/, '')]),
    [[weak, 'The certificate is self-signed. (after SSLRequest)']],
  );
});
