import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createSocket } from 'node:dgram';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { VigilClient } from '../../src/client/index.ts';
import { dbArgs } from './pgdb.ts';

export const VIGIL = resolve(import.meta.dirname, '../../bin/vigil');
const run = promisify(execFile);

const made: string[] = [];
// Temporary directories go with the test process that made them.
process.once('exit', () => made.forEach((d) => rmSync(d, { recursive: true, force: true })));

/**
 * Processes started here still running when the test process exits: killed then. A serve whose start timed
 * out (no ready line within the wait, seen at a load of 50) or whose test threw before stop() outlived its
 * test file, holding its ports and a share of the CPU until the end of the suite.
 */
const live = new Set<ChildProcess>();
process.once('exit', () => {
  for (const p of live) if (p.exitCode === null && p.signalCode === null) p.kill('SIGKILL');
});
/** Tracks `proc` until it exits (test/helpers/workers.ts too). */
export function killedAtExit(proc: ChildProcess): ChildProcess {
  live.add(proc);
  proc.once('exit', () => live.delete(proc));
  return proc;
}

export function tempDir(prefix = 'vigil-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/**
 * The kernel's ephemeral range (ip_local_port_range): the source ports of outgoing connections. A port the
 * kernel hands out for listen(0) comes from it too, so between freePort and a daemon's bind another test's
 * outgoing connection (a port scan makes thousands) may hold it: `serve` once exited with EADDRINUSE on
 * 127.0.0.1:39455 with four test files at once (cert-reload.test.ts). freePort picks below the range instead.
 */
const EPHEMERAL_LOW = (() => {
  try {
    return Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]) || 32768;
  } catch {
    return 32768;
  }
})();
const PICK_LOW = Math.min(10_000, EPHEMERAL_LOW >> 1);

/**
 * Ports handed out, one file each (scripts/test.mjs gives the run its own folder): four test files run at
 * once, and two of them picking the same free port before either binds it would meet at the bind (serve
 * exited EADDRINUSE on 127.0.0.1:18599 in operator.test.ts so). A port stays reserved for RESERVED_MS,
 * longer than any daemon takes from freePort to its bind, so within it no process gets one port twice.
 */
const RESERVED = process.env.VIGIL_TEST_PORTS || join(tmpdir(), 'vigil-test-ports');
const RESERVED_MS = 120_000;

function reserve(port: number): boolean {
  const file = join(RESERVED, String(port));
  try {
    mkdirSync(RESERVED, { recursive: true });
    writeFileSync(file, String(process.pid), { flag: 'wx' });
    return true;
  } catch {
    try {
      if (Date.now() - statSync(file).mtimeMs < RESERVED_MS) return false;
      writeFileSync(file, String(process.pid)); // a reservation of long ago: reused
      return true;
    } catch {
      return false;
    }
  }
}

/**
 * A loopback port nobody holds right now, over TCP and UDP (DNS tests use both, and a port free for TCP may
 * still be held for UDP by another process: a dns-rrl test once counted a stranger's answers on its port),
 * chosen at random below the ephemeral range, where no outgoing connection takes it, and reserved against
 * the other test files of the run.
 */
export async function freePort(address = '127.0.0.1'): Promise<number> {
  for (let tries = 0; ; tries++) {
    const port = PICK_LOW + Math.floor(Math.random() * (EPHEMERAL_LOW - PICK_LOW));
    if (reserve(port) && (await tcpFree(port, address)) && (await udpFree(port, address))) return port;
    if (tries >= 50) throw new Error(`no free port on ${address} after 50 tries`);
  }
}

function tcpFree(port: number, address: string): Promise<boolean> {
  return new Promise((res) => {
    const s = createServer();
    s.once('error', () => res(false));
    s.listen(port, address, () => s.close(() => res(true)));
  });
}

function udpFree(port: number, address: string): Promise<boolean> {
  return new Promise((res) => {
    const u = createSocket(address.includes(':') ? 'udp6' : 'udp4');
    u.once('error', () => {
      try {
        u.close();
      } catch {
        // never bound: nothing to close
      }
      res(false);
    });
    u.bind(port, address, () => u.close(() => res(true)));
  });
}

