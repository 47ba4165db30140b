import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * Long builds in slices (issue 32). Indexing a signed 100,000-record zone
 * (300,000 records with its RRSIGs and NSECs) took about 2 s of one
 * thread on an idle core and 3.5 s on the loaded VM (bench/sign-stall.ts,
 * docs/performance.md): run in one piece on the main thread, every DNS
 * miss and API call waited for it. The builders are generators that
 * yield every STEP items; `sliced` runs one a few milliseconds at a time
 * and lets the event loop turn in between, `drain` runs it in one go
 * (a publish's test load, the catalog, the signing thread). Whoever
 * builds keeps answering from the old version until the new one is whole.
 */
export type Steps<T> = Generator<void, T, void>;

/** Items a builder handles between two yields: a yield costs a generator resume, ~0.1 µs, next to ~3 µs an item. */
export const STEP = 256;

/** Event-loop time a slice may take: well under the 20 ms of bench/sign-stall.ts's DNS probe. */
export const SLICE_MS = 8;

export function drain<T>(steps: Steps<T>): T {
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

export async function sliced<T>(steps: Steps<T>, sliceMs = SLICE_MS): Promise<T> {
  let start = performance.now();
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
    if (performance.now() - start >= sliceMs) {
      // setImmediate runs after the poll phase: pending sockets (DNS, HTTP) are served first.
      await nextTurn();
      start = performance.now();
    }
  }
}

/** Pushes `items` onto `into`, yielding every STEP (a spread of 300,000 items is one long piece). */
export function* pushAll<T>(into: T[], items: Iterable<T>): Steps<void> {
  let n = 0;
  for (const x of items) {
    into.push(x);
    if (++n % STEP === 0) yield;
  }
}

/** Whether `xs` is sorted by `cmp` (one pass: cheaper than a sort of what is already in order). */
export function inOrder<T>(xs: readonly T[], cmp: (a: T, b: T) => number): boolean {
  for (let i = 1; i < xs.length; i++) if (cmp(xs[i - 1]!, xs[i]!) > 0) return false;
  return true;
}
