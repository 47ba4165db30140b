// Runs every test file (unit tests beside the code, integration tests in
// test/) with node's own runner and tsx, so that no build step is needed.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { DURATIONS, findTests, longestFirst, ROOT, storeDependence } from './test-files.mjs';

const only = process.argv.slice(2);
// Types first: tsx runs the tests without checking them. VIGIL_TEST_CHECKS=0 leaves them out: .ci/run's
// PostgreSQL pass, which runs on the tree the SQLite pass has just checked.
if (!only.length && process.env.VIGIL_TEST_CHECKS !== '0') {
  // Format and lint (Biome, biome.json; docs/development.md says why Biome). Warnings do not fail the
  // run; the count of production `any` is printed so that it is seen to go down (98 when Biome came in).
  const biome = spawnSync(
    process.execPath,
    ['node_modules/@biomejs/biome/bin/biome', 'ci', '.', '--colors=off', '--reporter=summary'],
    {
      encoding: 'utf8',
    },
  );
  const said = `${biome.stdout ?? ''}${biome.stderr ?? ''}`;
  if (biome.status !== 0) {
    console.error(said);
    console.error('format or lint failed: npx biome check --write . fixes what it can');
    process.exit(biome.status ?? 1);
  }
  const anys = /lint\/suspicious\/noExplicitAny\s+(\d+)/.exec(said)?.[1] ?? '0';
  console.log(`# biome: formatted and linted; production \`any\`: ${anys}`);
  // The server and tests, then the console (web/: browser types, its own tsconfig).
  for (const project of ['.', 'web']) {
    const tsc = spawnSync(process.execPath, ['node_modules/typescript/bin/tsc', '--noEmit', '-p', project], {
      stdio: 'inherit',
    });
    if (tsc.status !== 0) {
      console.error(`typecheck failed (${project})`);
      process.exit(tsc.status ?? 1);
    }
  }
}
let files = only.length ? only : longestFirst([...findTests('src'), ...findTests('test')]);
// Store-independent files (scripts/test-files.mjs: no import reaches a store, no process started by path)
// run once: on the PostgreSQL pass of .ci/run (VIGIL_TEST_DB) they would only repeat the SQLite pass's
// minutes. `npm test` without VIGIL_TEST_DB runs every file; VIGIL_TEST_ALL=1 runs them on PostgreSQL too.
if (!only.length && process.env.VIGIL_TEST_DB && !process.env.VIGIL_TEST_ALL) {
  const dependsOnStore = storeDependence();
  const skipped = files.filter((f) => !dependsOnStore(f));
  files = files.filter(dependsOnStore);
  console.log(`# store-independent tests left to the SQLite run: ${skipped.length} files`);
}
// Four files at once on two cores: the integration tests spend most of their time waiting on daemons and
// sockets (a run at two used ~55% of the cores; at three the SQLite pass of a fresh clone used 693 s of CPU in
// 530 s, 65%; at four the same tree took 464 s, green: session 15). VIGIL_TEST_CONCURRENCY overrides it.
const concurrency = process.env.VIGIL_TEST_CONCURRENCY ?? '4';
// Beside the usual report, each file's time (scripts/test-durations.mjs), kept for the next run's order.
const timings = join(tmpdir(), `vigil-test-durations-${process.pid}.json`);
// And each file's wall and CPU time, from its own process (scripts/test-clock.mjs); VIGIL_TEST_CLOCK=FILE
// keeps them (JSON lines) for a comparison of runs.
const clock = process.env.VIGIL_TEST_CLOCK || join(tmpdir(), `vigil-test-clock-${process.pid}.jsonl`);
// node:test's run() on the files in this order (scripts/test-run.mjs: `node --test FILE…` sorts them by name),
// each file's process loading tsx and the clock.
const args = [
  '--import',
  'tsx',
  '--import',
  join(import.meta.dirname, 'test-clock.mjs'),
  join(import.meta.dirname, 'test-run.mjs'),
  concurrency,
  timings,
  ...files,
];
// The ports test/helpers/server.ts freePort hands out in this run, one file each, shared by its test files.
const ports = process.env.VIGIL_TEST_PORTS || join(tmpdir(), `vigil-test-ports-${process.pid}`);
const run = spawnSync(process.execPath, args, {
  stdio: 'inherit',
  env: { ...process.env, VIGIL_TEST_CLOCK: clock, VIGIL_TEST_PORTS: ports },
});
if (!process.env.VIGIL_TEST_PORTS) rmSync(ports, { recursive: true, force: true });
// Wall and CPU per file; the wall time orders the next run (it counts the file's hooks, which the
// reporter's sum of top-level tests leaves out).
const walls = {};
const rows = [];
try {
  for (const line of readFileSync(clock, 'utf8').split('\n').filter(Boolean)) {
    const { file, wallMs, cpuMs } = JSON.parse(line);
    walls[file] = wallMs;
    rows.push({ file, wallMs, cpuMs });
  }
} catch {}
if (rows.length) {
  const top = rows.sort((a, b) => b.wallMs - a.wallMs).slice(0, 10);
  const cpu = rows.reduce((sum, r) => sum + r.cpuMs, 0);
  console.error(
    `# slowest files, wall (CPU) s: ${top.map((r) => `${relative(ROOT, r.file)} ${(r.wallMs / 1000).toFixed(1)} (${(r.cpuMs / 1000).toFixed(1)})`).join(', ')}; CPU of all ${rows.length} files ${(cpu / 1000).toFixed(0)} s`,
  );
}
try {
  let kept = {};
  try {
    kept = JSON.parse(readFileSync(DURATIONS, 'utf8'));
  } catch {}
  let reported = {};
  try {
    reported = JSON.parse(readFileSync(timings, 'utf8'));
  } catch {}
  mkdirSync(dirname(DURATIONS), { recursive: true });
  writeFileSync(DURATIONS, JSON.stringify({ ...kept, ...reported, ...walls }, null, 1));
} catch {
  // No figures (the run was cut short): the next run orders as before.
}
rmSync(timings, { force: true });
if (!process.env.VIGIL_TEST_CLOCK) rmSync(clock, { force: true });
process.exit(run.status ?? 1);
