/**
 * Child process of bench/detection.ts: starts the fleet (real Debian
 * daemons, and the two Node imitations in this process), prints one JSON
 * line {ready, up, skipped, notes, groups} on stdout, and stops it all on
 * SIGTERM/SIGINT or when the parent goes away (stdin ends). Kept out of
 * the parent so that the imitations never wait on the scanner's event loop.
 */
import { startFleet, stopFleet } from './fleet/index.ts';

let closing = false;
async function close(code: number): Promise<never> {
  if (!closing) {
    closing = true;
    await Promise.race([stopFleet(), new Promise((r) => setTimeout(r, 15_000))]);
  }
  process.exit(code);
}

// A scanner's odd input must cost one connection, never the whole fleet.
process.on('uncaughtException', (err) => process.stderr.write(`bench fleet error (kept serving): ${err.message}\n`));
process.on('SIGTERM', () => void close(0));
process.on('SIGINT', () => void close(0));
process.stdin.on('end', () => void close(0));
process.stdin.resume();

try {
  const only = process.env.VIGIL_BENCH_KINDS ? new Set(process.env.VIGIL_BENCH_KINDS.split(',')) : undefined;
  const status = await startFleet(only);
  process.stdout.write(`${JSON.stringify({ ready: true, ...status })}\n`);
} catch (err) {
  process.stdout.write(`${JSON.stringify({ ready: false, error: String((err as Error).stack ?? err) })}\n`);
  await close(1);
}
