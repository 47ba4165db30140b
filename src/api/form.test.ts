import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MALFORMED, parseForm } from './form.ts';

test('reads form fields, + as space, UTF-8 escapes', () => {
  const f = parseForm('a=1&b=x+y&c=%C3%BC&d=&e');
  assert.deepEqual(
    [...f],
    [
      ['a', '1'],
      ['b', 'x y'],
      ['c', 'ü'],
      ['d', ''],
      ['e', ''],
    ],
  );
});

test('repeated keys, NUL, bad escapes and invalid UTF-8 become MALFORMED', () => {
  const f = parseForm('a=1&a=2&n=%00&p=%zz&q=%&u=%ff&v=%c0%80&ok=fine');
  for (const k of ['a', 'n', 'p', 'q', 'u', 'v']) assert.equal(f.get(k), MALFORMED, k);
  assert.equal(f.get('ok'), 'fine');
});

test('a name that cannot be decoded names no field', () => {
  assert.deepEqual([...parseForm('%zz=1&b=2')], [['b', '2']]);
});

test('a raw NUL byte is MALFORMED too, with or without escapes around it (the no-escape fast path checks it)', () => {
  const f = parseForm('a=x\u0000y&b=%41\u0000&c=plain&d\u0000=1&e=a%2Bb');
  assert.equal(f.get('a'), MALFORMED);
  assert.equal(f.get('b'), MALFORMED);
  assert.equal(f.get('c'), 'plain');
  assert.equal(f.has('d\u0000'), false);
  assert.equal(f.get('e'), 'a+b');
});
