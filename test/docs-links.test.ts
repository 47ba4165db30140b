import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';

const ROOT = resolve(import.meta.dirname, '..');
/** The README and every page of docs/: what a user's clone holds to read. */
const PAGES = [
  join(ROOT, 'README.md'),
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => join(ROOT, 'docs', f)),
];
const text = new Map(PAGES.map((p) => [p, readFileSync(p, 'utf8')]));

/** The text outside fenced code blocks (a `# comment` in a shell block is no heading). */
const prose = (md: string) => md.replace(/^```[\s\S]*?^```/gm, '');

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
const slug = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

/** The anchors of a page, a repeated heading numbered as GitHub numbers it. */
function anchors(md: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const m of prose(md).matchAll(/^#{1,6} (.+)$/gm)) {
    const base = slug(m[1]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n ? `${base}-${n}` : base);
  }
  return out;
}

test('every link of the README and docs/ leads to a file of the tree, and an anchor to a heading there', () => {
  const broken: string[] = [];
  for (const [page, md] of text) {
    for (const m of prose(md).matchAll(/\]\(([^)\s]+)\)/g)) {
      const link = m[1]!;
      if (/^[a-z][a-z+.-]*:/i.test(link)) continue; // https:, mailto:: not ours to check
      const [path, anchor] = link.split('#') as [string, string | undefined];
      const target = path ? resolve(dirname(page), path) : page;
      const where = `${relative(ROOT, page)}: ${link}`;
      if (!existsSync(target)) broken.push(`${where} (no such file)`);
      else if (anchor && target.endsWith('.md') && !anchors(readFileSync(target, 'utf8')).has(anchor))
        broken.push(`${where} (no such heading)`);
    }
  }
  assert.deepEqual(broken, []);
});

test('every path of the tree that the README and docs/ name exists', () => {
  const missing: string[] = [];
  for (const [page, md] of text)
    for (const m of md.matchAll(
      /(?<![\w/.-])((?:docs|src|test|bench|scripts|web|packaging|native|bin|\.ci)\/[\w./-]*\w)(\*)?/g,
    ))
      if (!m[2] && !existsSync(join(ROOT, m[1]!))) missing.push(`${relative(ROOT, page)}: ${m[1]}`);
  assert.deepEqual(missing, []);
});

test('the docs stand alone: no page sends the reader to a document a clone does not hold (issue 29)', () => {
  const outside: string[] = [];
  for (const [page, md] of text)
    for (const line of md.split('\n'))
      if (
        /ARCHITECTURE\.md|INTERFACE\.md|\.\.\/shared\/|\bthe spec\b|\bspec's\b|\bspec (?:\d|section|note)/i.test(line)
      )
        outside.push(`${relative(ROOT, page)}: ${line.trim()}`);
  assert.deepEqual(outside, [], 'say docs/api.md (the contract) or explain in place');
});

test('the README stays short: set-up, first steps, the tour, a performance table (issue 29)', () => {
  const lines = text.get(join(ROOT, 'README.md'))!.split('\n').length;
  assert.ok(lines < 250, `README.md has ${lines} lines; the rest belongs in docs/ (docs/performance.md for benches)`);
});