/** `bin/vigil admin …` as an operator runs it. */
/** Zone health's resolver in tests unless one is given: loopback, nothing listens, never the system's resolvers. */
export const NO_RESOLVER = '127.0.30.7';

export async function admin(dataDir: string, ...args: string[]): Promise<{ stdout: string; stderr: string }> {
  return run(VIGIL, ['admin', ...args, '--data', dataDir, ...(await dbArgs(dataDir))], {
    env: { ...process.env, VIGIL_DATA: '' },
  });
}

export async function adminJson(dataDir: string, ...args: string[]): Promise<any> {
  const { stdout } = await admin(dataDir, ...args, '--json');
  return JSON.parse(stdout);
}

/** Creates an account through the CLI and returns its API key. */
export async function addAccount(
  dataDir: string,
  userid: string,
  password: string,
  ...extra: string[]
): Promise<string> {
  const out = await adminJson(dataDir, 'account', 'add', '--userid', userid, '--password', password, ...extra);
  return out.apikey;
}

export interface Served {
  dataDir: string;
  proc: ChildProcess;
  readyLine: string;
  stdout: () => string;
  stderr: () => string;
  httpsUrl: string;
  httpUrl: string;
  ca: string;
  client(): VigilClient;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * Starts `bin/vigil serve` on free loopback ports and waits for its ready line. `prefix` runs it under a
 * command that execs it (e.g. `prlimit --nofile=400:400`): the same process, so signals reach it.
 */
export async function serve(
  opts: {
    dataDir?: string;
    args?: string[];
    env?: Record<string, string>;
    logFile?: string;
    prefix?: string[];
    /** How long to wait for the ready line (a bench's start with a million records takes longer than 30 s). */
    readyMs?: number;
  } = {},
): Promise<Served> {
  const dataDir = opts.dataDir ?? tempDir();
  const [https, http] = [await freePort(), await freePort()];
  const args = [
    'serve',
    '--data',
    dataDir,
    '--https-port',
    String(https),
    '--http-port',
    String(http),
    '--dns-port',
    '0',
    '--forward-port',
    '0',
    ...(await dbArgs(dataDir)),
    ...(opts.args ?? []),
  ];
  // Logs to a file when asked (benchmarks: reading them here would load the measuring process).
  const stderr = opts.logFile ? openSync(opts.logFile, 'a') : 'pipe';
  const [cmd, ...argv] = [...(opts.prefix ?? []), VIGIL, ...args];
  const proc = killedAtExit(
    spawn(cmd!, argv, {
      env: { ...process.env, VIGIL_LOG_LEVEL: 'warn', VIGIL_RESOLVER: NO_RESOLVER, ...opts.env },
      stdio: ['ignore', 'pipe', stderr],
    }),
  );
  let out = '';
  let err = '';
  proc.stdout!.on('data', (d) => (out += d));
  proc.stderr?.on('data', (d) => (err += d));
  const readyLine = await new Promise<string>((res, rej) => {
    const timer = setTimeout(() => {
      proc.kill('SIGKILL');
      rej(new Error(`no ready line; stderr: ${err}`));
    }, opts.readyMs ?? 30_000);
    const check = () => {
      const line = out.split('\n').find((l) => l.startsWith('vigil ready'));
      if (line) {
        clearTimeout(timer);
        res(line);
      }
    };
    proc.stdout!.on('data', check);
    proc.on('exit', (code) => rej(new Error(`vigil exited ${code}: ${err}`)));
  });
  const ca = readFileSync(join(dataDir, 'tls', 'cert.pem'), 'utf8');
  const httpsUrl = `https://127.0.0.1:${https}`;
  const clients: VigilClient[] = [];
  return {
    dataDir,
    proc,
    readyLine,
    stdout: () => out,
    stderr: () => err,
    httpsUrl,
    httpUrl: `http://127.0.0.1:${http}`,
    ca,
    client() {
      const c = new VigilClient({ baseUrl: httpsUrl, ca });
      clients.push(c);
      return c;
    },
    stop(signal = 'SIGTERM') {
      clients.forEach((c) => c.close());
      if (proc.exitCode !== null) return Promise.resolve(proc.exitCode);
      return new Promise((res) => {
        proc.once('exit', (code) => res(code));
        proc.kill(signal);
      });
    },
  };
}
