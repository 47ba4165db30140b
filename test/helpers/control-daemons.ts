/**
 * Configurations of the daemons with a control channel that the tests
 * (src/audit/checks/control/*.test.ts) and the detection bench
 * (bench/detection/fleet/control-*.ts) both start: one place, so that the
 * bench plants what the tests checked. Writes files only (and runs
 * `tor --hash-password` and `unbound-control-setup` for a secret and keys); the callers
 * start the daemons their own way. Nothing here reaches past loopback:
 * Tor runs with DisableNetwork, OpenVPN with no remote, chronyd with no
 * source and no NTP port, Unbound with no query sent to it.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const write = (path: string, text: string, mode = 0o644) => (writeFileSync(path, text, { mode }), path);

/** A password (not a secret: loopback test daemons) for the hardened twins. */
export const CONTROL_PASSWORD = 'vigil-test-not-a-secret';

/** Tor's `--hash-password` output, the HashedControlPassword value (its last line; Tor may log before it). */
export function torHash(tor: string, password = CONTROL_PASSWORD): string {
  const out = execFileSync(tor, ['--quiet', '--hash-password', password], { encoding: 'utf8' });
  const hash = /^16:[0-9A-F]+$/m.exec(out)?.[0];
  if (!hash) throw new Error(`tor --hash-password printed no hash: ${out.slice(-200)}`);
  return hash;
}

/**
 * torrc for a Tor with its network off (DisableNetwork: no directory fetch, no circuit, no listener but
 * the ControlPort) and the ControlPort on `address:port`: no authentication, a hashed password, or a cookie.
 */
export function torrc(dir: string, address: string, port: number, auth: 'none' | { hash: string } | 'cookie'): string {
  const data = join(dir, 'data');
  mkdirSync(data, { recursive: true, mode: 0o700 });
  const lines = [
    `DataDirectory ${data}`,
    'DisableNetwork 1',
    'SocksPort 0',
    'ClientOnly 1',
    'AvoidDiskWrites 1',
    'Log notice stderr',
    `ControlPort ${address}:${port}`,
  ];
  if (auth === 'cookie') lines.push('CookieAuthentication 1', `CookieAuthFile ${join(dir, 'control_auth_cookie')}`);
  else if (auth !== 'none') lines.push(`HashedControlPassword ${auth.hash}`);
  write(join(dir, 'defaults-torrc'), '');
  return write(join(dir, 'torrc'), `${lines.join('\n')}\n`);
}

/** tor's arguments for that torrc (an empty defaults file: Debian's service defaults are not ours). */
export const torArgs = (dir: string) => ['--defaults-torrc', join(dir, 'defaults-torrc'), '-f', join(dir, 'torrc')];

/**
 * openvpn's arguments: a peer-to-peer instance on the null device (`--dev null`, no tun, no route, nothing
 * sent: no remote) listening on UDP `address:udpPort`, its management interface on TCP `address:port`,
 * with or without a password file.
 */
export function openvpnArgs(dir: string, address: string, port: number, udpPort: number, password: boolean): string[] {
  const management = ['--management', address, String(port)];
  if (password) management.push(write(join(dir, 'management-pw'), `${CONTROL_PASSWORD}\n`, 0o600));
  return [
    '--dev',
    'null',
    '--local',
    address,
    '--lport',
    String(udpPort),
    '--proto',
    'udp',
    '--ifconfig-noexec',
    '--route-noexec',
    '--verb',
    '3',
    ...management,
  ];
}

/**
 * haproxy.cfg with the runtime API on TCP `address:port` at level admin or user, or (the hardened twin) on a
 * Unix socket in `dir` with a TCP listener on `address:port` that closes every connection (no backend).
 */
export function haproxyRuntimeConf(dir: string, address: string, port: number, api: 'admin' | 'user' | 'unix'): string {
  const global = [
    'global',
    api === 'unix'
      ? `  stats socket ${join(dir, 'admin.sock')} mode 600 level admin`
      : `  stats socket ipv4@${address}:${port} level ${api}`,
    `  pidfile ${join(dir, 'haproxy.pid')}`,
    'defaults',
    '  mode tcp',
    '  timeout connect 2s',
    '  timeout client 5s',
    '  timeout server 5s',
  ];
  const twin = ['frontend closed', `  bind ${address}:${port}`, '  tcp-request connection reject'];
  return write(join(dir, 'haproxy.cfg'), `${[...global, ...(api === 'unix' ? twin : [])].join('\n')}\n`);
}

/** Unbound's control keys as its users make them: unbound-control-setup (self-signed "unbound", RSA 3072, 7200 days). */
function unboundKeys(dir: string): { key: string; cert: string } {
  execFileSync('unbound-control-setup', ['-d', dir], { stdio: 'pipe' });
  return { key: join(dir, 'unbound_server.key'), cert: join(dir, 'unbound_server.pem') };
}

/**
 * unbound.conf: the resolver on `address:dnsPort` refusing everyone (no recursion to test), its remote control on
 * `address:port` in plaintext (control-use-cert: no) or behind TLS with client certificates (the default).
 */
export function unboundConf(dir: string, address: string, port: number, dnsPort: number, cert: boolean): string {
  const control = [
    'remote-control:',
    '  control-enable: yes',
    `  control-interface: ${address}`,
    `  control-port: ${port}`,
  ];
  if (cert) {
    const { key, cert: pem } = unboundKeys(dir);
    control.push('  control-use-cert: yes', `  server-key-file: "${key}"`, `  server-cert-file: "${pem}"`);
  } else control.push('  control-use-cert: no');
  const server = [
    'server:',
    `  interface: ${address}`,
    `  port: ${dnsPort}`,
    '  do-ip6: no',
    '  do-daemonize: no',
    '  use-syslog: no',
    '  logfile: ""',
    '  chroot: ""',
    '  username: ""',
    `  directory: "${dir}"`,
    `  pidfile: "${join(dir, 'unbound.pid')}"`,
    '  access-control: 0.0.0.0/0 refuse',
    '  module-config: "iterator"',
    '  num-threads: 1',
  ];
  return write(join(dir, 'unbound.conf'), `${[...server, ...control].join('\n')}\n`);
}

/**
 * chrony.conf: no time source, no NTP port (port 0), the command port on UDP `address:port` and a Unix socket in
 * `dir`; `cmdallow all` on the weak one. Run with -x (the clock is not touched) and -u root.
 */
export function chronyConf(dir: string, address: string, port: number, open: boolean): string {
  // chronyd disables its Unix socket unless the directory is its owner's alone ("Wrong permissions").
  mkdirSync(join(dir, 'run'), { recursive: true });
  chmodSync(join(dir, 'run'), 0o700);
  return write(
    join(dir, 'chrony.conf'),
    [
      'port 0',
      `cmdport ${port}`,
      `bindcmdaddress ${address}`,
      `bindcmdaddress ${chronySocket(dir)}`,
      `pidfile ${join(dir, 'chronyd.pid')}`,
      'local stratum 10',
      ...(open ? ['cmdallow all'] : []),
      '',
    ].join('\n'),
  );
}

/** chronyd's Unix command socket for that configuration: it exists once the command sockets are bound. */
export const chronySocket = (dir: string) => join(dir, 'run', 'chronyd.sock');

/** chronyd's arguments: in the foreground with its log on stderr (-d), the clock left alone (-x), as root. */
export const chronyArgs = (conf: string) => ['-d', '-x', '-u', 'root', '-f', conf];
