// The runner scripts/test.mjs starts: node:test's run() on the files in the
// order given. `node --test FILE…` sorts its files by name whatever order they
// are given in (node 20 treats them as glob patterns and sorts the matches),
// so the longest-first order scripts/test-files.mjs computes never reached it
// and every run went alphabetically: src/ first, the slowest integration
// files of test/ (worker-lease …) at the very end. run({ files }) keeps the
// order. Its test processes get this process's --import flags (tsx, the clock).
//   node --import tsx --import scripts/test-clock.mjs scripts/test-run.mjs CONCURRENCY TIMINGS FILE…
import { createWriteStream } from 'node:fs';
import { resolve } from 'node:path';
import { PassThrough } from 'node:stream';
import { run } from 'node:test';
import { spec, tap } from 'node:test/reporters';
import durations from './test-durations.mjs';

const [concurrency, timings, ...files] = process.argv.slice(2);
const stream = run({
  files: files.map((f) => resolve(f)),
  concurrency: Number(concurrency),
  timeout: 300_000,
});
let failed = false;
stream.on('data', (event) => {
  if (event.type === 'test:fail' && !event.data.todo) failed = true;
});
// The same events to both reporters: the usual one on stdout, each file's time to TIMINGS.
const shown = new PassThrough({ objectMode: true });
const timed = new PassThrough({ objectMode: true });
stream.pipe(shown);
stream.pipe(timed);
shown.compose(process.stdout.isTTY ? new spec() : tap).pipe(process.stdout);
timed.compose(durations).pipe(createWriteStream(timings));
stream.on('end', () => {
  process.exitCode = failed ? 1 : 0;
});
