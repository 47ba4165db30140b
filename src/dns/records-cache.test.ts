import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RecordsCache, type RecordsReply } from './records-cache.ts';

const reply = (n: number): RecordsReply =>
  Object.fromEntries(
    Array.from({ length: n }, (_, i) => [String(i + 1), { seq: String(i + 1), type: 'A', data: { name: `h${i}` } }]),
  );

test('a reply is used only for the version it was built for', () => {
  const cache = new RecordsCache(100);
  const r = reply(3);
  cache.set(1, 5, r, 3);
  assert.equal(cache.get(1, 5), r);
  assert.equal(cache.get(1, 6), undefined, 'a write raised the version: rebuilt');
  assert.equal(cache.get(2, 5), undefined, 'another domain');
});

test('a reply built for an older version does not replace a newer one', () => {
  const cache = new RecordsCache(100);
  const newer = reply(2);
  cache.set(1, 7, newer, 2);
  cache.set(1, 6, reply(1), 1); // a slow read that began before the write
  assert.equal(cache.get(1, 7), newer);
  assert.equal(cache.get(1, 6), undefined);
});

test('bounded by records held: the least recently used goes first, a reply over the bound is not kept', () => {
  const cache = new RecordsCache(10);
  cache.set(1, 1, reply(4), 4);
  cache.set(2, 1, reply(4), 4);
  assert.ok(cache.get(1, 1)); // 1 is now the most recently used
  cache.set(3, 1, reply(4), 4); // 12 > 10: domain 2 goes
  assert.equal(cache.get(2, 1), undefined);
  assert.ok(cache.get(1, 1));
  assert.ok(cache.get(3, 1));
  cache.set(4, 1, reply(11), 11);
  assert.equal(cache.get(4, 1), undefined);
  assert.ok(cache.get(1, 1), 'the others stay');
});
