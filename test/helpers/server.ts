import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
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

import { freePort } from './ports.ts';

export { freePort };

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
