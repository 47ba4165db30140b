/**
 * Legacy Unix services the way a host runs them, in the foreground, for the
 * tests and the detection bench alike: OpenBSD inetd (Debian
 * openbsd-inetd) with a configuration of its own, in a private mount
 * namespace (unshare -m) so that the files it and its servers read —
 * /root/.rhosts, /etc/hosts.allow, /etc/hosts.deny —
 * can be planted for this one process tree without touching the host's.
 * Root only (namespaces, ports below 1024, the r-services' privileged
 * client ports).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface InetdPlan {
  /** inetd.conf lines ("ADDR:PORT stream tcp nowait root /usr/sbin/in.rshd in.rshd", "ADDR:echo dgram udp wait root internal"). */
  lines: string[];
  /** Files planted over the host's inside the namespace (/root is a fresh tmpfs there when a /root/ file is named). */
  files?: Record<string, string>;
  /** libwrap for every external service (inetd -l): with hosts.deny "ALL: ALL" the connection is accepted and closed. */
  wrap?: boolean;
}

/** The command (unshare …) running inetd as the plan says; `dir` holds its files. */
export function inetdCommand(dir: string, plan: InetdPlan): { cmd: string; args: string[] } {
  const conf = join(dir, 'inetd.conf');
  writeFileSync(conf, `${plan.lines.join('\n')}\n`);
  const script = ['set -e', ...planted(dir, plan.files ?? {})];
  script.push(`exec /usr/sbin/inetd -i${plan.wrap ? ' -l' : ''} ${conf}`);
  return { cmd: 'unshare', args: ['-m', '--propagation', 'private', 'sh', '-c', script.join('\n')] };
}

/** Shell lines planting `files` over the host's, inside a private mount namespace. */
function planted(dir: string, files: Record<string, string>): string[] {
  const lines: string[] = [];
  if (Object.keys(files).some((f) => f.startsWith('/root/'))) lines.push('mount -t tmpfs -o mode=0700 none /root');
  Object.entries(files).forEach(([target, text], i) => {
    const src = join(dir, `planted-${i}`);
    writeFileSync(src, text, { mode: 0o600 });
    // /root is a tmpfs of our own: copy there; elsewhere (/etc) bind a file over the host's (a bind needs the
    // file to exist: a missing one fails the start rather than be created on the host).
    if (target.startsWith('/root/')) lines.push(`cp ${src} ${target}`, `chmod 600 ${target}`);
    else lines.push(`mount --bind ${src} ${target}`);
  });
  return lines;
}

/** hosts.allow/hosts.deny refusing every wrapped service to everyone. */
export const DENY_ALL = { '/etc/hosts.allow': '', '/etc/hosts.deny': 'ALL: ALL\n' };

/**
 * A network namespace of its own (unshare -n -m: its own loopback, its own
 * /run), for daemons that bind every address or a fixed path (rpcbind:
 * TCP 0.0.0.0:111 and [::]:111 whatever -h says, /run/rpcbind.sock), or
 * that refuse clients from 127/8 (OpenBSD inetd answers no UDP small
 * service from a loopback source, an anti-loop rule): inside, its `lo`
 * also carries NS_ADDR (TEST-NET-1, RFC 5737), which exists in that
 * namespace alone and so never reaches a network. Each port inside is
 * offered as a Unix socket in `dir` (socat); `forward` relays a port of a
 * 127.x address of the host to it, so clients stay on loopback throughout.
 */
export const NS_ADDR = '192.0.2.7';

export interface NsPlan {
  /** Shell lines run inside before the relays (daemons started in the background with `&`). */
  setup: string[];
  /** Relays: socket name in `dir` → socat address inside ("TCP:127.0.0.1:111", "UDP:192.0.2.7:19"). */
  relays: Record<string, string>;
  /** A shell test that holds once the daemons are up (e.g. "rpcinfo -p 127.0.0.1 >/dev/null"). */
  ready?: string;
  /** Files planted over the host's inside (as InetdPlan's). */
  files?: Record<string, string>;
}

/** The command (unshare …) that runs the plan; `${dir}/ready` appears once it is up. */
export function nsCommand(dir: string, plan: NsPlan): { cmd: string; args: string[] } {
  const script = [
    'set -e',
    // PID 1 of its own PID namespace: its end takes every daemon with it, even one that detached (rpc.rusersd).
    "trap 'exit 0' TERM",
    'ip link set lo up',
    `ip addr add ${NS_ADDR}/32 dev lo`,
    'mount -t tmpfs -o mode=0755 none /run',
    ...planted(dir, plan.files ?? {}),
    ...plan.setup,
    ...Object.entries(plan.relays).map(([name, inner]) => `socat UNIX-LISTEN:${join(dir, name)},fork ${inner} &`),
    `for i in $(seq 200); do { ${plan.ready ?? 'true'}; } && break; sleep 0.1; done`,
    `for s in ${Object.keys(plan.relays).join(' ')}; do while [ ! -S ${dir}/$s ]; do sleep 0.05; done; done`,
    `touch ${join(dir, 'ready')}`,
    'wait',
  ];
  const ns = ['-n', '-m', '-p', '-f', '--kill-child', '--mount-proc', '--propagation', 'private'];
  return { cmd: 'unshare', args: [...ns, 'sh', '-c', script.join('\n')] };
}

