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
  const tsc = spawnSync(process.execPath, ['node_modules/typescript/bin/tsc', '--noEmit', '-p', '.'], { stdio: 'inherit' });
  if (tsc.status !== 0) {
    console.error('typecheck failed');
    process.exit(tsc.status ?? 1);
  }
}
const files = only.length ? only : [...find('src'), ...find('test')].sort();
const args = ['--import', 'tsx', '--test', '--test-concurrency=2', '--test-timeout=300000', ...files];
const run = spawnSync(process.execPath, args, { stdio: 'inherit' });
process.exit(run.status ?? 1);
