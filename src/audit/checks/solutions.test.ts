import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findingFacts } from '../engine/finding-facts.ts';
import { CHECKS } from './catalogue.ts';

test('every check in the catalogue says what to do: a solution of one or two sentences, not repeated in its description', () => {
  const bad: string[] = [];
  for (const c of CHECKS) {
    const s = c.solution?.trim() ?? '';
    const sentences = s.split(/(?<=[.!?])\s+(?=[A-Z])/).length;
    if (s.length < 20 || !/[.)]$/.test(s) || sentences > 2) bad.push(`${c.id}: "${s}"`);
    else if (c.description.includes(s)) bad.push(`${c.id}: the description repeats the solution`);
    if (findingFacts(c, { port: 1, detail: '' }).solution !== s) bad.push(`${c.id}: findingFacts lost the solution`);
  }
  assert.deepEqual(bad, []);
  assert.ok(CHECKS.length >= 100, `${CHECKS.length} checks`);
});
