// The web console (issue 17): one HTML page, one script, one stylesheet,
// all from this server. `npm ci` bundles the script from web/ with esbuild
// (scripts/console-bundle.mjs, called by scripts/build.mjs); while that copy
// matches web/ and src/ it is served, otherwise the server bundles in
// memory at the first request (a cold bundle took 0.14 s on the 2-core dev
// machine), so like bin/vigil's tsx fallback the console is never stale
// against the sources. esbuild is a dependency (not only a dev one) for
// that fallback; it ships its binary as an npm optional dependency, so
// nothing downloads at install beyond the registry.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FastifyInstance, FastifyReply } from 'fastify';

/** scripts/ sits two levels above both src/console/ and dist/console/. */
const BUNDLER = pathToFileURL(resolve(import.meta.dirname, '../../scripts/console-bundle.mjs')).href;

// No inline script or style anywhere, so the policy needs no 'unsafe-inline'.
// Preact sets styles through the CSSOM (element.style), which CSP allows.
// connect-src 'self': the console talks to /api on this origin and nowhere else.
export const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Vigil console</title>
<link rel="stylesheet" href="/console.css">
<script type="module" src="/console.js"></script>
</head>
<body>
<noscript>The Vigil console needs JavaScript. The same operations are in the HTTPS API under /api and in the vigil command.</noscript>
<div id="app"></div>
</body>
</html>
`;

interface Bundle {
  js: string;
  css: string;
}

let bundle: Promise<Bundle> | null = null;

interface Bundler {
  builtConsole(): Bundle | null;
  bundleConsole(): Promise<Bundle>;
}

async function build(): Promise<Bundle> {
  // A plain .mjs shared with the build script (no types to check here).
  const bundler = (await import(BUNDLER)) as Bundler;
  return bundler.builtConsole() ?? bundler.bundleConsole();
}

function getBundle(): Promise<Bundle> {
  bundle ??= build().catch((err) => {
    bundle = null;
    throw err;
  });
  return bundle;
}

function secure(reply: FastifyReply, type: string): FastifyReply {
  return reply
    .type(type)
    .header('content-security-policy', CSP)
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer')
    .header('cross-origin-opener-policy', 'same-origin')
    .header('cache-control', 'no-cache');
}

/** GET /, /console.js and /console.css on the HTTPS server; /api stays as it is. */
export function registerConsole(app: FastifyInstance): void {
  app.get('/', (_req, reply) => secure(reply, 'text/html; charset=utf-8').send(PAGE));
  app.get('/console.js', async (_req, reply) =>
    secure(reply, 'text/javascript; charset=utf-8').send((await getBundle()).js),
  );
  app.get('/console.css', async (_req, reply) =>
    secure(reply, 'text/css; charset=utf-8').send((await getBundle()).css),
  );
}
