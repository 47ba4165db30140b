/**
 * Real Debian FTP, mail, directory and database daemons for the cleartext
 * and STARTTLS tests (vsftpd, dovecot, slapd, PostgreSQL, postfix), on
 * 127.0.62.x like the web daemons (web-daemons.ts holds the shared start,
 * stop and certificate helpers).
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { accepts, binary, daemon, onCleanup, tempDir } from './web-daemons.ts';

export const VSFTPD = binary('/usr/sbin/vsftpd');

/** vsftpd in the foreground; `lines` are added to a minimal configuration (vsftpd.conf(5)). */
export async function vsftpd(addr: string, lines: string[]): Promise<number> {
  const dir = tempDir('vsftpd');
  mkdirSync('/var/run/vsftpd/empty', { recursive: true });
  return daemon(addr, (port) => {
    const conf = join(dir, `vsftpd-${port}.conf`);
    writeFileSync(
      conf,
      [
        `listen=YES`,
        `listen_ipv6=NO`,
        `listen_address=${addr}`,
        `listen_port=${port}`,
        `background=NO`,
        'anonymous_enable=NO',
        `secure_chroot_dir=/var/run/vsftpd/empty`,
        `seccomp_sandbox=NO`,
        `pam_service_name=vsftpd`,
        ...lines,
        '',
      ].join('\n'),
    );
    return { cmd: VSFTPD!, args: [conf] };
  });
}

export const DOVECOT = binary('/usr/sbin/dovecot');

/**
 * dovecot in the foreground with IMAP and POP3 on two free ports; `conf` is appended (static passdb, no real
 * mailbox).
 */
export async function dovecot(addr: string, conf: string): Promise<{ imap: number; pop3: number }> {
  const dir = tempDir('dovecot');
  for (const d of ['run', 'state', 'home']) mkdirSync(join(dir, d));
  let pop3 = 0;
  const imap = await daemon(addr, (port) => {
    const cfg = join(dir, 'dovecot.conf');
    pop3 = port + 1 < 65535 ? port + 1 : port - 1;
    writeFileSync(
      cfg,
      `
base_dir = ${dir}/run
state_dir = ${dir}/state
log_path = ${dir}/dovecot.log
protocols = imap pop3
listen = ${addr}
auth_mechanisms = plain login
passdb {
  driver = static
  args = password=not-used-${port}
}
userdb {
  driver = static
  args = uid=nobody gid=nogroup home=${dir}/home
}
service imap-login {
  inet_listener imap {
    port = ${port}
  }
  inet_listener imaps {
    port = 0
  }
}
service pop3-login {
  inet_listener pop3 {
    port = ${pop3}
  }
  inet_listener pop3s {
    port = 0
  }
}
service anvil {
  chroot =
}
${conf}
`,
    );
    return { cmd: DOVECOT!, args: ['-F', '-c', cfg], log: `${dir}/dovecot.log` };
  });
  for (let i = 0; i < 100 && !(await accepts(addr, pop3)); i++) await new Promise((r) => setTimeout(r, 50));
  return { imap, pop3 };
}

export const SLAPD = binary('/usr/sbin/slapd');

/** slapd in the foreground (-d 0) with one empty mdb database; `tls` lines go to slapd.conf. */
export async function slapd(addr: string, tls: string[]): Promise<number> {
  const dir = tempDir('slapd');
  mkdirSync(join(dir, 'db'));
  writeFileSync(
    join(dir, 'slapd.conf'),
    [
      'include /etc/ldap/schema/core.schema',
      `pidfile ${dir}/slapd.pid`,
      'modulepath /usr/lib/ldap',
      'moduleload back_mdb',
      ...tls,
      'database mdb',
      'suffix "dc=vigil,dc=test"',
      `directory ${dir}/db`,
      '',
    ].join('\n'),
  );
  return daemon(addr, (port) => ({
    cmd: SLAPD!,
    args: ['-d', '0', '-h', `ldap://${addr}:${port}/`, '-f', join(dir, 'slapd.conf')],
  }));
}

export const PG_BIN =
  ['/usr/lib/postgresql/16/bin', '/usr/lib/postgresql/15/bin'].find((d) => existsSync(`${d}/postgres`)) ?? null;

