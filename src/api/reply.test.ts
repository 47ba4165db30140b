import assert from 'node:assert/strict';
import { test } from 'node:test';
import { success, successText } from './reply.ts';

const deepFreeze = <T>(o: T): T => {
  if (o && typeof o === 'object') {
    Object.values(o).forEach(deepFreeze);
    Object.freeze(o);
  }
  return o;
};

test('the reply text is what JSON.stringify gives: key order, undefined left out, nested values', () => {
  const fields = {
    domain: 'example.org',
    state: 1,
    hold: false,
    skipped: undefined,
    records: { '10': { seq: '10', data: { name: '', ip: '192.0.2.1' } }, '2': { seq: '2' } },
    list: [1, 'two', null],
  };
  assert.equal(successText(fields), JSON.stringify(success(fields)));
  assert.equal(successText({}), '{"status":"0"}');
  assert.equal(successText({ skipped: undefined }), '{"status":"0"}');
  // A field named `status` takes the spread's path: the same text as before.
  assert.equal(successText({ status: 'x', n: 1 }), JSON.stringify(success({ status: 'x', n: 1 })));
  const frozen = deepFreeze({ records: { '3': { seq: '3', type: 'A', data: { name: 'www', ip: '192.0.2.3' } } } });
  assert.equal(successText(frozen), JSON.stringify(success(frozen)));
});

test('a cached text is never stale: a new object gets its own, an object not deeply frozen is serialized every time', () => {
  const v1 = deepFreeze({ '1': { seq: '1', data: { ip: '192.0.2.1' } } });
  assert.match(successText({ records: v1 }), /192\.0\.2\.1/);
  assert.match(successText({ records: v1 }), /192\.0\.2\.1/);
  // The next version is a new object: its own text.
  const v2 = deepFreeze({ '1': { seq: '1', data: { ip: '192.0.2.2' } } });
  assert.match(successText({ records: v2 }), /192\.0\.2\.2/);
  // Frozen on top only (its records can still change): never cached.
  const shallow = Object.freeze({ '1': { seq: '1', data: { ip: '192.0.2.7' } } });
  assert.match(successText({ records: shallow }), /192\.0\.2\.7/);
  (shallow['1'].data as { ip: string }).ip = '192.0.2.8';
  assert.match(successText({ records: shallow }), /192\.0\.2\.8/);
  // Not frozen at all: serialized every time.
  const open: { n: number } = { n: 1 };
  assert.equal(successText({ open }), '{"status":"0","open":{"n":1}}');
  open.n = 2;
  assert.equal(successText({ open }), '{"status":"0","open":{"n":2}}');
});
