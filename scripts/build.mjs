// Compiles src/ to dist/ with tsc (runs at `npm ci`, as the `prepare`
// script, and by hand as `npm run build`). bin/vigil runs dist/ when it
// matches the sources (scripts/dist.mjs) and tsx otherwise, so a failed or
// skipped build costs start-up time, not service: like the native addon,
// it warns and lets the install finish.
// Then it bundles the web console (scripts/console-bundle.mjs).
// It writes declarations too (tsconfig.build.json): package.json exports
// dist/client/ as the typed client `vigil/client`.
import { spawnSync } from 'node:child_process';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DIST, MANIFEST, ROOT, sourceState } from './dist.mjs';

const warn = (why) => {
  console.warn(`vigil: ${why}; bin/vigil runs the TypeScript sources through tsx (slower start)`);
  process.exit(0);
};

const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
// `npm ci --omit=dev` leaves typescript out.
if (!existsSync(tsc)) warn('typescript is not installed, dist/ not built');
// Recorded before compiling: a source edited meanwhile no longer matches.
const state = sourceState();
rmSync(DIST, { recursive: true, force: true });
const run = spawnSync(process.execPath, [tsc, '-p', join(ROOT, 'tsconfig.build.json')], {
  stdio: 'inherit',
  cwd: ROOT,
});
if (run.status !== 0) {
  rmSync(DIST, { recursive: true, force: true });
  warn(`tsc failed (exit ${run.status ?? run.signal}), dist/ not built`);
}
// Written last: its presence marks a complete build.
writeFileSync(MANIFEST, JSON.stringify(state));
console.log(`vigil: compiled src/ to dist/`);
// The web console's bundle; serve bundles in memory when this is missing or stale.
try {
  const { writeConsoleBundle } = await import('./console-bundle.mjs');
  await writeConsoleBundle();
  console.log('vigil: bundled the web console to dist/console-bundle/');
} catch (err) {
  console.warn(`vigil: the web console was not bundled (${err.message}); serve bundles it at the first request`);
}
