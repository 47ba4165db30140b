// Which test files scripts/test.mjs runs, and in what order (issue 32: the
// suite on two engines in under 12 minutes on 2 cores).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '..');
/** Where the last run's per-file durations are kept (test-artifacts/ is not in git). */
export const DURATIONS = join(ROOT, 'test-artifacts', 'test-durations.json');

/** Every *.test.ts under `dir`, relative to the repository root. */
export function findTests(dir) {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : findTests(p);
    return e.name.endsWith('.test.ts') ? [p] : [];
  });
}

// Relative imports and re-exports, static or dynamic; `import type` is erased at run time and left out.
const IMPORT =
  /(?:^|[\s;])(?:import|export)\s+(?!type\s)(?:[^'";]*?\sfrom\s+)?['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/g;

/**
 * Whether a test file can touch a store: its imports, followed through every
 * relative import, reach src/store/ or test/helpers/pgdb.ts (what gives an
 * app, a `serve` or an `admin` its PostgreSQL database), or a file on the
 * way names `bin/vigil` or VIGIL_TEST_DB (a process started by path). Read
 * from the code rather than declared in each file, so that a file which
 * starts to open a store is run on both engines without anyone remembering
 * to say so; a file counted as store-dependent that is not only costs a
 * second run.
 */
export function storeDependence() {
  const memo = new Map();
  const visit = (file, path) => {
    if (memo.has(file)) return memo.get(file);
    if (path.has(file)) return false; // a cycle: decided where it started
    path.add(file);
    const rel = relative(ROOT, file);
    let depends = rel.startsWith(join('src', 'store') + '/') || rel === join('test', 'helpers', 'pgdb.ts');
    if (!depends) {
      const text = readFileSync(file, 'utf8');
      depends = /VIGIL_TEST_DB|bin\/vigil/.test(text);
      for (const m of depends ? [] : text.matchAll(IMPORT)) {
        let target = resolve(dirname(file), m[1] ?? m[2]);
        if (!existsSync(target) && existsSync(`${target}.ts`)) target += '.ts';
        if (!/\.(ts|mjs|js)$/.test(target) || !existsSync(target)) continue;
        if (visit(target, path)) {
          depends = true;
          break;
        }
      }
    }
    path.delete(file);
    memo.set(file, depends);
    return depends;
  };
  return (testFile) => visit(resolve(ROOT, testFile), new Set());
}

/**
 * Longest first, by the last run's durations (test-artifacts/test-durations.json),
 * so that a long file does not start last and run alone at the end; files
 * without a figure (new ones, a fresh clone) first of all, integration tests
 * (test/) before unit tests.
 */
export function longestFirst(files) {
  let last = {};
  try {
    last = JSON.parse(readFileSync(DURATIONS, 'utf8'));
  } catch {}
  const known = (f) => last[resolve(ROOT, f)];
  const rank = (f) => [known(f) === undefined ? 0 : 1, f.startsWith('test/') ? 0 : 1, -(known(f) ?? 0), f];
  return [...files].sort((a, b) => {
    const [x, y] = [rank(a), rank(b)];
    for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return x[i] < y[i] ? -1 : 1;
    return 0;
  });
}
