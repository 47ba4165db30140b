import { type ChildProcess, spawn } from 'node:child_process';
import { dbArgs } from './pgdb.ts';
import { killedAtExit, VIGIL } from './server.ts';

export interface Worker {
  proc: ChildProcess;
  readyLine: string;
  stderr: () => string;
  /** Sends `signal` and resolves with the exit code (null when killed by the signal). */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * For the process that is to finish an audit of a tarpit (a port that accepts and never speaks):
 * 300 ms a silent read instead of 3 s (VIGIL_AUDIT_PROBE_TIMEOUT), so that audit takes about 5 s, not
 * 16 (src/cli/options.ts). A process that must still be mid-audit when the test stops it keeps the default.
 */
export const QUICK_PROBES = { VIGIL_AUDIT_PROBE_TIMEOUT: '300ms' } as const;

/** Starts `bin/vigil worker` on the data directory's store and waits for its ready line. */
export async function startWorker(
  dataDir: string,
  args: string[] = [],
  env: Record<string, string> = {},
): Promise<Worker> {
  const proc = killedAtExit(
    spawn(VIGIL, ['worker', '--data', dataDir, ...(await dbArgs(dataDir)), ...args], {
      env: { ...process.env, VIGIL_LOG_LEVEL: 'info', VIGIL_LOG_FORMAT: 'json', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
  let out = '';
  let err = '';
  proc.stdout!.on('data', (d) => (out += d));
  proc.stderr!.on('data', (d) => (err += d));
  const readyLine = await new Promise<string>((res, rej) => {
    const timer = setTimeout(() => {
      proc.kill('SIGKILL');
      rej(new Error(`no worker ready line; stderr: ${err}`));
    }, 30_000);
    proc.stdout!.on('data', () => {
      const line = out.split('\n').find((l) => l.startsWith('vigil worker ready'));
      if (line) {
        clearTimeout(timer);
        res(line);
      }
    });
    proc.on('exit', (code) => rej(new Error(`vigil worker exited ${code}: ${err}`)));
  });
  return {
    proc,
    readyLine,
    stderr: () => err,
    stop(signal = 'SIGTERM') {
      if (proc.exitCode !== null || proc.signalCode !== null) return Promise.resolve(proc.exitCode);
      // 'close', not 'exit': by then its stdout and stderr have been read to the end.
      return new Promise((res) => {
        proc.once('close', (code) => res(code));
        proc.kill(signal);
      });
    },
  };
}
