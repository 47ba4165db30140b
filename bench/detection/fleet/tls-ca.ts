/**
 * Certificates from a CA nobody trusts (issue 27, "untrusted certificates"), as opposed to self-signed
 * ones: leaves signed by the bench's rogue CA, which the bench does not hand to Vigil, beside twins
 * whose leaves the bench CA signed (the bench passes that CA as trusted, as an operator passes an
 * internal CA with serve --audit-ca). Implicit TLS on Debian nginx, the rogue CA sent after the leaf
 * and the leaf alone; STARTTLS on Debian Dovecot (IMAP STARTTLS and POP3 STLS). Addresses: K=41 from
 * N=20 (munin-node holds N 1-19 and 100-119 of the same K).
 */
import { join } from 'node:path';
import { leaf, type LeafOptions } from '../certs.ts';
import { addr, makeDir, none, userIds, type Daemon, type Weakness } from './kit.ts';
import { HEADERS, INDEX, LIMITS, startNginx } from './nginx-proc.ts';

const K = 41;
const A = (n: number) => addr(K, n);
const DOVECOT = 22;

const weak = (n: number, port: number, daemon: string, label: string): Weakness => ({
  id: `tls-untrusted-ca-${n}-${port}`,
  family: 'tls',
  label,
  daemon,
  address: A(n),
  port,
  proto: 'tcp',
  vigil: { id: /^vigil\.tls\.cert-untrusted$/ },
  // nmap's ssl-cert prints the issuer but verifies no chain: nothing in its output tells trusted from not.
  nmap: none,
});

export const TLS_CA: Daemon = {
  kind: 'tls-ca',
  binaries: ['nginx', 'dovecot'],
  ports: { tcp: [110, 143, 443], udp: [] },
  weaknesses: [
    weak(20, 443, 'nginx (TLS)', 'certificate from an untrusted CA, the CA sent along (nginx)'),
    weak(21, 443, 'nginx (TLS)', 'certificate from an untrusted CA, sent alone (nginx)'),
    weak(DOVECOT, 143, 'dovecot', 'IMAP STARTTLS with a certificate from an untrusted CA'),
    weak(DOVECOT, 110, 'dovecot', 'POP3 STLS with a certificate from an untrusted CA'),
  ],
  twins: [
    { address: A(120), note: 'nginx, leaf signed by the trusted bench CA' },
    { address: A(100 + DOVECOT), note: 'dovecot, leaf signed by the trusted bench CA' },
  ],
  async start(ctx) {
    const root = ctx.dir('nginx');
    const servers: string[] = [];
    const pems = async (dir: string, address: string, o: LeafOptions) => {
      const pem = await leaf(address, o);
      return [ctx.write(join(dir, 'cert.pem'), pem.cert), ctx.write(join(dir, 'key.pem'), pem.key, 0o600)] as const;
    };
    const sites: [number, LeafOptions][] = [
      [20, { untrusted: 'chain' }],
      [21, { untrusted: 'leaf' }],
      [120, {}],
    ];
    for (const [n, o] of sites) {
      const dir = ctx.dir(`www-${A(n)}`);
      const [crt, key] = await pems(dir, A(n), o);
      ctx.write(join(dir, 'index.html'), INDEX);
      // The TLS kind's hardened site (fleet/tls.ts): only the certificate's issuer differs between these.
      servers.push(
        `server { listen ${A(n)}:443 ssl; ssl_certificate ${crt}; ssl_certificate_key ${key}; root ${dir}; ${HEADERS} ${LIMITS} ssl_protocols TLSv1.2 TLSv1.3; add_header Strict-Transport-Security "max-age=31536000" always; location ~ /\\. { return 404; } }`,
      );
    }
    await startNginx(
      ctx,
      root,
      servers,
      sites.map(([n]) => [A(n), 443]),
    );
    for (const n of [DOVECOT, 100 + DOVECOT]) {
      const dir = ctx.dir(A(n));
      makeDir(join(dir, 'mail'), userIds('dovenull'));
      const [crt, key] = await pems(dir, A(n), n === DOVECOT ? { untrusted: 'chain' } : {});
      const conf = ctx.write(
        join(dir, 'dovecot.conf'),
        `base_dir = ${dir}/run\nstate_dir = ${dir}/state\nlog_path = ${dir}/dovecot.log\nprotocols = imap pop3\nlisten = ${A(n)}\nssl = required\ndisable_plaintext_auth = yes\nssl_cert = <${crt}\nssl_key = <${key}\nssl_min_protocol = TLSv1.2\nauth_mechanisms = plain\npassdb {\n  driver = passwd-file\n  args = ${ctx.write(join(dir, 'users'), 'shop:{PLAIN}bench-Pq2-not-a-secret::::::\n')}\n}\nuserdb {\n  driver = static\n  args = uid=dovenull gid=dovenull home=${dir}/mail/%u\n}\nmail_location = maildir:${dir}/mail/%u\ndefault_login_user = dovenull\ndefault_internal_user = dovecot\n`,
      );
      const child = ctx.spawn(`dovecot-${A(n)}`, 'dovecot', ['-F', '-c', conf]);
      await ctx.waitTcp(A(n), 143, child);
      await ctx.waitTcp(A(n), 110, child);
    }
  },
};