/** socat arguments relaying addr:port (TCP or UDP) of the host to the Unix socket `socket`. */
export function forwardArgs(proto: 'tcp' | 'udp', addr: string, port: number, socket: string): string[] {
  return proto === 'tcp'
    ? [`TCP-LISTEN:${port},bind=${addr},fork,reuseaddr`, `UNIX-CONNECT:${socket}`]
    : // One child per datagram, gone 2 s after its last reply (-T).
      ['-T', '2', `UDP-RECVFROM:${port},bind=${addr},fork,reuseaddr`, `UNIX-CONNECT:${socket}`];
}

/**
 * rpcbind (foreground) and rpc.rusersd in a namespace, with one planted
 * login (alice on pts/7 from 192.0.2.50, in the namespace's /run/utmp) for
 * rusersd to tell; the portmapper is
 * offered as tcp-111 and udp-111, and, when rpcbind answers, rusersd's UDP
 * port as udp-rusers with its number in `${dir}/rusers-port`. Restricted:
 * TCP wrappers refuse every caller ("rpcbind: ALL" in hosts.deny; rpcbind
 * answers MSG_DENIED, and registrations over its Unix socket still work).
 */
export function rpcPlan(dir: string, restricted: boolean): NsPlan {
  writeFileSync(join(dir, 'utmp'), utmpLogin('alice', 'pts/7', '192.0.2.50'));
  const setup = [
    // One login for rusersd to tell (glibc reads /run/utmp, here the namespace's own).
    `cp ${join(dir, 'utmp')} /run/utmp`,
    'rpcbind -f &',
    "for i in $(seq 100); do ss -Hlnt | grep -q ':111 ' && break; sleep 0.1; done",
    '/usr/sbin/rpc.rusersd',
  ];
  if (!restricted)
    setup.push(
      'for i in $(seq 100); do',
      `  P=$(rpcinfo -p 127.0.0.1 | awk '$1 == 100002 && $3 == "udp" { print $4; exit }')`,
      '  [ -n "$P" ] && break; sleep 0.1',
      'done',
      `echo "$P" > ${join(dir, 'rusers-port')}`,
      `socat UNIX-LISTEN:${join(dir, 'udp-rusers')},fork UDP:127.0.0.1:$P &`,
    );
  return {
    setup,
    relays: { 'tcp-111': 'TCP:127.0.0.1:111', 'udp-111': 'UDP:127.0.0.1:111' },
    ...(restricted ? { files: { '/etc/hosts.allow': '', '/etc/hosts.deny': 'rpcbind: ALL\n' } } : {}),
  };
}

/**
 * tgtadm commands (Debian tgt) setting up one target on the tgtd whose
 * control port is `ctl`: a LUN on `disk` (a file), open to every initiator
 * without credentials, or with CHAP required for the target (account
 * vigil-bench, a long password) and/or an initiator-address ACL (tgt's
 * SendTargets then lists it to that address only).
 */
export function tgtSetup(ctl: number, disk: string, opts: { iqn: string; chap?: boolean; acl?: string }): string[][] {
  const t = (...a: string[]) => ['-C', String(ctl), '--lld', 'iscsi', ...a];
  const cmds = [
    t('--mode', 'target', '--op', 'new', '--tid', '1', '-T', opts.iqn),
    t('--mode', 'logicalunit', '--op', 'new', '--tid', '1', '--lun', '1', '-b', disk),
    t('--mode', 'target', '--op', 'bind', '--tid', '1', '-I', opts.acl ?? 'ALL'),
  ];
  if (opts.chap)
    cmds.push(
      t('--mode', 'account', '--op', 'new', '--user', 'vigil-bench', '--password', 'a-long-bench-secret-7f3'),
      t('--mode', 'account', '--op', 'bind', '--tid', '1', '--user', 'vigil-bench'),
    );
  return cmds;
}

/** One glibc utmp record (x86-64 layout, 384 bytes): a USER_PROCESS login of `user` on `line` from `host`. */
export function utmpLogin(user: string, line: string, host: string): Buffer {
  const b = Buffer.alloc(384);
  b.writeInt16LE(7, 0); // USER_PROCESS
  b.writeInt32LE(process.pid, 4);
  b.write(line, 8, 32, 'latin1');
  b.write(line.slice(-4), 40, 4, 'latin1');
  b.write(user, 44, 32, 'latin1');
  b.write(host, 76, 256, 'latin1');
  b.writeInt32LE(Math.floor(Date.now() / 1000), 340); // ut_tv.tv_sec
  return b;
}
