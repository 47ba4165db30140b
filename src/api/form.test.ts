import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MALFORMED, parseForm } from './form.ts';

test('reads form fields, + as space, UTF-8 escapes', () => {
  const f = parseForm('a=1&b=x+y&c=%C3%BC&d=&e');
  assert.deepEqual([...f], [['a', '1'], ['b', 'x y'], ['c', 'ü'], ['d', ''], ['e', '']]);
});

test('repeated keys, NUL, bad escapes and invalid UTF-8 become MALFORMED', () => {
  const f = parseForm('a=1&a=2&n=%00&p=%zz&q=%&u=%ff&v=%c0%80&ok=fine');
  for (const k of ['a', 'n', 'p', 'q', 'u', 'v']) assert.equal(f.get(k), MALFORMED, k);
  assert.equal(f.get('ok'), 'fine');
});

test('a name that cannot be decoded names no field', () => {
  assert.deepEqual([...parseForm('%zz=1&b=2')], [['b', '2']]);
});
