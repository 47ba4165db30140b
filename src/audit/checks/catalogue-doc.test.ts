import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { test } from 'node:test';
import type { AuditType } from '../types.ts';
import { CHECKS } from './catalogue.ts';
import { checksFor } from '../engine/profiles.ts';
import { checkQod } from '../engine/qod.ts';
import { describePorts } from './kit.ts';

const DOC = new URL('../../../docs/audit-checks.md', import.meta.url);
const BEGIN = '<!-- checks:begin (generated from the catalogue by src/audit/checks/catalogue-doc.test.ts) -->';
const END = '<!-- checks:end -->';
const TYPES: readonly AuditType[] = ['basic', 'norisk', 'desktop', 'standard', 'advanced'];

/** The table of docs/audit-checks.md: every check; a version-table check says how many CVEs its table has. */
export function checksTable(): string {
  const runs = new Map(TYPES.map((t) => [t, new Set(checksFor(t, false).map((c) => c.id))]));
  const marks = (id: string) => TYPES.map((t) => (runs.get(t)!.has(id) ? '✓' : '')).join(' | ');
  const rows: string[] = [];
  for (const c of CHECKS) {
    const id = /^vigil\.version\.\w+$/.test(c.id) ? `\`${c.id}\` (${c.cves.length} CVEs)` : `\`${c.id}\``;
    const qod = /^vigil\.version\.\w+$/.test(c.id) ? '80 / 30' : String(checkQod(c));
    rows.push(
      `| ${id} | ${c.family} | ${c.categories.join(', ')} | ${describePorts(c.ports)} | ${qod} | ${marks(c.id)} |`,
    );
  }
  return [
    BEGIN,
    '',
    `| check | family | categories (class first) | ports | QoD | ${TYPES.join(' | ')} |`,
    `|---|---|---|---|---|${TYPES.map(() => '---').join('|')}|`,
    ...rows,
    '',
    `${CHECKS.length} checks. \`excludedos\` removes every check of class dos from each type.`,
    '',
    END,
  ].join('\n');
}

test('docs/audit-checks.md lists every check with the audit types that run it (VIGIL_WRITE_DOCS=1 rewrites the list)', () => {
  const doc = readFileSync(DOC, 'utf8');
  const start = doc.indexOf(BEGIN);
  const end = doc.indexOf(END);
  assert.ok(start >= 0 && end > start, 'docs/audit-checks.md has the generated block');
  const fresh = checksTable();
  if (process.env.VIGIL_WRITE_DOCS === '1') {
    writeFileSync(DOC, doc.slice(0, start) + fresh + doc.slice(end + END.length));
    return;
  }
  assert.equal(
    doc.slice(start, end + END.length),
    fresh,
    'the catalogue changed: regenerate with VIGIL_WRITE_DOCS=1 node scripts/test.mjs src/audit/checks/catalogue-doc.test.ts',
  );
});
