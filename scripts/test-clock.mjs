// Loaded into every test file's process by scripts/test.mjs (--import, which
// node's runner passes on to the processes it starts for each file): at exit,
// the file's wall time since its process started, and the CPU time of the
// process and of the children it waited for (bin/vigil, daemons, nmap …),
// as one JSON line appended to VIGIL_TEST_CLOCK. The reporter's figures
// (scripts/test-durations.mjs) sum the file's top-level tests only: they miss
// the file's own before/after hooks, its imports and its start, which for a
// file that starts its daemons in a top-level before() is most of its time.
import { appendFileSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';

const out = process.env.VIGIL_TEST_CLOCK;
// Only in the processes of the test files, not in scripts/test.mjs's runner itself.
if (out && process.env.NODE_TEST_CONTEXT && process.argv[1]) {
  const file = resolve(process.argv[1]);
  process.once('exit', () => {
    try {
      // proc(5): utime, stime, cutime, cstime are fields 14-17, in clock ticks (100 a second on Linux).
      const stat = readFileSync('/proc/self/stat', 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const ticks = [11, 12, 13, 14].reduce((sum, i) => sum + Number(f[i] ?? 0), 0);
      const wallMs = Math.round(performance.now());
      appendFileSync(out, `${JSON.stringify({ file, wallMs, cpuMs: ticks * 10 })}\n`);
    } catch {
      // no figure for this file: the next run orders it by the reporter's
    }
  });
}
