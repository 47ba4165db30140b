import assert from 'node:assert/strict';
import { test } from 'node:test';
import { inTurn, NOTIFY_IN_FLIGHT } from './notify.ts';

test('NOTIFYs waiting for their answers are capped; the next in line starts as one ends', async () => {
  const ends: (() => void)[] = [];
  const started: number[] = [];
  const all = Array.from({ length: NOTIFY_IN_FLIGHT + 10 }, (_, i) =>
    inTurn(() => {
      started.push(i);
      return new Promise<void>((end) => ends.push(end));
    }),
  );
  assert.equal(started.length, NOTIFY_IN_FLIGHT);
  ends[3]!();
  await new Promise((turn) => setImmediate(turn));
  assert.equal(started.length, NOTIFY_IN_FLIGHT + 1);
  assert.equal(started.at(-1), NOTIFY_IN_FLIGHT, 'first come, first served');
  for (let i = 0; i < all.length; i++) {
    await new Promise((turn) => setImmediate(turn));
    ends.forEach((end) => end());
  }
  await Promise.all(all);
  assert.equal(started.length, all.length);
});
