/**
 * The kit's rules, read off the tree: every check file is in the catalogue,
 * ids stay unique, no check opens a socket itself, and detection and the
 * checks never import each other (issue 27).
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { CHECKS, FILES } from './catalogue.ts';

const HERE = dirname(fileURLToPath(import.meta.url));
const AUDIT = resolve(HERE, '..');
/** Folders of src/audit/checks/ that hold no check files: shared data tables and helpers. */
const NOT_FAMILIES = new Set(['data', 'lib']);

const walk = (dir: string): string[] =>
  readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? walk(p) : /\.ts$/.test(n) && !/\.test\.ts$/.test(n) ? [p] : [];
  });

/** Check files: the .ts files directly in a family folder (helpers live in its lib/). */
function checkFiles(): string[] {
  return readdirSync(HERE)
    .filter((d) => statSync(join(HERE, d)).isDirectory() && !NOT_FAMILIES.has(d))
    .flatMap((d) =>
      readdirSync(join(HERE, d))
        .filter((n) => n.endsWith('.ts') && !n.endsWith('.test.ts'))
        .map((n) => `${d}/${n}`),
    )
    .sort();
}

test('every check file of src/audit/checks/<family>/ is in the catalogue, and only those', () => {
  assert.deepEqual(Object.keys(FILES).sort(), checkFiles());
});

test('ids and short ids are unique; each check declares its class first and once', () => {
  const ids = CHECKS.map((c) => c.id);
  assert.equal(new Set(ids).size, ids.length, 'duplicate id');
  assert.equal(new Set(CHECKS.map((c) => c.shortid)).size, ids.length, 'duplicate shortid');
  for (const c of CHECKS) {
    const classes = c.categories.filter((x) => x === 'safe' || x === 'intrusive' || x === 'dos');
    assert.deepEqual(classes, [c.categories[0]], c.id);
    assert.equal(new Set(c.categories).size, c.categories.length, `${c.id}: a category twice`);
  }
});

test('no check file opens a socket itself: network access goes through src/audit/proto/', () => {
  const bad: string[] = [];
  for (const f of walk(HERE)) {
    const src = readFileSync(f, 'utf8');
    const at = relative(HERE, f);
    // Node's socket modules, for anything beyond their address helpers (isIP).
    for (const m of src.matchAll(/^import \{([^}]*)\} from 'node:(?:net|tls|dgram|http|https)'/gm))
      if (m[1]!.split(',').some((n) => !/^\s*(type\s+\w+|isIP(v4|v6)?)\s*$/.test(n)))
        bad.push(`${at}: node socket module`);
    if (/\.(connect|connectTls|udpRequest)\(/.test(src)) bad.push(`${at}: opens a connection`);
  }
  assert.deepEqual(bad, []);
});

/** Relative imports of a module, resolved to files. */
function importsOf(file: string): string[] {
  const src = readFileSync(file, 'utf8');
  return [...src.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)]
    .map((m) => resolve(dirname(file), m[1]!))
    .filter((p) => existsSync(p));
}

/** Every module reachable from `roots` through relative imports (type-only ones included: a cycle of types is still one). */
function reachable(roots: string[]): Set<string> {
  const seen = new Set<string>();
  const todo = [...roots];
  while (todo.length) {
    const f = todo.pop()!;
    if (seen.has(f)) continue;
    seen.add(f);
    todo.push(...importsOf(f));
  }
  return seen;
}

test('detection and the checks do not import each other; the protocol clients import neither', () => {
  const rel = (s: Set<string>) => [...s].map((f) => relative(AUDIT, f));
  const detection = [join(AUDIT, 'engine/detect.ts')];
  const checks = walk(HERE);
  const isCheck = (f: string) => f.startsWith('checks/');
  const isDetect = (f: string) =>
    f === 'engine/detect.ts' || f.startsWith('engine/detect/') || f.startsWith('engine/service-probes');
  assert.deepEqual(rel(reachable(detection)).filter(isCheck), [], 'detection reaches the checks');
  const fromChecks = rel(reachable(checks.filter((f) => !relative(AUDIT, f).startsWith('checks/catalogue'))));
  assert.deepEqual(fromChecks.filter(isDetect), [], 'the checks reach detection');
  const fromProto = rel(reachable(walk(join(AUDIT, 'proto'))));
  assert.deepEqual(
    fromProto.filter((f) => isCheck(f) || isDetect(f)),
    [],
    'proto/ reaches detection or the checks',
  );
});
