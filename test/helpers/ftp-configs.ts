/**
 * The second and third FTP products, configured the way people do and the
 * hardened way, shared by the test (src/audit/checks/ftp/ftp-makes.test.ts)
 * and the detection bench (bench/detection/fleet/ftp-makes.ts) so that the
 * two plant the same thing: ProFTPD (Debian proftpd-basic, `proftpd -n`)
 * and Pure-FTPd (Debian pure-ftpd, run directly without the Debian wrapper,
 * in the foreground).
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** Path of `cmd` on PATH, or null. */
function onPath(cmd: string): string | null {
  try {
    return execFileSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' }).trim() || null;
  } catch {
    return null;
  }
}

export const PROFTPD = onPath('proftpd');
export const PUREFTPD = onPath('pure-ftpd');
/**
 * ProFTPD's modules beside its binary: /usr/lib/proftpd when installed, or under the root .ci/run unpacks
 * it to (proftpd-core conflicts with vsftpd as a package) and links into /usr/local/sbin.
 */
const MODULES = PROFTPD ? join(dirname(dirname(realpathSync(PROFTPD))), 'lib', 'proftpd') : '/usr/lib/proftpd';
/** mod_tls is in proftpd-mod-crypto, a package of its own: without it ProFTPD cannot require TLS. */
export const PROFTPD_TLS = existsSync(join(MODULES, 'mod_tls.so'));

/** How a server treats the user "anonymous": refused, read-only, or read with a writable incoming/. */
export type Anon = 'off' | 'read' | 'write';

export interface FtpPlan {
  address: string;
  port: number;
  /** A directory of the daemon's own (configuration, logs, the anonymous root). */
  dir: string;
  anon: Anon;
  /** AUTH TLS required before any login (certificate and key files), or no TLS at all. */
  tls?: { cert: string; key: string };
  /** ProFTPD only: LoadModule mod_copy.c (SITE CPFR/CPTO). */
  modCopy?: boolean;
  /**
   * ProFTPD only: logins only from this network (<Limit LOGIN>: a connection from elsewhere is closed before
   * the greeting), the hardening where mod_tls is missing (PROFTPD_TLS false).
   */
  loginsFrom?: string;
}

/** The anonymous root: a file to read, and incoming/ world-writable for 'write' (what admins do for drop boxes). */
function anonRoot(p: FtpPlan): string {
  const root = join(p.dir, 'anon');
  mkdirSync(join(root, 'pub'), { recursive: true, mode: 0o755 });
  writeFileSync(join(root, 'pub', 'README.txt'), 'Shop price lists.\n');
  // incoming/ world-writable, as admins make drop boxes (chmod: mkdir's mode is masked by the umask).
  if (p.anon === 'write') {
    mkdirSync(join(root, 'incoming'), { recursive: true });
    chmodSync(join(root, 'incoming'), 0o777);
  }
  return root;
}

/**
 * proftpd.conf for `proftpd -n -c FILE`: standalone on address:port only (SocketBindTight), state files in
 * `dir`, local logins allowed (PAM/unix), no IPv6. Anonymous: an <Anonymous> block (UserAlias anonymous ftp)
 * whose incoming/ allows STOR for 'write'. TLS: mod_tls with TLSRequired on (the twin). Debian's ProFTPD
 * builds mod_tls and mod_copy as modules (/usr/lib/proftpd), loaded only where asked.
 */
export function proftpdConf(p: FtpPlan): string {
  const lines = [
    'ServerType standalone',
    'ServerName "Shop FTP"',
    `DefaultAddress ${p.address}`,
    'SocketBindTight on',
    `Port ${p.port}`,
    'UseIPv6 off',
    'User nobody',
    'Group nogroup',
    `PidFile ${join(p.dir, 'proftpd.pid')}`,
    `ScoreboardFile ${join(p.dir, 'proftpd.scoreboard')}`,
    '<IfModule mod_delay.c>',
    `  DelayTable ${join(p.dir, 'proftpd.delay')}`,
    '</IfModule>',
    `SystemLog ${join(p.dir, 'proftpd.log')}`,
    'WtmpLog off',
    'TransferLog none',
    'UseReverseDNS off',
    '<IfModule mod_ident.c>',
    '  IdentLookups off',
    '</IfModule>',
    'RequireValidShell off',
    'MaxInstances 30',
    `ModulePath ${MODULES}`,
    ...(p.modCopy ? ['LoadModule mod_copy.c'] : []),
  ];
  if (p.tls)
    lines.push(
      'LoadModule mod_tls.c',
      'TLSEngine on',
      `TLSLog ${join(p.dir, 'tls.log')}`,
      'TLSProtocol TLSv1.2 TLSv1.3',
      `TLSRSACertificateFile ${p.tls.cert}`,
      `TLSRSACertificateKeyFile ${p.tls.key}`,
      'TLSRequired on',
      'TLSOptions NoSessionReuseRequired',
    );
  if (p.loginsFrom)
    lines.push('<Limit LOGIN>', '  Order allow,deny', `  Allow from ${p.loginsFrom}`, '  Deny from all', '</Limit>');
  if (p.anon !== 'off') {
    const root = anonRoot(p);
    lines.push(
      `<Anonymous ${root}>`,
      '  User ftp',
      '  Group nogroup',
      '  UserAlias anonymous ftp',
      '  RequireValidShell off',
      '  <Limit WRITE>',
      '    DenyAll',
      '  </Limit>',
      ...(p.anon === 'write'
        ? ['  <Directory incoming>', '    <Limit STOR DELE>', '      AllowAll', '    </Limit>', '  </Directory>']
        : []),
      '</Anonymous>',
    );
  }
  const file = join(p.dir, 'proftpd.conf');
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

/** The home directory of the system user ftp, Pure-FTPd's anonymous root (/srv/ftp on Debian). */
function ftpHome(): string {
  try {
    return execFileSync('getent', ['passwd', 'ftp'], { encoding: 'utf8' }).split(':')[5] ?? '/srv/ftp';
  } catch {
    return '/srv/ftp';
  }
}

/**
 * pure-ftpd's command: -S address,port; -E (no anonymous) for 'off'; else uploads allowed only for 'write'
 * (-i forbids them); TLS: --tls 2 (cleartext logins refused) with the certificate, else --tls 0. Pure-FTPd's
 * anonymous root is the home of the system user ftp, and Debian's build has no switch for it: the daemon
 * runs in a mount namespace of its own (unshare -m) where our anonymous root is bound over that home, so
 * the host's /srv/ftp is never touched.
 */
export function pureFtpdCommand(p: FtpPlan): [string, string[]] {
  const args = ['-S', `${p.address},${p.port}`, '-A', '-H', '-f', 'none', '-c', '30'];
  if (p.anon === 'off') args.push('-E');
  else if (p.anon === 'read') args.push('-i');
  if (p.tls) args.push('-Y', '2', '-2', `${p.tls.cert},${p.tls.key}`);
  else args.push('-Y', '0');
  if (p.anon === 'off') return [PUREFTPD ?? 'pure-ftpd', args];
  const script = `mount --bind ${anonRoot(p)} ${ftpHome()} && exec ${PUREFTPD ?? 'pure-ftpd'} ${args.join(' ')}`;
  return ['unshare', ['-m', 'sh', '-c', script]];
}
