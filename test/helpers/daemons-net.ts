/**
 * Weak and hardened twins of real Debian network daemons: Samba (smbd),
 * vsftpd, Postfix, snmpd, BIND. Each start function returns its port on `addr`.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { chmodSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { snmpMessage } from '../../src/audit/proto/snmp.ts';
import { daemon, onCleanup, stop, tempDir } from './daemons-kit.ts';

/** Puts addr/32 on lo for daemons that bind only interface addresses (Samba's "interfaces"); removed at the end. */
export function loAlias(addr: string): void {
  try {
    execFileSync('ip', ['addr', 'add', `${addr}/32`, 'dev', 'lo'], { stdio: 'pipe' });
    onCleanup(() => execFileSync('ip', ['addr', 'del', `${addr}/32`, 'dev', 'lo'], { stdio: 'pipe' }));
  } catch (e) {
    if (!/File exists|already assigned/.test(String((e as { stderr?: Buffer }).stderr ?? e))) throw e;
  }
}

/**
 * smbd with one share: weak = Debian's "map to guest = bad user", a "guest ok" share, SMB1 on,
 * signing left to its default (not required); hardened = no guest, signing mandatory, SMB2+ only.
 */
export function samba(addr: string, weak: boolean): Promise<number> {
  loAlias(addr);
  const dir = tempDir('smbd');
  // smbd starts samba-dcerpcd on demand (srvsvc), which leaves smbd's process group (setsid):
  // after the test, whatever still runs with our config file is stopped by its pid.
  onCleanup(() => killByArg(join(dir, 'smb.conf')));
  mkdirSync(join(dir, 'share'));
  writeFileSync(join(dir, 'share', 'payroll.xlsx'), 'planted\n');
  const global = (port: number) => [
    '[global]',
    'server role = standalone server',
    `interfaces = ${addr}/32`,
    'bind interfaces only = yes',
    `smb ports = ${port}`,
    'disable netbios = yes',
    ...['pid directory', 'lock directory', 'state directory', 'cache directory', 'private dir'].map(
      (k) => `${k} = ${dir}`,
    ),
    `ncalrpc dir = ${dir}/ncalrpc`,
    `log file = ${dir}/log`,
    ...(weak
      ? ['map to guest = bad user', 'server min protocol = NT1']
      : ['map to guest = never', 'restrict anonymous = 2', 'server signing = mandatory']),
  ];
  const share = weak
    ? ['[finance]', `path = ${dir}/share`, 'guest ok = yes', 'read only = yes']
    : ['[public]', `path = ${dir}/share`, 'valid users = backup', 'read only = yes'];
  return daemon(addr, 'smbd', (port) => {
    writeFileSync(join(dir, 'smb.conf'), [...global(port), ...share, ''].join('\n'));
    return ['--foreground', '--no-process-group', '-s', join(dir, 'smb.conf')];
  });
}

/** vsftpd with anonymous login; weak: an upload directory anonymous users may write to. */
export function vsftpdAnon(addr: string, writable: boolean): Promise<number> {
  const dir = tempDir('vsftpd');
  mkdirSync('/var/run/vsftpd/empty', { recursive: true });
  mkdirSync(join(dir, 'root', 'drop'), { recursive: true }); // not a usual name: found by NLST
  chmodSync(join(dir, 'root'), 0o555);
  // The upload directory belongs to the anonymous user (ftp) when writable, as vsftpd(8) asks.
  if (writable) execFileSync('chown', ['ftp', join(dir, 'root', 'drop')]);
  return daemon(addr, 'vsftpd', (port) => {
    const conf = join(dir, `vsftpd-${port}.conf`);
    writeFileSync(
      conf,
      [
        'listen=YES',
        'listen_ipv6=NO',
        `listen_address=${addr}`,
        `listen_port=${port}`,
        'anonymous_enable=YES',
        'local_enable=NO',
        'background=NO',
        `anon_root=${dir}/root`,
        'secure_chroot_dir=/var/run/vsftpd/empty',
        'seccomp_sandbox=NO',
        'pasv_enable=YES',
        `pasv_address=${addr}`,
        'pasv_min_port=30000',
        'pasv_max_port=60000',
        ...(writable
          ? ['write_enable=YES', 'anon_upload_enable=YES', 'anon_other_write_enable=YES', 'anon_umask=022']
          : ['write_enable=NO']),
        '',
      ].join('\n'),
    );
    return [conf];
  });
}

