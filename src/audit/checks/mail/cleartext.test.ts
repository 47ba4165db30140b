import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DOVECOT, dovecot, VSFTPD, vsftpd } from '../../../../test/helpers/mail-daemons.ts';
import { ADDR, certificate, hostOf, netFor, service, tempDir } from '../../../../test/helpers/web-daemons.ts';
import type { HostFacts } from '../../engine/types.ts';
import { CHECKS as CATALOGUE, FILES } from '../catalogue.ts';

const CLEARTEXT_CHECKS = CATALOGUE.filter((c) => /\.cleartext-(login|auth)$/.test(c.id));

async function flagged(address: string, host: HostFacts): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const c of CLEARTEXT_CHECKS) {
    const f = await c.runOn(host, netFor(address));
    if (f.length) out.set(c.id, f.map((x) => `${x.port}: ${x.detail}`).join(' | '));
  }
  return out;
}

test('real vsftpd: local logins without TLS, and with AUTH TLS offered but not required, are flagged; force_local_logins_ssl and an anonymous-only server are not', {
  skip: VSFTPD ? false : 'vsftpd is not installed (apt-get install vsftpd)',
}, async () => {
  const a = ADDR(30);
  const { cert, key } = certificate(tempDir('ftp-cert'));
  const plain = await vsftpd(a, ['local_enable=YES']);
  const optional = await vsftpd(a, [
    'local_enable=YES',
    'ssl_enable=YES',
    `rsa_cert_file=${cert}`,
    `rsa_private_key_file=${key}`,
    'force_local_logins_ssl=NO',
    'force_local_data_ssl=NO',
  ]);
  const required = await vsftpd(a, [
    'local_enable=YES',
    'ssl_enable=YES',
    `rsa_cert_file=${cert}`,
    `rsa_private_key_file=${key}`,
    'force_local_logins_ssl=YES',
    'force_local_data_ssl=YES',
  ]);
  const anonOnly = await vsftpd(a, ['local_enable=NO', 'anonymous_enable=YES', 'anon_root=/var/run/vsftpd/empty']);
  const found = await flagged(
    a,
    hostOf(
      a,
      [plain, optional, required, anonOnly].map((p) => service(p, 'ftp')),
    ),
  );
  const ftp = found.get('vigil.ftp.cleartext-login') ?? '';
  assert.match(ftp, new RegExp(`${plain}: USER before any TLS answered "331.*FEAT offers no AUTH TLS`));
  assert.match(ftp, new RegExp(`${optional}: .*AUTH TLS is offered but not required`));
  assert.doesNotMatch(ftp, new RegExp(`\\b(${required}|${anonOnly}):`));
});

test('real dovecot: IMAP and POP3 without TLS, and with STARTTLS/STLS optional, are flagged; ssl = required is not', {
  skip: DOVECOT ? false : 'dovecot is not installed (apt-get install dovecot-imapd dovecot-pop3d)',
}, async () => {
  const a = ADDR(31);
  const { cert, key } = certificate(tempDir('mail-cert'));
  const tls = `ssl_cert = <${cert}\nssl_key = <${key}\n`;
  const plain = await dovecot(a, 'ssl = no\ndisable_plaintext_auth = no\n');
  const optional = await dovecot(a, `ssl = yes\ndisable_plaintext_auth = no\n${tls}`);
  const required = await dovecot(a, `ssl = required\ndisable_plaintext_auth = yes\n${tls}`);
  const all = [plain, optional, required];
  const found = await flagged(
    a,
    hostOf(a, [...all.map((d) => service(d.imap, 'imap')), ...all.map((d) => service(d.pop3, 'pop3'))]),
  );
  const imap = found.get('vigil.imap.cleartext-login') ?? '';
  const pop3 = found.get('vigil.pop3.cleartext-login') ?? '';
  assert.match(imap, new RegExp(`${plain.imap}: CAPABILITY .* lacks LOGINDISABLED \\(no STARTTLS offered\\)`));
  assert.match(imap, new RegExp(`${optional.imap}: .*STARTTLS is offered but not required`));
  assert.match(pop3, new RegExp(`${plain.pop3}: USER answered "\\+OK.*no STLS offered`));
  assert.match(pop3, new RegExp(`${optional.pop3}: .*STLS is offered but not required`));
  assert.doesNotMatch(imap + pop3, new RegExp(`\\b(${required.imap}|${required.pop3}):`));
});

test('odd peers (garbage, immediate close, a 200-for-everything HTTP reply, silence): no finding from the cleartext, STARTTLS, web content and policy checks, no throw', async (t) => {
  const { createServer } = await import('node:net');
  const HTTP_POLICY_CHECKS = CATALOGUE.filter((c) =>
    /^vigil\.http\.(cors-any-origin|cookie-no-httponly|cookie-no-secure|password-form-cleartext|basic-auth-cleartext)$/.test(
      c.id,
    ),
  );
  const HTTP_WRITE_CHECKS = CATALOGUE.filter((c) => /^vigil\.http\.(put-write|put-accepted|webdav-open)$/.test(c.id));
  const WEB_CONTENT_CHECKS = [FILES['web/exposed-files.ts']!].flat();
  const a = ADDR(32);
  const servers = [
    createServer((s) => s.on('error', () => {}).end('\x00\xff garbage\r\n')),
    createServer((s) => s.on('error', () => {}).destroy()),
    // Answers every request, whatever it is, with the same 200 page (no HTTP semantics at all).
    createServer((s) =>
      s.on('error', () => {}).on('data', () => s.end('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok')),
    ),
    // Accepts and never says a word (a tarpit): each check gives up after its bounded waits.
    createServer((s) => s.on('error', () => {})),
  ];
  const ports = await Promise.all(
    servers.map((s) => new Promise<number>((r) => s.listen(0, a, () => r((s.address() as { port: number }).port)))),
  );
  t.after(() => servers.forEach((s) => (s.close(), s.unref())));
  const names = ['ftp', 'imap', 'pop3', 'smtp', 'ldap', 'postgresql', 'http'];
  const host = hostOf(
    a,
    ports.flatMap((p) => names.map((n) => service(p, n))),
  );
  // At once, as runAudit does: a peer that never greets costs each check its bounded wait.
  const ids = new Set(
    [...CLEARTEXT_CHECKS, ...HTTP_POLICY_CHECKS, ...HTTP_WRITE_CHECKS, ...WEB_CONTENT_CHECKS].map((c) => c.id),
  );
  const checks = CATALOGUE.filter(
    (c) => ids.has(c.id) || (c.id.startsWith('vigil.tls.') && c.id !== 'vigil.tls.hsts-missing'),
  );
  const results = await Promise.all(checks.map((c) => c.runOn(host, netFor(a))));
  checks.forEach((c, i) => assert.deepEqual(results[i], [], c.id));
});
