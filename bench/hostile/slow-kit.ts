/**
 * What the slow-client benches share (bench/hostile/slowloris.ts for the API
 * and DNS over TCP, bench/hostile/slowloris-listeners.ts for the forwarder
 * and the metrics listener): a real `bin/vigil serve` on free loopback
 * ports, a flood of slow connections, and probes of a normal client.
 * Everything stays on 127.0.0.0/8.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Probe } from '../../test/helpers/slow-clients.ts';
import type { Target } from '../../test/helpers/raw.ts';
import { freePort, tempDir, VIGIL } from '../../test/helpers/server.ts';

export { apiProbe, dnsProbe, Flood, httpProbe } from '../../test/helpers/slow-clients.ts';

/** `--name N` from the command line, an integer from 1 to max. */
export const arg = (name: string, def: number, max: number) => {
  const i = process.argv.indexOf(`--${name}`);
  const v = i >= 0 ? Number(process.argv[i + 1]) : def;
  if (!Number.isInteger(v) || v < 1 || v > max) throw new Error(`--${name} must be 1 to ${max}`);
  return v;
};

export interface BenchServer {
  pid: number;
  stop(): Promise<void>;
  tls: Target;
  dns: Target;
  /** Plain HTTP targets; null when that listener is off. */
  forward: Target | null;
  metrics: Target | null;
}

/**
 * `serve` on free loopback ports, its defaults otherwise; under `prlimit --nofile` when fdLimit is set (prlimit
 * execs it: same pid). `vigil` may name another checkout's bin/vigil (a "before" run).
 */
export async function startServer(o: {
  fdLimit: number | null;
  forward?: boolean;
  metrics?: boolean;
  vigil?: string;
}): Promise<BenchServer> {
  const dataDir = tempDir('vigil-bench-');
  const [https, http, dnsPort, forward, metrics] = [
    await freePort(),
    await freePort(),
    await freePort(),
    o.forward ? await freePort() : 0,
    o.metrics ? await freePort() : 0,
  ];
  const args = [
    'serve',
    '--data',
    dataDir,
    '--https-port',
    String(https),
    '--http-port',
    String(http),
    '--dns-port',
    String(dnsPort),
    '--forward-port',
    String(forward),
    '--metrics-port',
    String(metrics),
  ];
  const vigil = o.vigil ?? VIGIL;
  const [cmd, argv] = o.fdLimit ? ['prlimit', [`--nofile=${o.fdLimit}:${o.fdLimit}`, vigil, ...args]] : [vigil, args];
  const proc = spawn(cmd, argv as string[], {
    env: { ...process.env, VIGIL_LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  let out = '';
  proc.stdout!.on('data', (d) => (out += d));
  while (!out.includes('vigil ready')) {
    if (proc.exitCode !== null) throw new Error(`vigil exited ${proc.exitCode}`);
    await sleep(50);
  }
  return {
    pid: proc.pid!,
    async stop() {
      if (proc.exitCode === null) {
        proc.kill('SIGTERM');
        await once(proc, 'exit');
      }
    },
    tls: { port: https, ca: readFileSync(join(dataDir, 'tls', 'cert.pem'), 'utf8') },
    dns: { port: dnsPort },
    forward: forward ? { port: forward } : null,
    metrics: metrics ? { port: metrics } : null,
  };
}

/** Open file descriptors of a process. */
export const fdsOf = (pid: number) => readdirSync(`/proc/${pid}/fd`).length;

export function percentile(sorted: number[], p: number): number | null {
  return sorted.length
    ? Math.round(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! * 10) / 10
    : null;
}

/** Runs every probe in turn, every 100 ms, for `ms`; how many were served and how fast. */
export async function probe(probes: Record<string, Probe>, ms: number) {
  const names = Object.keys(probes);
  const times = new Map<string, (number | null)[]>(names.map((n) => [n, []]));
  const first = new Map<string, number>();
  const start = performance.now();
  for (const end = Date.now() + ms; Date.now() < end; ) {
    for (const n of names) {
      const t = await probes[n]!();
      times.get(n)!.push(t);
      if (t !== null && !first.has(n)) first.set(n, Math.round(performance.now() - start));
    }
    await sleep(100);
  }
  return Object.fromEntries(
    names.map((n) => {
      const xs = times.get(n)!;
      const ok = xs.filter((x): x is number => x !== null).sort((a, b) => a - b);
      return [
        n,
        {
          calls: xs.length,
          served: ok.length,
          firstServedAfterMs: first.get(n) ?? null,
          p50ms: percentile(ok, 50),
          p99ms: percentile(ok, 99),
        },
      ];
    }),
  );
}
