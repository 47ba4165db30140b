import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import pg from 'pg';
import { testDb } from './pgdb.ts';
import { VIGIL } from './server.ts';

/**
 * A /24 of loopback addresses where most hosts are down, for the per-host
 * table of issue 26 end to end. On the machine's own loopback every
 * 127.x address answers (a RST from the kernel), so nothing is ever down;
 * here a network namespace of its own (`unshare --net`: only its `lo`, no
 * other interface, no route out) makes `NET.0/24` unreachable in its
 * local table except LIVE, whose /32 local routes win by longest prefix.
 * A connect or ICMP probe to any other address fails at once with
 * EHOSTUNREACH: nothing answers, as a dead host on a LAN. Nothing of the
 * machine's own network is touched, and the namespace goes with its
 * process.
 */
export const NET = '127.0.27';
export const LIVE = [`${NET}.1`, `${NET}.2`, `${NET}.3`];

/** Why the namespace cannot be made here (not root, no unshare, ip or python3), or null. */
export function hostsNsUnsupported(): string | null {
  if (process.getuid?.() !== 0) return 'not root (unshare --net needs CAP_SYS_ADMIN)';
  for (const tool of ['/usr/bin/unshare', '/usr/bin/nsenter', '/usr/bin/python3'])
    if (!existsSync(tool)) return `${tool} is not installed`;
  if (spawnSync('ip', ['-V']).status !== 0) return 'ip(8) is not installed';
  return null;
}

/**
 * The targets, in Python because Node accepts every connection itself:
 * NET.1 HTTP on 80 and SMTP on 25; NET.2 SSH on 22 and 8443, a listener
 * whose accept queue (backlog 0) is kept full by a connection never
 * accepted, so the kernel drops every SYN to it (tcp_conn_request,
 * `sk_acceptq_is_full`): a filtered port with no firewall; NET.3 nothing
 * (up, every port closed).
 */
const TARGETS = `
import socket, sys, threading
NET = sys.argv[1]
def serve(addr, port, answer):
    s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1); s.bind((addr, port)); s.listen(64)
    def one(c):
        try:
            c.settimeout(5)
            if answer is None:
                data = b''
                while b'\\r\\n\\r\\n' not in data:
                    chunk = c.recv(4096)
                    if not chunk: break
                    data += chunk
                c.sendall(b'HTTP/1.1 200 OK\\r\\nServer: nginx\\r\\nContent-Type: text/html\\r\\nContent-Length: 2\\r\\nConnection: close\\r\\n\\r\\nok')
            else:
                c.sendall(answer)
                while c.recv(4096): pass
        except OSError: pass
        finally: c.close()
    def loop():
        while True:
            c, _ = s.accept(); threading.Thread(target=one, args=(c,), daemon=True).start()
    threading.Thread(target=loop, daemon=True).start()
serve(NET + '.1', 80, None)
serve(NET + '.1', 25, b'220 mail.hosts.test ESMTP Postfix\\r\\n')
serve(NET + '.2', 22, b'SSH-2.0-OpenSSH_9.2p1 Debian-2+deb12u3\\r\\n')
full = socket.socket(); full.bind((NET + '.2', 8443)); full.listen(0)
held = socket.create_connection((NET + '.2', 8443))
print('ready', flush=True)
sys.stdin.read()
`;

export interface HostsNs {
  /** The namespace's holder: the targets' process. */
  proc: ChildProcess;
  /** Runs `cmd` in the namespace. */
  spawnIn(cmd: string, args: string[], env?: Record<string, string>): ChildProcess;
  close(): Promise<void>;
}

export async function createHostsNs(): Promise<HostsNs> {
  const routes = [
    'ip link set lo up',
    `ip route add unreachable ${NET}.0/24 table local`,
    ...LIVE.map((a) => `ip route add local ${a} dev lo table local`),
  ].join(' && ');
  // stdin stays open: the targets live until it closes (or their namespace's holder is killed).
  const proc = spawn('unshare', ['--net', '--', 'sh', '-c', `${routes} && exec python3 -c "$0" ${NET}`, TARGETS], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let err = '';
  proc.stderr!.on('data', (d) => (err += d));
  await new Promise<void>((resolve, reject) => {
    proc.stdout!.once('data', () => resolve());
    proc.once('exit', (code) => reject(new Error(`namespace set-up exited ${code}: ${err}`)));
  });
  const ns = `--net=/proc/${proc.pid}/ns/net`;
  return {
    proc,
    spawnIn: (cmd, args, env = {}) =>
      spawn('nsenter', [ns, '--', cmd, ...args], {
        env: { ...process.env, ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      }),
    close: () =>
      new Promise((resolve) => {
        if (proc.exitCode !== null || proc.signalCode !== null) return resolve();
        proc.once('exit', () => resolve());
        proc.kill('SIGTERM');
      }),
  };
}

/**
 * `--db` for a process in the namespace: its loopback is not the
 * machine's, so PostgreSQL is reached through its Unix socket (a path,
 * shared across network namespaces), as INTERFACE.md's
 * `postgres:///DB?host=/socket/dir` allows. Nothing on SQLite.
 */
export async function nsDbArgs(dataDir: string): Promise<string[]> {
  const url = await testDb(dataDir);
  if (!url) return [];
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const dir = (await c.query('SHOW unix_socket_directories')).rows[0].unix_socket_directories.split(',')[0].trim();
    const port = (await c.query('SHOW port')).rows[0].port;
    const u = new URL(url);
    return [`postgres://${u.username}:${u.password}@${u.pathname}?host=${encodeURIComponent(dir)}&port=${port}`];
  } finally {
    await c.end();
  }
}

/** `bin/vigil worker` in the namespace on the data directory's store; resolves at its ready line. */
export async function nsWorker(ns: HostsNs, dataDir: string, args: string[]): Promise<ChildProcess> {
  const db = await nsDbArgs(dataDir);
  const proc = ns.spawnIn(VIGIL, ['worker', '--data', dataDir, ...(db.length ? ['--db', db[0]!] : []), ...args], {
    VIGIL_LOG_LEVEL: 'warn',
  });
  let out = '';
  let err = '';
  proc.stdout!.on('data', (d) => (out += d));
  proc.stderr!.on('data', (d) => (err += d));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no worker ready line; stderr: ${err}`)), 30_000);
    proc.stdout!.on('data', () => {
      if (out.includes('vigil worker ready')) clearTimeout(timer), resolve();
    });
    proc.once('exit', (code) => reject(new Error(`worker exited ${code}: ${err}`)));
  });
  return proc;
}

/** GETs `url` from inside the namespace (a worker's metrics listener there) and returns the body. */
export function fetchIn(ns: HostsNs, url: string): Promise<string> {
  const py =
    'import sys, urllib.request; sys.stdout.write(urllib.request.urlopen(sys.argv[1], timeout=10).read().decode())';
  const proc = ns.spawnIn('python3', ['-c', py, url]);
  let out = '';
  let err = '';
  proc.stdout!.on('data', (d) => (out += d));
  proc.stderr!.on('data', (d) => (err += d));
  return new Promise((resolve, reject) =>
    proc.once('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`GET ${url}: ${err}`)))),
  );
}
