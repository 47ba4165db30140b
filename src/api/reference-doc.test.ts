import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { test } from 'node:test';
import { BEGIN, END, referenceBlock } from './reference-doc.ts';

const DOC = new URL('../../docs/api-reference.md', import.meta.url);

test('docs/api-reference.md holds the script table as served (VIGIL_WRITE_DOCS=1 rewrites the block)', () => {
  const doc = readFileSync(DOC, 'utf8');
  const start = doc.indexOf(BEGIN);
  const end = doc.indexOf(END);
  assert.ok(start >= 0 && end > start, 'docs/api-reference.md has the generated block');
  const fresh = referenceBlock();
  if (process.env.VIGIL_WRITE_DOCS === '1') {
    writeFileSync(DOC, doc.slice(0, start) + fresh + doc.slice(end + END.length));
    return;
  }
  assert.equal(
    doc.slice(start, end + END.length),
    fresh,
    'the doc disagrees with the table: VIGIL_WRITE_DOCS=1 node --import tsx --test src/api/reference-doc.test.ts',
  );
});
