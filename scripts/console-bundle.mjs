// The web console's bundle (issue 17): web/main.tsx and what it imports
// (the shared report renderer, the client's types) as one ES module, and
// web/style.css. `npm ci` writes it to dist/console/ (scripts/build.mjs);
// `serve` uses that copy while it matches the sources and otherwise
// bundles in memory at the first request (src/console/routes.ts), so the
// console can never be stale, like bin/vigil's tsx fallback.
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, sourceState } from './dist.mjs';

const WEB = join(ROOT, 'web');
export const CONSOLE_DIST = join(ROOT, 'dist', 'console-bundle');
const FILES = { js: 'console.js', css: 'console.css', state: '.sources.json' };

/** Everything the bundle reads: web/ and src/ (sizes and mtimes, as dist.mjs). */
export function consoleState() {
  const state = sourceState();
  for (const f of readdirSync(WEB, { recursive: true }).map(String).sort()) {
    const s = statSync(join(WEB, f));
    if (s.isFile()) state[join('web', f)] = `${s.size}:${s.mtimeMs}`;
  }
  return JSON.stringify(state);
}

export async function bundleConsole() {
  const { build } = await import('esbuild');
  const out = await build({
    entryPoints: [join(WEB, 'main.tsx')],
    bundle: true,
    write: false,
    format: 'esm',
    target: 'es2022',
    minify: true,
    jsx: 'automatic',
    jsxImportSource: 'preact',
    legalComments: 'none',
    logLevel: 'silent',
  });
  return { js: out.outputFiles[0].text, css: readFileSync(join(WEB, 'style.css'), 'utf8') };
}

/** Bundles into dist/; the state is taken first, so a source edited meanwhile no longer matches. */
export async function writeConsoleBundle() {
  const state = consoleState();
  const { js, css } = await bundleConsole();
  mkdirSync(CONSOLE_DIST, { recursive: true });
  writeFileSync(join(CONSOLE_DIST, FILES.js), js);
  writeFileSync(join(CONSOLE_DIST, FILES.css), css);
  writeFileSync(join(CONSOLE_DIST, FILES.state), state);
}

/** The bundle `npm ci` wrote, when it still matches web/ and src/; else null. */
export function builtConsole() {
  try {
    if (readFileSync(join(CONSOLE_DIST, FILES.state), 'utf8') !== consoleState()) return null;
    return {
      js: readFileSync(join(CONSOLE_DIST, FILES.js), 'utf8'),
      css: readFileSync(join(CONSOLE_DIST, FILES.css), 'utf8'),
    };
  } catch {
    return null;
  }
}
