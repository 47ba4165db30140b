/**
 * Which addresses the port scan may start on, filled in by host discovery
 * as its answers come (scan.ts). A live host's port scan starts as soon as
 * it answers, not when discovery gives up on the last empty address:
 * bench/wan.ts measured the /24's scan ending at 7.5 s for 100 ports as
 * for 1,021, every live host idle until discovery ended at ~4.1 s (its 214
 * empty addresses waited 1 s, then 2 s).
 *
 * Shared memory, so the worker threads of the port scan see it without
 * messages: their poll loop blocks and never returns to their event loop
 * (job.ts). Per address: WAIT, UP or DOWN, and the RTT discovery measured.
 */
const WAIT = 0;
const UP = 1;
const DOWN = 2;

export interface Gate {
  /** One state per address, then a counter bumped after each change. */
  state: Int32Array;
  /** Per address: srtt, rttvar (ms), NaN when nothing was measured. */
  seeds: Float64Array;
}

export interface Seed {
  srtt: number;
  rttvar: number;
}

export function createGate(n: number): Gate {
  const seeds = new Float64Array(new SharedArrayBuffer(16 * Math.max(1, n)));
  seeds.fill(Number.NaN);
  return { state: new Int32Array(new SharedArrayBuffer(4 * (n + 1))), seeds };
}

/** Address `i` answered discovery: its port scan may start, its timing seeded. */
export function openHost(g: Gate, i: number, seed: Seed | null): void {
  if (seed) {
    g.seeds[2 * i] = seed.srtt;
    g.seeds[2 * i + 1] = seed.rttvar;
  }
  set(g, i, UP);
}

/** Address `i` answered nothing: it is not scanned. */
export function closeHost(g: Gate, i: number): void {
  set(g, i, DOWN);
}

/** Discovery skipped (nmap -Pn): every address is scanned. */
export function openAll(g: Gate): void {
  for (let i = 0; i < g.state.length - 1; i++) Atomics.store(g.state, i, UP);
  Atomics.add(g.state, g.state.length - 1, 1);
}

function set(g: Gate, i: number, s: number): void {
  Atomics.store(g.state, i, s);
  Atomics.add(g.state, g.state.length - 1, 1);
}

/** A reader's view: `read` calls back once per address that was decided since the last call. */
export function gateReader(g: Gate): {
  read(up: (i: number, seed: Seed | null) => void, down: (i: number) => void): void;
} {
  const n = g.state.length - 1;
  const seen = new Uint8Array(n);
  let version = -1;
  return {
    read(up, down) {
      const v = Atomics.load(g.state, n);
      if (v === version) return;
      version = v;
      for (let i = 0; i < n; i++) {
        if (seen[i]) continue;
        const s = Atomics.load(g.state, i);
        if (s === WAIT) continue;
        seen[i] = 1;
        if (s === DOWN) down(i);
        else {
          const srtt = g.seeds[2 * i]!;
          up(i, Number.isNaN(srtt) ? null : { srtt, rttvar: g.seeds[2 * i + 1]! });
        }
      }
    },
  };
}