/**
 * snmpd on addr:161/udp: `rocommunity public`, and in the weak one `rwcommunity private` too; sysContact left
 * writable (not set in the file).
 */
export async function snmpd(addr: string, writable: boolean): Promise<void> {
  const dir = tempDir('snmpd');
  const conf = join(dir, 'snmpd.conf');
  writeFileSync(
    conf,
    [
      `agentAddress udp:${addr}:161`,
      'rocommunity public 127.0.0.0/8',
      ...(writable ? ['rwcommunity private 127.0.0.0/8'] : []),
      '',
    ].join('\n'),
  );
  const p = spawn('snmpd', ['-f', '-Lo', '-C', '-c', conf, '-p', join(dir, 'pid')], {
    stdio: 'ignore',
    detached: true,
    env: { ...process.env, SNMP_PERSISTENT_DIR: dir },
  });
  onCleanup(() => stop(p));
  // Ready when it answers a GetRequest for sysDescr.0 with "public".
  const get = snmpMessage('public', 0xa0, 1, [1, 3, 6, 1, 2, 1, 1, 1, 0], null);
  await answersUdp(p, 'snmpd', addr, 161, get);
}

/**
 * A Postfix instance of its own (master -d, config and queue in a temp dir) on addr:port; VRFY on or
 * disable_vrfy_command.
 */
export async function postfix(addr: string, vrfy: boolean): Promise<number> {
  loAlias(addr); // inet_interfaces must be an interface address
  const dir = tempDir('postfix');
  chmodSync(dir, 0o755); // the queue must be reachable by the postfix user
  const queue = join(dir, 'queue');
  const owned = [
    'private',
    'public',
    'incoming',
    'active',
    'deferred',
    'bounce',
    'defer',
    'trace',
    'flush',
    'saved',
    'hold',
    'corrupt',
    'maildrop',
  ];
  for (const d of ['pid', ...owned]) mkdirSync(join(queue, d), { recursive: true });
  mkdirSync(join(dir, 'data'));
  execFileSync('chown', ['postfix', join(dir, 'data'), ...owned.map((d) => join(queue, d))]);
  const services = [
    'pickup unix n - n 60 1 pickup',
    'cleanup unix n - n - 0 cleanup',
    'qmgr unix n - n 300 1 qmgr',
    'rewrite unix - - n - - trivial-rewrite',
    'bounce unix - - n - 0 bounce',
    'defer unix - - n - 0 bounce',
    'trace unix - - n - 0 bounce',
    'verify unix - - n - 1 verify',
    'proxymap unix - - n - - proxymap',
    'error unix - - n - - error',
    'local unix - n n - - local',
    'anvil unix - - n - 1 anvil',
    'scache unix - - n - 1 scache',
    'postlog unix-dgram n - n - 1 postlogd',
  ];
  return daemon(
    addr,
    '/usr/lib/postfix/sbin/master',
    (port) => {
      writeFileSync(join(dir, 'master.cf'), [`${addr}:${port} inet n - n - - smtpd`, ...services, ''].join('\n'));
      writeFileSync(
        join(dir, 'main.cf'),
        [
          'compatibility_level = 3.6',
          `queue_directory = ${queue}`,
          `data_directory = ${dir}/data`,
          'mail_owner = postfix',
          'myhostname = mail.example.test',
          'mydestination = mail.example.test, example.test, localhost',
          `inet_interfaces = ${addr}`,
          'inet_protocols = ipv4',
          'alias_maps =',
          'alias_database =',
          // Without syslog here: log to stdout (/dev/log is missing and master exits at its first log line).
          'maillog_file = /dev/stdout',
          `disable_vrfy_command = ${vrfy ? 'no' : 'yes'}`,
          '',
        ].join('\n'),
      );
      return ['-d', '-c', dir];
    },
    { env: { ...process.env, MAIL_CONFIG: dir } },
  );
}

/**
 * BIND authoritative for example.test and the reverse zone of `addr` (its PTR names ns1.example.test):
 * allow-transfer { any; } (weak) or { none; }.
 */
