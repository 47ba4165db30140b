/**
 * Exim and OpenSMTPD, the MTAs beside Postfix, as the mail tests and the
 * detection fleet (bench/detection/fleet/exim.ts, opensmtpd.ts) run them.
 * Both are unpacked, not installed (they conflict with postfix: .ci/run's
 * EXTRACT), so no postinst made their users: `mtaUsers()` adds them.
 *
 * Nothing leaves: the checks never send DATA; Exim queues only
 * (queue_only, no queue runner) and has no router but local users;
 * OpenSMTPD's relay action points at a dead loopback port.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const firstOf = (...paths: string[]) => paths.find((p) => existsSync(p)) ?? null;
export const EXIM = firstOf('/usr/local/sbin/exim4', '/usr/sbin/exim4');
export const OPENSMTPD = firstOf('/usr/local/sbin/smtpd', '/usr/sbin/smtpd');
export const UNSHARE = firstOf('/usr/bin/unshare');

const has = (user: string) => {
  try {
    execFileSync('id', ['-u', user], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};

/**
 * The users Debian's builds name at compile time (exim4: EXIM_USER
 * Debian-exim, looked up before the configuration is read; OpenSMTPD:
 * opensmtpd and opensmtpq, whose home is the chroot of its unprivileged
 * processes), made as the packages' postinst would: system users, no
 * login. Another test may make them at the same moment: a failed useradd
 * is fine when the user exists after it.
 */
export function mtaUsers(): void {
  const home = '/var/lib/opensmtpd/empty';
  mkdirSync(home, { recursive: true, mode: 0o755 });
  for (const [user, dir] of [
    ['Debian-exim', '/nonexistent'],
    ['opensmtpd', home],
    ['opensmtpq', home],
  ] as const) {
    if (has(user)) continue;
    try {
      execFileSync('useradd', ['-r', '-U', '-M', '-d', dir, '-s', '/usr/sbin/nologin', user], { stdio: 'ignore' });
    } catch (e) {
      if (!has(user)) throw e;
    }
  }
}

export interface EximOptions {
  /** hostlist relay_from_hosts = * (an open relay); else 127.0.0.2, a host no scanner here uses. */
  relay?: boolean;
  vrfy?: boolean;
  expn?: boolean;
  /** AUTH PLAIN offered to anyone, before any TLS; else only once TLS is up (Exim's documented idiom). */
  authCleartext?: boolean;
  /** STARTTLS with this certificate and key; none: no TLS at all. */
  tls?: { cert: string; key: string };
  /** The name the greeting announces (primary_hostname). */
  hostname?: string;
}

/**
 * An Exim runtime configuration modelled on Debian's default
 * (exim4-config's acl_check_rcpt: relay only for relay_from_hosts or
 * authenticated clients, local domains only for known recipients; VRFY and
 * EXPN without an ACL, which Exim refuses), each option opening one hole.
 */
export function eximConfig(dir: string, o: EximOptions = {}): string {
  const host = o.hostname ?? 'mail.shop.example';
  return `primary_hostname = ${host}
exim_user = Debian-exim
exim_group = Debian-exim
keep_environment =
spool_directory = ${dir}/spool
log_file_path = ${dir}/log/%slog
pid_file_path = ${dir}/exim.pid
domainlist local_domains = @ : shop.example
hostlist relay_from_hosts = ${o.relay ? '*' : '127.0.0.2'}
acl_smtp_rcpt = acl_check_rcpt
${o.vrfy ? 'acl_smtp_vrfy = accept' : ''}
${o.expn ? 'acl_smtp_expn = accept' : ''}
queue_only = true
host_lookup =
rfc1413_hosts =
tls_advertise_hosts = ${o.tls ? '*' : ''}
${o.tls ? `tls_certificate = ${o.tls.cert}\ntls_privatekey = ${o.tls.key}\ntls_require_ciphers = NORMAL:-VERS-ALL:+VERS-TLS1.3:+VERS-TLS1.2:-CIPHER-ALL:+AES-256-GCM:+AES-128-GCM:+CHACHA20-POLY1305` : ''}
auth_advertise_hosts = ${o.authCleartext ? '*' : '${if eq{$tls_in_cipher}{}{}{*}}'}

begin acl
acl_check_rcpt:
  accept hosts = :
  deny domains = +local_domains
       local_parts = ^[.] : ^.*[@%!/|]
  accept hosts = +relay_from_hosts
  accept authenticated = *
  require message = relay not permitted
          domains = +local_domains
  require verify = recipient
  accept

begin routers
system_aliases:
  driver = redirect
  data = \${lookup{$local_part}lsearch{${dir}/aliases}}
localuser:
  driver = accept
  check_local_user
  transport = local_delivery

begin transports
local_delivery:
  driver = appendfile
  file = ${dir}/mail/$local_part_data

begin authenticators
PLAIN:
  driver = plaintext
  public_name = PLAIN
  server_prompts = :
  server_condition = false
`;
}

