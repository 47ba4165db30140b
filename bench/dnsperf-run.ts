import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * One dnsperf run for the dnsperf benches (dnsperf-kit.ts): the load
 * generator's q/s and, read from /proc around the run, the CPU time it
 * took the server and dnsperf itself (issue 32: is q/s the server's, or
 * the load generator's?).
 */

/**
 * `cmd` under `taskset -c cpus` and at `nice` (both exec it: the same pid), or as is. The benches run every
 * server and dnsperf alike at nice -19 (dnsperf-peers.ts placements): the VM is shared, and at nice 0 other
 * work on the same core took 50 - 60% of it (first pinned run, load average 9 - 17).
 */
export const pinned = (cpus: string | null | undefined, cmd: string[], nice = 0): string[] => [
  ...(nice ? ['nice', '-n', String(nice)] : []),
  ...(cpus ? ['taskset', '-c', cpus] : []),
  ...cmd,
];

/** What one dnsperf run gave (with `procs` > 1: all its dnsperf processes together). */
export interface Run {
  qps: number;
  latencyMs: number;
  lostPct: number;
  bytes: number;
  /** The server's CPU time (its processes and their descendants) over the queries completed, in µs; NaN unknown. */
  serverUs: number;
  /** dnsperf's CPU time over its whole life (its run, then its wait for late replies), in % of one core. */
  loadCpu: number;
  /** The machine's 1-minute load average as the run started (other work on the shared VM). */
  load1: number;
}

export interface RunOptions {
  /** dnsperf's CPUs (`taskset -c`), or anywhere. */
  cpus?: string | null;
  /** dnsperf's nice value (0: as the bench runs). */
  nice?: number;
  /** dnsperf processes at once, each `-c 8 -T <threads> -q 1000` (is dnsperf itself the bottleneck?). */
  procs?: number;
  /** dnsperf's `-T`: 2 unless given. */
  threads?: number;
  /** The server's process ids: its CPU time is read from /proc before and after. */
  pids?: () => number[];
}

const TICK = 100; // USER_HZ: /proc's CPU times are in 1/100 s on Linux (getconf CLK_TCK)

/** The CPU time, in ticks, of these processes and every descendant (NSD's servers, Vigil's workers). */
export function treeTicks(roots: number[]): number {
  const parent = new Map<number, number>();
  const ticks = new Map<number, number>();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parent.set(Number(d), Number(f[1]));
      ticks.set(Number(d), Number(f[11]) + Number(f[12])); // utime, stime
    } catch {
      // gone meanwhile
    }
  }
  const within = (pid: number) => {
    for (let p = pid, hops = 0; p > 1 && hops < 64; p = parent.get(p) ?? 0, hops++) if (roots.includes(p)) return true;
    return false;
  };
  let sum = 0;
  for (const [pid, t] of ticks) if (within(pid)) sum += t;
  return sum;
}

/** What one dnsperf process printed. */
function parse(text: string) {
  const num = (re: RegExp) => Number(re.exec(text)?.[1] ?? NaN);
  const r = {
    qps: num(/Queries per second:\s+([\d.]+)/),
    completed: num(/Queries completed:\s+(\d+)/),
    latencyMs: num(/Average Latency \(s\):\s+([\d.]+)/) * 1000,
    lostPct: num(/Queries lost:\s+\d+ \(([\d.]+)%\)/),
    bytes: num(/Average packet size:\s+request \d+, response (\d+)/),
  };
  if (Number.isNaN(r.qps)) throw new Error(`dnsperf: ${text}`);
  return r;
}

/**
 * One `dnsperf -c 8 -T 2 -q 1000` run (`procs` of them at once); `extra`: e.g. ['-D'] for the DO bit. The
 * dnsperf processes run under one shell, whose /proc stat then holds their CPU time (cutime + cstime: the
 * children it waited for).
 */
export function dnsperf(
  port: number,
  queries: string,
  seconds: number,
  extra: string[] = [],
  opts: RunOptions = {},
): Run {
  const threads = String(opts.threads ?? 2);
  const args = ['-s', '127.0.0.1', '-p', String(port), '-d', queries, '-c', '8', '-T', threads, '-q', '1000'];
  const cmd = pinned(opts.cpus, ['dnsperf', ...args, '-l', String(seconds), ...extra], opts.nice)
    .map((a) => `'${a}'`)
    .join(' ');
  const out = mkdtempSync(join(tmpdir(), 'vigil-dnsperf-run-'));
  const procs = opts.procs ?? 1;
  const start = Array.from({ length: procs }, (_, i) => `${cmd} > ${out}/${i} 2>&1 &`);
  const load1 = loadavg()[0]!;
  const before = opts.pids ? treeTicks(opts.pids()) : NaN;
  const t0 = performance.now();
  const shell = execFileSync('sh', ['-c', `${start.join('\n')}\nwait\ncat /proc/$$/stat\n`], { encoding: 'utf8' });
  // Over dnsperf's whole life: after its run time it waits up to 5 s (-t) for late replies, and polls meanwhile.
  const wallSec = (performance.now() - t0) / 1000;
  const serverTicks = opts.pids ? treeTicks(opts.pids()) - before : NaN;
  const f = shell.slice(shell.lastIndexOf(')') + 2).split(' ');
  const loadTicks = Number(f[13]) + Number(f[14]); // cutime, cstime
  const each = Array.from({ length: procs }, (_, i) => parse(readFileSync(join(out, String(i)), 'utf8')));
  rmSync(out, { recursive: true, force: true });
  const sum = (k: 'qps' | 'completed') => each.reduce((n, r) => n + r[k], 0);
  const mean = (k: 'latencyMs' | 'lostPct' | 'bytes') => each.reduce((n, r) => n + r[k], 0) / procs;
  return {
    qps: Math.round(sum('qps')),
    latencyMs: +mean('latencyMs').toFixed(3),
    lostPct: +mean('lostPct').toFixed(2),
    bytes: Math.round(mean('bytes')),
    serverUs: +(((serverTicks / TICK) * 1e6) / sum('completed')).toFixed(2),
    loadCpu: Math.round(((loadTicks / TICK) * 100) / wallSec),
    load1: +load1.toFixed(1),
  };
}
