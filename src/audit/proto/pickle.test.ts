/** The data-only pickle codec carbon's protocols need: what we send decodes as sent; code is refused. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pickleDatapoints, pickleDict, unpickle } from './pickle.ts';

test('our pickles decode to what was pickled', () => {
  assert.deepEqual(unpickle(pickleDict({ type: 'cache-query', metric: 'vigil.é' })), {
    type: 'cache-query',
    metric: 'vigil.é',
  });
  assert.deepEqual(unpickle(pickleDatapoints([['a.b', 1700000000, 1]])), [['a.b', [1700000000, 1]]]);
  assert.deepEqual(unpickle(pickleDatapoints([])), []);
});

test("Python's own pickles of carbon's replies (protocols 2 and 4, memo and frames) decode", () => {
  // pickle.dumps({'datapoints': []}, protocol=2)
  const p2 = Buffer.from('80027d7100580a00000064617461706f696e747371015d7102732e', 'hex');
  assert.deepEqual(unpickle(p2), { datapoints: [] });
  // pickle.dumps({'datapoints': [(1700000000, 1.5)]}, protocol=4)
  const p4 = Buffer.from(
    '80049524000000000000007d948c0a64617461706f696e7473945d944a00f15365473ff8000000000000869461732e',
    'hex',
  );
  assert.deepEqual(unpickle(p4), { datapoints: [[1700000000, 1.5]] });
});

test('a pickle that imports or calls anything is refused, never interpreted', () => {
  // pickle.dumps(os.system) shape: GLOBAL 'posix system', then REDUCE.
  assert.equal(unpickle(Buffer.from("cposix\nsystem\n(S'id'\ntR.", 'latin1')), null);
  assert.equal(unpickle(Buffer.from('not a pickle')), null);
  assert.equal(unpickle(Buffer.from([0x80, 2, 0x58, 0xff, 0, 0, 0])), null);
});