/** The spool and log directories Exim needs, owned by its user, and Debian's alias (postmaster: root). */
export function eximDirs(dir: string): void {
  for (const d of ['spool', 'log', 'mail']) mkdirSync(join(dir, d), { recursive: true, mode: 0o755 });
  chmodSync(dir, 0o755);
  writeFileSync(join(dir, 'aliases'), 'postmaster: root\n');
  execFileSync('chown', ['-R', 'Debian-exim:Debian-exim', join(dir, 'spool'), join(dir, 'log')]);
}

/**
 * Exim in the foreground (-bdf) on address:port. `-C` names a configuration
 * that is not in TRUSTED_CONFIG_LIST, so Exim gives up root for the daemon
 * (it runs as Debian-exim: measured, 4.96), which is all it needs here: it
 * binds before that, and nothing is ever delivered. -odq: a message is
 * only queued, never delivered at once.
 */
export const eximArgs = (conf: string, address: string, port: number) => [
  '-bdf',
  '-oX',
  `${address}:${port}`,
  '-C',
  conf,
  '-odq',
];

/**
 * OpenSMTPD's spool (/var/spool/smtpd) and control socket (/run/smtpd.sock)
 * are fixed at build time, and a second smtpd refuses to start while one is
 * running. Each instance gets a mount namespace of its own (unshare -m)
 * with fresh tmpfs on /var/spool and /run: instances never meet, and the
 * host's directories are not touched.
 */
export function opensmtpdCommand(conf: string): { cmd: string; args: string[] } {
  const script =
    'mount -t tmpfs -o mode=755 vigil-spool /var/spool && mkdir -m 711 /var/spool/smtpd && ' +
    'mount -t tmpfs -o mode=755 vigil-run /run && exec "$0" -d -f "$1"';
  return { cmd: UNSHARE!, args: ['-m', '--propagation', 'private', 'sh', '-c', script, OPENSMTPD!, conf] };
}

export interface SmtpdListener {
  address: string;
  port: number;
  /** Relays for any client (`match from any for any action "relay"`). */
  relay?: boolean;
  /**
   * STARTTLS with AUTH offered only after it (`tls pki … auth-optional`: a port-25 server, mail from
   * unauthenticated clients still taken for local users); OpenSMTPD refuses `auth` without tls.
   */
  tls?: { cert: string; key: string };
}

/**
 * smtpd.conf modelled on Debian's (local delivery for the local domain,
 * relaying for local clients only, here 127.0.0.2 since every scanner here
 * connects from 127.0.0.1): a listener with `relay` opens it to anyone.
 */
export function opensmtpdConfig(dir: string, listeners: SmtpdListener[]): string {
  writeFileSync(join(dir, 'aliases'), 'postmaster: root\n');
  const lines = [`table aliases file:${dir}/aliases`, 'table domains { shop.example, mail.shop.example }'];
  listeners.forEach((l, i) => {
    if (l.tls) lines.push(`pki p${i} cert "${l.tls.cert}"`, `pki p${i} key "${l.tls.key}"`);
    const tls = l.tls ? ` tls pki p${i} auth-optional` : '';
    lines.push(`listen on ${l.address} port ${l.port} hostname mail.shop.example${tls} tag L${i}`);
  });
  lines.push(
    'action "local" mbox alias <aliases>',
    // Should a message ever be accepted for relaying, its only way out is a closed loopback port.
    'action "relay" relay host smtp://127.0.0.1:9',
    'match from any for domain <domains> action "local"',
    ...listeners.flatMap((l, i) => (l.relay ? [`match from any tag L${i} for any action "relay"`] : [])),
    'match from src 127.0.0.2 for any action "relay"',
    '',
  );
  return lines.join('\n');
}
