/**
 * Debian Dovecot (IMAP and POP3), one instance per config (own base_dir).
 * Weak: no TLS at all with plaintext logins (LOGIN/USER+PASS in the
 * clear); STARTTLS offered but not required (disable_plaintext_auth = no:
 * a client may still log in before STARTTLS — RFC 8314 §4 asks servers to
 * refuse that); STARTTLS required but with a self-signed certificate
 * (the family of issue 27: untrusted certificates behind STARTTLS). Twin: ssl = required, disable_plaintext_auth = yes, good
 * certificate (LOGINDISABLED before STARTTLS, as RFC 3501 §6.2.3 says).
 */
import { join } from 'node:path';
import { leaf } from '../certs.ts';
import { addr, grep, makeDir, script, any, type Daemon, type Weakness } from './kit.ts';

const K = 5;
const A = (n: number) => addr(K, n);
const w = (n: number, port: number, id: string, label: string, nmap: Weakness['nmap']): Weakness => ({
  id,
  family: 'cleartext',
  label,
  daemon: 'dovecot',
  address: A(n),
  port,
  proto: 'tcp',
  vigil: { text: /cleartext|plain|starttls|without tls|unencrypted|login/i },
  nmap,
});

export const DOVECOT: Daemon = {
  kind: 'dovecot',
  binaries: ['dovecot'],
  ports: { tcp: [110, 143], udp: [] },
  weaknesses: [
    w(
      1,
      143,
      'imap-cleartext',
      'IMAP logins without TLS (no STARTTLS)',
      any(
        script('imap-capabilities', /^(?!.*STARTTLS).*AUTH=PLAIN/),
        grep(/imap-capabilities:(?![\s\S]*STARTTLS)[\s\S]*AUTH=PLAIN/),
      ),
    ),
    w(
      1,
      110,
      'pop3-cleartext',
      'POP3 logins without TLS (no STLS)',
      any(grep(/pop3-capabilities:(?![\s\S]*STLS)[\s\S]*USER/)),
    ),
    w(
      2,
      143,
      'imap-starttls-optional',
      'IMAP STARTTLS offered but not required (LOGIN before STARTTLS accepted)',
      grep(/imap-capabilities:(?![\s\S]*LOGINDISABLED)[\s\S]*STARTTLS/),
    ),
    w(2, 110, 'pop3-stls-optional', 'POP3 STLS offered but not required (USER/PASS before STLS accepted)', () => null),
    ...(
      [
        [143, 'imap'],
        [110, 'pop3'],
      ] as const
    ).map(
      ([port, proto]): Weakness => ({
        id: `${proto}-starttls-self-signed`,
        family: 'tls',
        label: `${proto.toUpperCase()} STARTTLS with a self-signed certificate`,
        daemon: 'dovecot',
        address: A(3),
        port,
        proto: 'tcp',
        vigil: { id: /^vigil\.tls\.cert-self-signed$/ },
        nmap: script('ssl-cert', /Issuer: commonName=127\.14\.5\.3/),
      }),
    ),
  ],
  twins: [{ address: A(100), note: 'ssl = required, disable_plaintext_auth = yes, good certificate' }],
  async start(ctx) {
    const configs: [number, string][] = [
      [1, 'ssl = no\ndisable_plaintext_auth = no\n'],
      [2, 'ssl = yes\ndisable_plaintext_auth = no\n'],
      [3, 'ssl = required\ndisable_plaintext_auth = yes\n'],
      [100, 'ssl = required\ndisable_plaintext_auth = yes\n'],
    ];
    for (const [n, conf] of configs) {
      const root = ctx.dir(A(n));
      makeDir(join(root, 'mail'), { uid: 113, gid: 116 });
      const users = ctx.write(join(root, 'users'), 'shop:{PLAIN}bench-Pq2-not-a-secret::::::\n');
      let tls = '';
      if (n !== 1) {
        const pem = await leaf(A(n), { selfSigned: n === 3 });
        tls = `ssl_cert = <${ctx.write(join(root, 'cert.pem'), pem.cert)}\nssl_key = <${ctx.write(join(root, 'key.pem'), pem.key, 0o600)}\nssl_min_protocol = TLSv1.2\n`;
      }
      const file = ctx.write(
        join(root, 'dovecot.conf'),
        `base_dir = ${root}/run
state_dir = ${root}/state
log_path = ${root}/dovecot.log
protocols = imap pop3
listen = ${A(n)}
${conf}${tls}auth_mechanisms = plain login
passdb {
  driver = passwd-file
  args = ${users}
}
userdb {
  driver = static
  args = uid=dovenull gid=dovenull home=${root}/mail/%u
}
mail_location = maildir:${root}/mail/%u
default_login_user = dovenull
default_internal_user = dovecot
`,
      );
      const child = ctx.spawn(`dovecot-${A(n)}`, 'dovecot', ['-F', '-c', file]);
      await ctx.waitTcp(A(n), 143, child);
      await ctx.waitTcp(A(n), 110, child);
    }
  },
};
