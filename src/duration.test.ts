import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseDuration } from './duration.ts';

test('DUR accepts ms, s, m, h, d', () => {
  assert.equal(parseDuration('500ms'), 500);
  assert.equal(parseDuration('2s'), 2000);
  assert.equal(parseDuration('5m'), 300_000);
  assert.equal(parseDuration('24h'), 86_400_000);
  assert.equal(parseDuration('7d'), 7 * 86_400_000);
});

test('DUR rejects everything else', () => {
  for (const bad of ['', '5', 'm', '0s', '-1s', '1.5s', '5 minutes', '1w'])
    assert.throws(() => parseDuration(bad), /invalid|more than zero/, bad);
});