/** A throw-away PostgreSQL cluster (initdb as the postgres user when root) with `settings` (-c name=value). */
export async function postgres(
  addr: string,
  settings: Record<string, string>,
  files: Record<string, string> = {},
  env?: NodeJS.ProcessEnv,
): Promise<number> {
  const dir = tempDir('pg');
  const data = join(dir, 'data');
  const root = process.getuid?.() === 0;
  const as = root
    ? {
        uid: Number(execFileSync('id', ['-u', 'postgres']).toString()),
        gid: Number(execFileSync('id', ['-g', 'postgres']).toString()),
      }
    : {};
  for (const [name, from] of Object.entries(files)) {
    writeFileSync(join(dir, name), readFileSync(from));
    chmodSync(join(dir, name), 0o600); // postgres refuses a key readable by others
  }
  if (root) execFileSync('chown', ['-R', 'postgres:postgres', dir]);
  execFileSync(`${PG_BIN}/initdb`, ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync'], {
    stdio: 'ignore',
    ...as,
  });
  return daemon(addr, (port) => ({
    cmd: `${PG_BIN}/postgres`,
    args: [
      '-D',
      data,
      '-c',
      `listen_addresses=${addr}`,
      '-c',
      `port=${port}`,
      '-c',
      `unix_socket_directories=${dir}`,
      ...Object.entries(settings).flatMap(([k, v]) => ['-c', `${k}=${v.replaceAll('$DIR', dir)}`]),
    ],
    env: { ...process.env, ...env },
    ...as,
  }));
}

export const POSTFIX = binary('/usr/sbin/postfix');

/**
 * Postfix with its own configuration directory, smtpd on addr:port, run by
 * `postfix start-fg` (root only: master and its children change users).
 * Postfix insists that inet_interfaces be an address of an interface, so
 * the /32 is added to lo (all of 127/8 is routed there, but not "on" it).
 */
export async function postfix(addr: string, main: string[]): Promise<number> {
  execFileSync('sh', ['-c', `ip addr show dev lo | grep -q 'inet ${addr}/' || ip addr add ${addr}/32 dev lo`]);
  const dir = tempDir('postfix');
  mkdirSync(join(dir, 'queue'));
  mkdirSync(join(dir, 'data'));
  execFileSync('chown', ['postfix', join(dir, 'data')]);
  // `postfix start-fg` runs `master -s` (not exec'd, unless PID 1: postfix-script),
  // and master -s makes itself a session leader: stopping the script's process
  // group leaves it running (seen: masters outliving the test run). Stop it as
  // postfix does; this runs before the group is signalled.
  onCleanup(() => execFileSync(POSTFIX!, ['-c', dir, 'abort'], { stdio: 'ignore' }));
  return daemon(addr, (port) => {
    writeFileSync(
      join(dir, 'main.cf'),
      [
        'compatibility_level = 3.6',
        `queue_directory = ${dir}/queue`,
        `data_directory = ${dir}/data`,
        'mail_owner = postfix',
        'myhostname = mail.vigil.test',
        `inet_interfaces = ${addr}`,
        'inet_protocols = ipv4',
        `maillog_file = ${dir}/maillog`,
        `maillog_file_prefixes = ${dir}`,
        'smtpd_tls_session_cache_database =',
        ...main.map((l) => l.replaceAll('$DIR', dir)),
        '',
      ].join('\n'),
    );
    // Debian's master.cf without chroot (the certificates live outside the queue directory) and smtpd on our address.
    const services = [
      `${addr}:${port} inet n - n - - smtpd`,
      'cleanup unix n - n - 0 cleanup',
      'qmgr unix n - n 300 1 qmgr',
      'tlsmgr unix - - n 1000? 1 tlsmgr',
      'rewrite unix - - n - - trivial-rewrite',
      'bounce unix - - n - 0 bounce',
      'defer unix - - n - 0 bounce',
      'trace unix - - n - 0 bounce',
      'verify unix - - n - 1 verify',
      'flush unix n - n 1000? 0 flush',
      'proxymap unix - - n - - proxymap',
      'anvil unix - - n - 1 anvil',
      'scache unix - - n - 1 scache',
      'postlog unix-dgram n - n - 1 postlogd',
      'showq unix n - n - - showq',
      'error unix - - n - - error',
      'retry unix - - n - - error',
      'discard unix - - n - - discard',
      'local unix - n n - - local',
      'smtp unix - - n - - smtp',
      'relay unix - - n - - smtp',
    ];
    writeFileSync(join(dir, 'master.cf'), `${services.join('\n')}\n`);
    return { cmd: POSTFIX!, args: ['-c', dir, 'start-fg'], log: `${dir}/maillog` };
  });
}
