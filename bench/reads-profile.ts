/**
 * Reads a V8 CPU profile (`node --cpu-prof`) of `vigil serve` and prints
 * where the time of one window went: self time by function and by module,
 * and the CPU time per request. The window is given in the monotonic clock
 * (process.hrtime), which on Linux is the clock V8 stamps its samples with,
 * so the bench process can mark the start and end of its load.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

interface Profile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** Microseconds on the clock V8's profiler uses. */
export const nowMicros = () => Number(process.hrtime.bigint() / 1000n);

const short = (url: string) =>
  url
    .replace(/^file:\/\/.*?\/node_modules\//, '')
    .replace(/^file:\/\/.*?\/(src|bench|test)\//, '$1/')
    .replace(/^node:internal\//, 'node:');

/** The package (`fastify`, `@scope/x`), the source file, or Node's module. */
function moduleOf(url: string): string {
  const s = short(url);
  if (s === '') return '(native or VM)';
  if (s.startsWith('src/') || s.startsWith('node:')) return s;
  const parts = s.split('/');
  return parts[0]!.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!;
}

export interface ProfileSummary {
  busyMs: number;
  idleMs: number;
  byFunction: [string, number][];
  byModule: [string, number][];
}

export function summarize(file: string, fromMicros: number, toMicros: number): ProfileSummary {
  const p = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const fn = new Map<string, number>();
  const mod = new Map<string, number>();
  let t = p.startTime;
  let busy = 0;
  let idle = 0;
  for (let i = 0; i < p.samples.length; i++) {
    const dt = p.timeDeltas[i] ?? 0;
    t += dt;
    if (t < fromMicros || t > toMicros) continue;
    const { functionName, url } = byId.get(p.samples[i]!)!.callFrame;
    if (functionName === '(idle)') {
      idle += dt;
      continue;
    }
    busy += dt;
    const name = `${functionName || '(anonymous)'} ${short(url)}`.trim();
    fn.set(name, (fn.get(name) ?? 0) + dt);
    mod.set(moduleOf(url), (mod.get(moduleOf(url)) ?? 0) + dt);
  }
  const top = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1]);
  return { busyMs: busy / 1000, idleMs: idle / 1000, byFunction: top(fn), byModule: top(mod) };
}

/** The main thread's profile in `dir` (the largest file; workers write their own). */
export function mainProfile(dir: string): string {
  const files = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'));
  const sized = files.map((f) => [f, readFileSync(join(dir, f)).length] as const).sort((a, b) => b[1] - a[1]);
  if (!sized.length) throw new Error(`no .cpuprofile in ${dir}`);
  return join(dir, sized[0]![0]);
}

export function printSummary(s: ProfileSummary, requests: number, top = 25): void {
  const pct = (us: number) => `${((100 * us) / (s.busyMs * 1000)).toFixed(1).padStart(5)}%`;
  const perReq = (us: number) => `${(us / requests).toFixed(1).padStart(6)} µs/req`;
  console.log(
    `\nprofile: ${Math.round(s.busyMs)} ms busy, ${Math.round(s.idleMs)} ms idle on the main thread, ${requests} requests: ${((s.busyMs * 1000) / requests).toFixed(1)} µs of CPU per request`,
  );
  console.log('\nself time by function (share of busy time, per request):');
  for (const [k, us] of s.byFunction.slice(0, top)) console.log(`${pct(us)} ${perReq(us)}  ${k}`);
  console.log('\nself time by module:');
  for (const [k, us] of s.byModule.slice(0, top)) console.log(`${pct(us)} ${perReq(us)}  ${k}`);
}
