import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { test } from 'node:test';
import { DOC_BEGIN, DOC_END, DOC_FILE, recordTypesDoc } from './doc.ts';

test('docs/dns.md lists every record type as the table declares it (VIGIL_WRITE_DOCS=1 rewrites the block)', () => {
  const text = readFileSync(DOC_FILE, 'utf8');
  const begin = text.indexOf(DOC_BEGIN);
  const end = text.indexOf(DOC_END);
  assert.ok(begin >= 0 && end > begin, `${DOC_FILE} has the record types block`);
  const current = text.slice(begin, end + DOC_END.length);
  if (process.env.VIGIL_WRITE_DOCS) writeFileSync(DOC_FILE, text.replace(current, recordTypesDoc()));
  else assert.equal(current, recordTypesDoc());
});
