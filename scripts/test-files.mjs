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
 * A test file that opens a store only to hold what its subject needs (an account, a zone) while what it
 * tests lives above the API or beside the store (transport, listeners, the DNS wire and rate limiting, the
 * console, the user CLI, the docs' examples) says so on a line of its own, with the reason:
 *   // store-incidental: <why the engine changes nothing here>
 * and runs once (the SQLite pass), like a store-independent file. Beside the code, so that whoever adds a
 * case that does depend on the store sees the line to remove (docs/development.md).
 */
export const INCIDENTAL = /^\/\/ store-incidental: \S/m;

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
  return (testFile) => {
    const file = resolve(ROOT, testFile);
    return !INCIDENTAL.test(readFileSync(file, 'utf8')) && visit(file, new Set());
  };
}

/**
 * The order a clone without a run of its own starts from: each file's time (ms) in a measured run, by
 * relative path (scripts/test-order.json, kept in git; docs/development.md says how to refresh it).
 * Without it every file of a fresh clone (CI) is new, and new files go by name.
 */
export const SEED = join(ROOT, 'scripts', 'test-order.json');

/**
 * Longest first, by the last run's durations (test-artifacts/test-durations.json), else the seed's;
 * so that a long file does not start last and run alone at the end; files without a figure (new ones)
 * first of all, integration tests (test/) before unit tests.
 */
export function longestFirst(files) {
  const read = (path) => {
    try {
      return JSON.parse(readFileSync(path, 'utf8'));
    } catch {
      return {};
    }
  };
  const seed = read(SEED);
  const last = read(DURATIONS);
  const known = (f) => last[resolve(ROOT, f)] ?? seed[relative(ROOT, resolve(ROOT, f))];
  const rank = (f) => [known(f) === undefined ? 0 : 1, f.startsWith('test/') ? 0 : 1, -(known(f) ?? 0), f];
  return [...files].sort((a, b) => {
    const [x, y] = [rank(a), rank(b)];
    for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return x[i] < y[i] ? -1 : 1;
    return 0;
  });
}