export function namedAuthoritative(
  addr: string,
  transfers: boolean,
  opts: { recursion?: boolean; update?: boolean } = {},
): Promise<number> {
  loAlias(addr); // named listens only on interface addresses
  const dir = tempDir('named');
  const last = addr.split('.').reverse();
  const rev = `${last.slice(1).join('.')}.in-addr.arpa`;
  const soa =
    '@ 3600 IN SOA ns1.example.test. hostmaster.example.test. 1 3600 600 86400 300\n@ IN NS ns1.example.test.\n';
  writeFileSync(
    join(dir, 'example.test.zone'),
    `$ORIGIN example.test.\n${soa}ns1 IN A ${addr}\nwww IN A ${addr}\nintranet IN A 10.1.2.3\nvpn IN A 10.1.2.4\n`,
  );
  writeFileSync(join(dir, 'rev.zone'), `$ORIGIN ${rev}.\n${soa}${last[0]} IN PTR ns1.example.test.\n`);
  return daemon(addr, 'named', (port) => {
    writeFileSync(
      join(dir, 'named.conf'),
      `
options { directory "${dir}"; pid-file "${dir}/named.pid"; session-keyfile "${dir}/session.key"; managed-keys-directory "${dir}";
  listen-on port ${port} { ${addr}; }; listen-on-v6 { none; }; dnssec-validation no;
  ${
    opts.recursion
      ? // Recursion for anyone, forwarded only to a loopback port nobody serves: it answers SERVFAIL with RA
        // set, as an open resolver without a way out does, and never sends a packet off loopback.
        'recursion yes; allow-recursion { any; }; allow-query-cache { any; }; forward only; forwarders { 127.0.0.9 port 9; };'
      : 'recursion no;'
  }
  allow-transfer { ${transfers ? 'any' : 'none'}; }; };
controls { };
zone "example.test" { type primary; file "${dir}/example.test.zone"; ${opts.update ? 'allow-update { any; };' : ''} };
zone "${rev}" { type primary; file "${dir}/rev.zone"; };
`,
    );
    return ['-g', '-c', join(dir, 'named.conf'), '-n', '1'];
  });
}

/**
 * tftpd-hpa on addr:69/udp (-L: foreground): weak serves a router config and accepts new files (--create);
 * hardened neither.
 */
export async function tftpd(addr: string, weak: boolean): Promise<void> {
  const dir = tempDir('tftpd');
  chmodSync(dir, weak ? 0o777 : 0o755);
  if (weak)
    writeFileSync(join(dir, 'startup-config'), 'hostname edge-router\nenable secret 5 $1$planted\n', { mode: 0o644 });
  const p = spawn('in.tftpd', ['-L', '-a', `${addr}:69`, '-s', dir, '-u', 'root', ...(weak ? ['-c'] : [])], {
    stdio: 'ignore',
    detached: true,
  });
  onCleanup(() => stop(p));
  // Ready when it answers an RRQ (with DATA or an ERROR packet).
  const rrq = Buffer.from('\0\x01nothing-here\0octet\0', 'latin1');
  await answersUdp(p, 'in.tftpd', addr, 69, rrq);
}

/** SIGTERM to the processes whose command line holds `arg` (a path only our test made). */
function killByArg(arg: string): void {
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(arg)) process.kill(Number(pid), 'SIGTERM');
    } catch {
      // gone already
    }
  }
}

/** Waits (≤ 20 s) until a UDP daemon answers `probe` on addr:port; throws if it exits or never does. */
async function answersUdp(p: ChildProcess, name: string, addr: string, port: number, probe: Buffer): Promise<void> {
  for (let i = 0; i < 200 && p.exitCode === null; i++) {
    const ok = await new Promise<boolean>((res) => {
      const s = createSocket('udp4');
      const t = setTimeout(() => (s.close(), res(false)), 100);
      s.on('message', () => (clearTimeout(t), s.close(), res(true)));
      s.on('error', () => (clearTimeout(t), s.close(), res(false)));
      s.send(probe, port, addr);
    });
    if (ok) return;
  }
  throw new Error(`${name} did not start on ${addr}:${port} (exit ${p.exitCode})`);
}
