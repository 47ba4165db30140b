import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ManualClock } from '../src/clock.ts';
import { type AuditProgress, PROGRESS_INTERVAL_MS, ProgressWriter } from '../src/audit/progress.ts';

// The runner's progress writes (src/audit/progress.ts): at most one per
// second of the injected clock, at once on a phase change, never two at a
// time, the newest state last. The store side runs in audit-progress.test.ts.
const step = (phase: AuditProgress['phase'], checksDone: number): AuditProgress => ({
  phase,
  portsScanned: 100,
  portsTotal: 100,
  checksDone,
  checksTotal: 50,
});

test('one write per interval within a phase; a phase change at once; the newest state wins while a write is in flight', async () => {
  const clock = new ManualClock();
  const written: AuditProgress[] = [];
  let release: () => void = () => {};
  let hold = false;
  const w = new ProgressWriter(clock, async (p) => {
    written.push(p);
    if (hold) await new Promise<void>((r) => (release = r));
  });
  w.report(step('checking', 1));
  for (let i = 2; i <= 20; i++) w.report(step('checking', i));
  await w.flush();
  assert.deepEqual(
    written.map((p) => p.checksDone),
    [1],
    'same phase inside the interval: no more writes',
  );

  clock.advance(PROGRESS_INTERVAL_MS);
  w.report(step('checking', 21));
  await w.flush();
  assert.deepEqual(
    written.map((p) => p.checksDone),
    [1, 21],
  );

  w.report(step('reporting', 50));
  await w.flush();
  assert.deepEqual(
    written.map((p) => p.phase),
    ['checking', 'checking', 'reporting'],
    'a phase change is written at once',
  );

  // A slow store: writes do not pile up; the one after the write in flight carries the newest counts.
  hold = true;
  clock.advance(PROGRESS_INTERVAL_MS);
  w.report(step('scanning', 1));
  w.report(step('detecting', 2));
  w.report(step('checking', 3));
  assert.equal(written.length, 4, 'one write in flight');
  hold = false;
  release();
  await w.flush();
  assert.deepEqual(
    written.slice(3).map((p) => [p.phase, p.checksDone]),
    [
      ['scanning', 1],
      ['checking', 3],
    ],
  );
});
