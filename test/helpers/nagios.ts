/**
 * Debian nagios4 for the web login tests and the detection bench: a Nagios
 * Core daemon of our own (its objects from Debian's /etc/nagios4/objects,
 * status and caches in a directory of ours) and the Apache configuration
 * Debian ships (/etc/nagios4/apache2.conf) in two forms: as shipped
 * (use_authentication=0, open to private addresses, cmd.cgi included),
 * and secured as its own comments say (the Digest stanza moved into the
 * <DirectoryMatch>, use_authentication=1, users in an htdigest file).
 * The CGIs find our cgi.cfg through NAGIOS_CGI_CONFIG (cgiutils.c).
 */
import { createHash } from 'node:crypto';
import { chmodSync, chownSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

export const NAGIOS = '/usr/sbin/nagios4';
export const NAGIOS_APACHE = '/etc/nagios4/apache2.conf';
const OBJECTS = [
  // The plugins' command definitions (check_http, check_ping …) that localhost.cfg names.
  ...(existsSync('/etc/nagios-plugins/config') ? ['cfg_dir=/etc/nagios-plugins/config'] : []),
  ...['commands', 'contacts', 'timeperiods', 'templates', 'localhost'].map(
    (o) => `cfg_file=/etc/nagios4/objects/${o}.cfg`,
  ),
];

/** htdigest's line: user:realm:MD5(user:realm:password). */
export const htdigest = (user: string, realm: string, password: string) =>
  `${user}:${realm}:${createHash('md5').update(`${user}:${realm}:${password}`).digest('hex')}\n`;

/**
 * nagios.cfg in `dir` (given to the nagios user, which the daemon drops to); returns the daemon's arguments,
 * its status file, and a writer of cgi.cfg files: `auth` sets use_authentication=1 (the CGIs then trust
 * Apache's REMOTE_USER).
 */
export function nagiosConfig(dir: string): { args: string[]; cgiCfg: (auth: boolean) => string; status: string } {
  for (const d of ['spool', 'rw']) mkdirSync(join(dir, d), { recursive: true });
  const main = join(dir, 'nagios.cfg');
  const status = join(dir, 'status.dat');
  writeFileSync(
    main,
    [
      `log_file=${dir}/nagios.log`,
      ...OBJECTS,
      `object_cache_file=${dir}/objects.cache`,
      `precached_object_file=${dir}/objects.precache`,
      'resource_file=/etc/nagios4/resource.cfg',
      `status_file=${status}`,
      'status_update_interval=5',
      'nagios_user=nagios',
      'nagios_group=nagios',
      'check_external_commands=0',
      `command_file=${dir}/rw/nagios.cmd`,
      `query_socket=${dir}/rw/nagios.qh`,
      `lock_file=${dir}/nagios.pid`,
      `temp_file=${dir}/nagios.tmp`,
      `temp_path=${dir}`,
      `check_result_path=${dir}/spool`,
      `state_retention_file=${dir}/retention.dat`,
      'retain_state_information=0',
      'use_syslog=0',
      // No checks run: the status page has hosts and services (PENDING) without running any plugin.
      'execute_service_checks=0',
      'execute_host_checks=0',
      'enable_notifications=0',
      'illegal_macro_output_chars=`~$&|\'"<>',
      '',
    ].join('\n'),
  );
  const cgiCfg = (auth: boolean) => {
    const path = join(dir, `cgi-${auth ? 'auth' : 'open'}.cfg`);
    writeFileSync(
      path,
      readFileSync('/etc/nagios4/cgi.cfg', 'utf8')
        .replace(/^main_config_file=.*$/m, `main_config_file=${main}`)
        .replace(/^use_authentication=.*$/m, `use_authentication=${auth ? 1 : 0}`),
    );
    return path;
  };
  const { uid, gid } = nagiosUser();
  for (const p of [dir, join(dir, 'spool'), join(dir, 'rw')]) {
    chownSync(p, uid, gid);
    chmodSync(p, 0o755);
  }
  return { args: [main], cgiCfg, status };
}

function nagiosUser(): { uid: number; gid: number } {
  const line = execFileSync('getent', ['passwd', 'nagios'], { encoding: 'utf8' }).split(':');
  return { uid: Number(line[2]), gid: Number(line[3]) };
}

/** True once the daemon has written its status file (the CGIs show nothing before). */
export const nagiosReady = (status: string) => existsSync(status);

/**
 * Debian's Apache configuration for nagios4, pointed at our cgi.cfg and htdigest file; with `digest`, secured
 * as its comments say: the <Files "cmd.cgi"> stanza's Digest lines moved into the <DirectoryMatch> in place of
 * `Require ip …`, with `Require valid-user`.
 */
export function nagiosApache(cgiCfg: string, users: string, digest: boolean): string {
  const shipped = readFileSync(NAGIOS_APACHE, 'utf8').replaceAll('/etc/nagios4/htdigest.users', users);
  const modules = ['cgi', 'env', 'auth_digest', 'authz_groupfile']
    .map((m) => `LoadModule ${m}_module /usr/lib/apache2/modules/mod_${m}.so`)
    .join('\n');
  const secured = digest
    ? shipped
        .replace(/\s*<Files "cmd.cgi">[\s\S]*?<\/Files>/, '')
        .replace(
          /^\s*Require ip\s.*$/m,
          `    AuthDigestDomain "Nagios4"\n    AuthDigestProvider file\n    AuthUserFile "${users}"\n    AuthName "Nagios4"\n    AuthType Digest\n    Require valid-user`,
        )
    : shipped;
  return `${modules}\nSetEnv NAGIOS_CGI_CONFIG ${cgiCfg}\n${secured}`;
}
