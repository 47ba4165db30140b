/**
 * Debian Postfix: one master (its own config, queue and data directories),
 * one smtpd per address from master.cf with -o overrides, so that each
 * address carries one weakness. Weak: VRFY answered (disable_vrfy_command
 * defaults to no: user enumeration), STARTTLS with a certificate that ends
 * in 10 days, STARTTLS with a 1024-bit DH group, an open relay. Twin: VRFY
 * off, good certificate, Postfix's default DH (2048), relaying only for
 * 127.0.0.2 (which no scanner here uses). Nothing is ever delivered:
 * default_transport is discard:.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { leaf, type LeafOptions } from '../certs.ts';
import { addr, any, grep, makeDir, script, type Ctx, type Daemon } from './kit.ts';

const K = 4;
const A = (n: number) => addr(K, n);
const SERVICES = `pickup unix n - n 60 1 pickup
cleanup unix n - n - 0 cleanup
qmgr unix n - n 300 1 qmgr
tlsmgr unix - - n 1000? 1 tlsmgr
rewrite unix - - n - - trivial-rewrite
bounce unix - - n - 0 bounce
defer unix - - n - 0 bounce
trace unix - - n - 0 bounce
verify unix - - n - 1 verify
flush unix n - n 1000? 0 flush
proxymap unix - - n - - proxymap
proxywrite unix - - n - 1 proxymap
smtp unix - - n - - smtp
relay unix - - n - - smtp
showq unix n - n - - showq
error unix - - n - - error
retry unix - - n - - error
discard unix - - n - - discard
local unix - n n - - local
anvil unix - - n - 1 anvil
scache unix - - n - 1 scache
postlog unix-dgram n - n - 1 postlogd
`;

export const POSTFIX: Daemon = {
  kind: 'postfix',
  binaries: ['postfix'],
  ports: { tcp: [25], udp: [] },
  onLo: [1, 2, 3, 4, 100].map(A), // inet_interfaces must name interface addresses ("no local interface found")
  weaknesses: [
    {
      id: 'smtp-vrfy',
      family: 'dns-mail',
      label: 'SMTP VRFY answers (user enumeration)',
      daemon: 'postfix',
      address: A(1),
      port: 25,
      proto: 'tcp',
      // The VRFY check itself: vigil.smtp.rcpt-enum's LOG (RCPT TO enumeration) is on the twin too.
      vigil: { id: /^vigil\.smtp\.user-enum$/ },
      nmap: any(script('smtp-enum-users', /root|METHOD/), script('smtp-commands', /VRFY/)),
    },
    {
      id: 'smtp-tls-expiring',
      family: 'tls',
      label: 'SMTP STARTTLS certificate expires in 10 days',
      daemon: 'postfix',
      address: A(2),
      port: 25,
      proto: 'tcp',
      vigil: { text: /expir/i },
      nmap: grep(/Not valid after:\s*2026-1[12]/),
    },
    {
      id: 'smtp-tls-weak-dh',
      family: 'tls',
      label: 'SMTP STARTTLS with a 1024-bit DH group',
      daemon: 'postfix',
      address: A(3),
      port: 25,
      proto: 'tcp',
      vigil: { text: /diffie|\bdh\b|dhe|logjam/i },
      nmap: script('ssl-dh-params', /WEAK DH|VULNERABLE/),
    },
    {
      id: 'smtp-open-relay',
      family: 'dns-mail',
      label: 'open relay (mynetworks = 0.0.0.0/0)',
      daemon: 'postfix',
      address: A(4),
      port: 25,
      proto: 'tcp',
      vigil: { text: /relay/i },
      nmap: script('smtp-open-relay', /Server is an open relay/i),
    },
  ],
  twins: [{ address: A(100), note: 'VRFY disabled, good STARTTLS certificate, default DH, relay for 127.0.0.2 only' }],
  async start(ctx) {
    const root = ctx.dir('postfix');
    const etc = makeDir(join(root, 'etc'));
    const dh = join(root, 'dh1024.pem');
    ctx.run('openssl', ['dhparam', '-out', dh, '1024']);
    const cert = async (n: number, o: LeafOptions = {}) => {
      const pem = await leaf(A(n), o);
      return `-o smtpd_tls_cert_file=${ctx.write(join(etc, `${n}.crt`), pem.cert)} -o smtpd_tls_key_file=${ctx.write(join(etc, `${n}.key`), pem.key, 0o600)}`;
    };
    const smtpd = (n: number, opts: string) => `${A(n)}:25 inet n - n - - smtpd ${opts}`;
    ctx.write(
      join(etc, 'master.cf'),
      [
        smtpd(1, `${await cert(1)} -o disable_vrfy_command=no`),
        smtpd(2, await cert(2, { expiresInDays: 10 })),
        smtpd(
          3,
          `${await cert(3)} -o smtpd_tls_dh1024_param_file=${dh} -o tls_medium_cipherlist=DHE-RSA-AES128-GCM-SHA256:DHE-RSA-AES256-GCM-SHA384:ECDHE-RSA-AES128-GCM-SHA256:@SECLEVEL=0`,
        ),
        smtpd(4, `${await cert(4)} -o mynetworks=0.0.0.0/0`),
        smtpd(100, await cert(100)),
        SERVICES,
      ].join('\n'),
    );
    ctx.write(
      join(etc, 'main.cf'),
      `compatibility_level = 3.6
queue_directory = ${root}/spool
data_directory = ${root}/data
myhostname = mail.shop.example
mydomain = shop.example
mydestination = $myhostname, shop.example, localhost
inet_protocols = ipv4
inet_interfaces = ${[1, 2, 3, 4, 100].map(A).join(', ')}
mynetworks = 127.0.0.2/32
maillog_file = ${root}/maillog
maillog_file_prefixes = ${root}
alias_maps =
alias_database =
default_transport = discard:bench, nothing leaves
relay_transport = discard:bench, nothing leaves
smtpd_banner = $myhostname ESMTP
disable_vrfy_command = yes
smtpd_tls_security_level = may
# Postfix's opportunistic defaults still allow TLS 1.0/1.1 and anonymous (aNULL) suites; every address here says no,
# so that each carries only its planted weakness.
smtpd_tls_protocols = >=TLSv1.2
smtpd_tls_mandatory_protocols = >=TLSv1.2
smtpd_tls_exclude_ciphers = aNULL
smtpd_relay_restrictions = permit_mynetworks, reject_unauth_destination
smtpd_tls_loglevel = 0
shlib_directory = /usr/lib/postfix
`,
    );
    makeDir(join(root, 'data'), { uid: 110, gid: 112 });
    makeDir(join(root, 'spool')); // postfix-script makes the queue's subdirectories, not the queue itself
    const child = ctx.spawn('master', '/usr/sbin/postfix', ['-c', etc, 'start-fg']);
    // master calls setsid(), leaving the process group the fleet kills: stop it by its own pid file too.
    ctx.onStop(() => {
      try {
        process.kill(Number(readFileSync(join(root, 'spool/pid/master.pid'), 'utf8').trim()), 'SIGTERM');
      } catch {
        // not running
      }
    });
    for (const n of [1, 2, 3, 4, 100]) await ctx.waitTcp(A(n), 25, child, 20_000);
  },
};

export type { Ctx };
