// store-incidental: the suite's runner scripts; it opens no store (test-files.mjs only names VIGIL_TEST_DB).
/**
 * The suite's own runner (issue 32): the order scripts/test.mjs computes
 * reaches node:test (`node --test FILE…` sorted the files by name, so it
 * never had), each file's process reports its wall and CPU time, and the
 * `store-incidental` line keeps a file off the PostgreSQL pass.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, test } from 'node:test';
import { promisify } from 'node:util';
// @ts-expect-error: a plain .mjs of the scripts, without declarations
import { INCIDENTAL, storeDependence } from '../scripts/test-files.mjs';

const run = promisify(execFile);
const SCRIPTS = resolve(import.meta.dirname, '../scripts');
const dir = mkdtempSync(join(tmpdir(), 'vigil-runner-'));
// As scripts/test.mjs starts it: not as a test file's child (NODE_TEST_CONTEXT would make run() report to us).
const { NODE_TEST_CONTEXT: _, ...ENV } = process.env;
after(() => rmSync(dir, { recursive: true, force: true }));

test('scripts/test-run.mjs runs the files in the order given, and each one reports its wall and CPU time', async () => {
  const log = join(dir, 'ran.log');
  // Each file appends its name when it runs; one at a time, so the log is the order.
  const files = ['c', 'a', 'b'].map((name) => {
    const file = join(dir, `${name}.test.mjs`);
    writeFileSync(
      file,
      `import { appendFileSync } from 'node:fs';\nimport { test } from 'node:test';\ntest('${name}', () => appendFileSync(${JSON.stringify(log)}, '${name}'));\n`,
    );
    return file;
  });
  const clock = join(dir, 'clock.jsonl');
  await run(
    process.execPath,
    ['--import', join(SCRIPTS, 'test-clock.mjs'), join(SCRIPTS, 'test-run.mjs'), '1', join(dir, 't.json'), ...files],
    { env: { ...ENV, VIGIL_TEST_CLOCK: clock } },
  );
  assert.equal(readFileSync(log, 'utf8'), 'cab');
  const rows = readFileSync(clock, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  assert.deepEqual(rows.map((r) => r.file).sort(), [...files].sort());
  for (const r of rows) assert.ok(r.wallMs > 0 && r.cpuMs >= 0, JSON.stringify(r));
  // A failing file fails the run.
  const failing = join(dir, 'f.test.mjs');
  writeFileSync(failing, `import { test } from 'node:test';\ntest('f', () => { throw new Error('no'); });\n`);
  await assert.rejects(
    run(process.execPath, [join(SCRIPTS, 'test-run.mjs'), '1', join(dir, 't2.json'), failing], { env: ENV }),
    {
      code: 1,
    },
  );
});

test('store-incidental: a marked file runs once; the store-dependent ones stay on both engines', () => {
  const dependsOnStore = storeDependence();
  const marked = ['test/transport.test.ts', 'test/user-cli.test.ts', 'test/console.test.ts'];
  for (const f of marked) {
    assert.match(readFileSync(resolve(import.meta.dirname, '..', f), 'utf8'), INCIDENTAL, f);
    assert.equal(dependsOnStore(f), false, f);
  }
  for (const f of ['test/backup.test.ts', 'test/worker-lease.test.ts', 'test/admin-cli.test.ts'])
    assert.equal(dependsOnStore(f), true, f);
  // The line needs its reason.
  assert.doesNotMatch('// store-incidental:\n', INCIDENTAL);
});
