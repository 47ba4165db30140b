// Whether dist/ (JavaScript that scripts/build.mjs compiles at `npm ci`)
// still matches the TypeScript sources. bin/vigil asks at every start, so
// this only stats files: reading and hashing ~130 sources would cost more
// than it saves. A build records each compiled source's size and mtime;
// any edit, added or removed file changes the record, and bin/vigil then
// runs the sources through tsx instead of stale JavaScript.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '..');
export const DIST = join(ROOT, 'dist');
export const MANIFEST = join(DIST, '.sources.json');
/** Compile settings are inputs too: a changed option needs a new build. */
const CONFIGS = ['tsconfig.json', 'tsconfig.build.json'];

/** `path -> "size:mtime"` of every file the build reads. */
export function sourceState() {
  const src = join(ROOT, 'src');
  const files = readdirSync(src, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
    .map((f) => join('src', f))
    .concat(CONFIGS)
    .sort();
  const state = {};
  for (const f of files) {
    const s = statSync(join(ROOT, f));
    state[f] = `${s.size}:${s.mtimeMs}`;
  }
  return state;
}

export function distIsFresh() {
  let recorded;
  try {
    recorded = readFileSync(MANIFEST, 'utf8');
  } catch {
    return false;
  }
  try {
    return recorded === JSON.stringify(sourceState());
  } catch {
    return false;
  }
}
