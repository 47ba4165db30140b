import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { test } from 'node:test';
import { LOG_FLUSH_MS } from '../src/log-format.ts';
import { eventually } from './helpers/wait.ts';

const LOG_FORMAT = new URL('../src/log-format.ts', import.meta.url).href;

/**
 * A process with serve's JSON logger (src/log-format.ts): it runs `body`,
 * then stays alive until killed, so that what reaches stderr meanwhile
 * was written by the batching, not by the flush at exit.
 */
function logger(body: string, stayAlive = true) {
  const script = `const { serverLogger } = await import(${JSON.stringify(LOG_FORMAT)});
    const log = await serverLogger('info', 'json');
    ${body}
    ${stayAlive ? 'setInterval(() => {}, 60_000);' : ''}`;
  const proc = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let err = '';
  proc.stderr!.on('data', (d) => (err += d));
  const lines = () =>
    err
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
  return { proc, lines, exited: new Promise<number | null>((res) => proc.on('exit', res)) };
}

test('a lone log line is written within the flush interval, not held until the batch fills or the process exits', async (t) => {
  const p = logger(`log.info({ n: 1 }, 'lone');`);
  t.after(() => p.proc.kill('SIGKILL'));
  // LOG_FLUSH_MS (100 ms) is the bound; the margin is for a loaded machine.
  await eventually(async () => p.lines().some((l) => l.msg === 'lone'), 'the lone line', 20 * LOG_FLUSH_MS + 5_000);
  assert.equal(p.proc.exitCode, null, 'written while the process still runs');
});

test('a burst of lines arrives whole and in order; lines still buffered at exit are flushed', async (t) => {
  const burst = logger(`for (let i = 0; i < 500; i++) log.info({ i }, 'burst');`);
  t.after(() => burst.proc.kill('SIGKILL'));
  await eventually(async () => burst.lines().length === 500, 'all 500 lines');
  assert.deepEqual(
    burst.lines().map((l) => l.i),
    Array.from({ length: 500 }, (_, i) => i),
  );

  // Exit right after logging: pino's exit handler writes what the batch still holds.
  const atExit = logger(`log.info('first'); log.warn('second'); process.exit(0);`, false);
  assert.equal(await atExit.exited, 0);
  assert.deepEqual(
    atExit.lines().map((l) => l.msg),
    ['first', 'second'],
  );
});
