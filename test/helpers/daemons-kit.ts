/**
 * Real Debian daemons for the detection tests, each on its own loopback
 * address (127.0.41.x: all of 127/8 is on lo already) and a free port,
 * stopped when the test file ends. A daemon that exits at start is tried
 * again on another port (a port found free may be taken by a test running
 * beside this one before the daemon binds it).
 */
import { type ChildProcess, execFileSync, spawn, type SpawnOptions } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import { describePid, heldByOther, processTable, type ProcessRow, startOf } from './listeners.ts';

/**
 * Every daemon this file starts carries this in its environment, and so
 * does whatever it forks or daemonizes: at the end, what left its process
 * group (Erlang's `epmd -daemon`, its own session reparented to init; a
 * master that calls setsid()) is found by it and stopped too.
 */
const TAG = { name: 'VIGIL_TEST_DAEMONS', value: `${process.pid}-${randomBytes(4).toString('hex')}` };

const cleanup: (() => unknown)[] = [];
after(async () => {
  for (const c of cleanup.reverse()) await Promise.resolve(c()).catch(() => {});
  await reapLeftovers();
});

/** The tagged processes still alive; each is named on stderr (a fixture to fix), then stopped. */
async function reapLeftovers(): Promise<void> {
  const marker = Buffer.from(`${TAG.name}=${TAG.value}\0`);
  const left = processTable().filter((row) => {
    try {
      return row.pid !== process.pid && readFileSync(`/proc/${row.pid}/environ`).includes(marker);
    } catch {
      return false;
    }
  });
  if (!left.length) return;
  process.stderr.write(
    `daemons-kit: stopping what outlived its test: ${left.map((r) => describePid(r.pid)).join(', ')}\n`,
  );
  const alive = (r: ProcessRow) => startOf(r.pid) === r.start;
  const signal = (sig: NodeJS.Signals) => {
    for (const r of left.filter(alive))
      try {
        process.kill(r.pid, sig);
      } catch {}
  };
  signal('SIGTERM');
  for (let i = 0; i < 30 && left.some(alive); i++) await new Promise((r) => setTimeout(r, 100));
  signal('SIGKILL');
}

export const onCleanup = (f: () => unknown) => cleanup.push(f);

/** Path of `cmd` or null (tests skip with the reason when a daemon is missing). */
export function which(cmd: string): string | null {
  try {
    return execFileSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' }).trim() || null;
  } catch {
    return null;
  }
}

export function tempDir(tag: string): string {
  const d = mkdtempSync(join(tmpdir(), `vigil-${tag}-`));
  // Retries: a daemon's children may still be writing there for a moment after it stopped.
  onCleanup(() => rmSync(d, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 }));
  return d;
}

/** One picker for every fixture (server.ts): below the ephemeral range, reserved across the run's files. */
import { freePort } from './ports.ts';

export { freePort };

/** True once something accepts connections on addr:port. */
export const listening = (addr: string, port: number) =>
  new Promise<boolean>((res) => {
    const s = createServer();
    s.once('error', (e: NodeJS.ErrnoException) => res(e.code === 'EADDRINUSE'));
    s.listen(port, addr, () => s.close(() => res(false)));
  });

/**
 * True once something accepts a connection on addr:port. A connect, never a
 * bind: binding addr:port to ask (`listening`) takes the port for a moment,
 * and a daemon binding it in that moment fails (seen: slapd exiting 1, Xvfb
 * running without its TCP listener, in one full-file run of two).
 */
const accepts = (addr: string, port: number) =>
  new Promise<boolean>((res) => {
    const s = connect(port, addr);
    s.once('connect', () => (s.destroy(), res(true))).once('error', () => res(false));
  });

/** Starts `cmd` (args from the port) and waits up to 20 s until it listens on addr:port. */
export async function daemon(
  addr: string,
  cmd: string,
  argsFor: (port: number) => string[],
  opts: SpawnOptions & { port?: number } = {},
): Promise<number> {
  for (let attempt = 1; ; attempt++) {
    const port = opts.port ?? (await freePort(addr));
    let err = '';
    // detached (a process group of its own): postfix's master and smbd signal their whole process
    // group when they stop (master_sigdeath; smbd with --no-process-group), which must not be the test's.
    const env = { ...(opts.env ?? process.env), [TAG.name]: TAG.value };
    const p = spawn(cmd, argsFor(port), { stdio: ['ignore', 'pipe', 'pipe'], detached: true, ...opts, env });
    // VIGIL_DAEMON_LOG=1 shows what the daemons say (debugging a test's setup).
    const keep = (d: Buffer) => (
      (err = (err + d).slice(-2000)), process.env.VIGIL_DAEMON_LOG && process.stderr.write(d)
    );
    p.stdout?.on('data', keep);
    p.stderr?.on('data', keep);
    // SIGTERM and wait: masters (postfix, smbd, postgres) take their children down; SIGKILL after 3 s.
    onCleanup(() => stop(p));
    // Up to 40 s: Xvfb took over 20 s to listen on this 2-core machine under a load of 18.
    let stranger: string | null = null;
    for (let i = 0; i < 800 && p.exitCode === null; i++) {
      if ((await accepts(addr, port)) && p.exitCode === null) {
        // Accepting is not enough: a daemon whose bind failed may not have exited yet while another
        // process (a test beside this one, a daemon left by a killed run) answers on the port.
        stranger = heldByOther('tcp', addr, port, [p.pid!]);
        if (!stranger) return port;
        await stop(p);
        break;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    if (stranger && (attempt === 3 || opts.port))
      throw new Error(`${cmd} did not start: ${stranger}, not by the ${cmd} this test started`);
    if (!stranger && (p.exitCode === null || attempt === 3 || opts.port))
      throw new Error(`${cmd} did not start (exit ${p.exitCode}): ${err}`);
  }
}

/** Stops a daemon: SIGTERM, then SIGKILL if it is still there after 3 s; resolves when it has exited. */
export function stop(p: ChildProcess): Promise<void> {
  if (p.exitCode !== null || p.signalCode !== null) return Promise.resolve();
  return new Promise((res) => {
    // The whole group (the daemon is its leader, spawned detached): smbd's samba-dcerpcd and
    // rpcd_* helpers outlived a SIGTERM to smbd alone.
    const signal = (sig: NodeJS.Signals) => {
      try {
        process.kill(-p.pid!, sig);
      } catch {
        p.kill(sig);
      }
    };
    const t = setTimeout(() => signal('SIGKILL'), 3000);
    p.once('exit', () => {
      clearTimeout(t);
      setTimeout(() => (signal('SIGKILL'), res()), 200); // what is left of the group
    });
    signal('SIGTERM');
  });
}
