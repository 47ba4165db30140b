// Runs every test file (unit tests beside the code, integration tests in
// test/) with node's own runner and tsx, so that no build step is needed.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

function find(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : find(p);
    return e.name.endsWith('.test.ts') ? [p] : [];
  });
}

const only = process.argv.slice(2);
// Types first: tsx runs the tests without checking them.
if (!only.length) {
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
let files = only.length ? only : [...find('src'), ...find('test')].sort();
// The scan engine's tests (src/audit/engine) talk to real daemons through a
// Fence and never open a store: on the PostgreSQL run of .ci/run they would
// only repeat the SQLite run's minutes. Audits end to end (test/audit*.ts)
// still run on both engines. VIGIL_TEST_ALL=1 runs them anyway.
if (!only.length && process.env.VIGIL_TEST_DB && !process.env.VIGIL_TEST_ALL) {
  const engine = join('src', 'audit', 'engine') + '/';
  const skipped = files.filter((f) => f.startsWith(engine));
  files = files.filter((f) => !f.startsWith(engine));
  console.log(`# store-independent scan engine tests left to the SQLite run: ${skipped.length} files`);
}
// Three files at once on two cores: the integration tests spend most of their time waiting on daemons and
// sockets (a run at two used ~55% of the cores). VIGIL_TEST_CONCURRENCY overrides it.
const concurrency = process.env.VIGIL_TEST_CONCURRENCY ?? '3';
const args = ['--import', 'tsx', '--test', `--test-concurrency=${concurrency}`, '--test-timeout=300000', ...files];
const run = spawnSync(process.execPath, args, { stdio: 'inherit' });
process.exit(run.status ?? 1);
