/**
 * TCP connect port scan of one address (the range scanner is scan/scan.ts;
 * this is its one-host form, without discovery, for callers that already
 * know the host is there). Every address passes the fence before any
 * socket: a plain `Net` (fence.net(address)) checks each connect itself;
 * `{ fence, address }` takes the fast path (the native addon in worker
 * threads, SYN probes where a raw socket may be opened; scan/probes.ts).
 *
 * Kernel time for 1-65535 on 127.0.0.2 (process.cpuUsage, same run):
 *   SYN probes 0.38-0.42 s (nmap -sS 0.40-0.43 s); connect(2) 0.94-0.98 s
 *   (nmap -sT 0.83-0.88 s). node:net in 2 threads took 1.1-1.2 s of wall
 *   time where nmap -sT took 1.0 s. Wall times: docs/performance.md.
 */
import type { Fence } from './fence.ts';
import { runJob } from './scan/job.ts';
import { netIo } from './scan/probes.ts';
import { scanHosts } from './scan/scan.ts';
import type { Net } from './types.ts';

export type ScanTarget = Net | { fence: Fence; address: string };

export interface ScanOptions {
  signal?: AbortSignal;
  /** Sockets in flight at most, over all threads (default 2000). */
  concurrency?: number;
  /** Sockets started per pump (default 128). */
  burst?: number;
  /** Worker threads for large port sets on the fast path (default min(2, cores)). */
  threads?: number;
  /** Timeout before any RTT was measured, and floor/ceiling of the adaptive one (ms). */
  initialTimeoutMs?: number;
  minTimeoutMs?: number;
  maxTimeoutMs?: number;
  /** Extra attempts for a port whose connect timed out (default 2). */
  retries?: number;
}

/** Scans `ports` with TCP connects; resolves to the open ones, ascending. */
export async function scanPorts(
  target: ScanTarget,
  ports: readonly number[],
  opts: ScanOptions = {},
): Promise<number[]> {
  opts.signal?.throwIfAborted();
  const timing = {
    initialTimeoutMs: opts.initialTimeoutMs ?? 1000,
    minTimeoutMs: opts.minTimeoutMs ?? 100,
    maxTimeoutMs: opts.maxTimeoutMs ?? 1250,
    retries: opts.retries ?? 2,
  };
  const budget = opts.concurrency ?? 2000;
  if ('fence' in target) {
    const [host] = await scanHosts(target.fence, [target.address], ports, {
      ...timing,
      discovery: false,
      budget,
      perHost: budget,
      ...(opts.burst ? { burst: opts.burst } : {}),
      ...(opts.threads ? { threads: opts.threads } : {}),
      ...(opts.signal ? { signal: opts.signal } : {}),
    });
    return host!.open;
  }
  const list = [...new Set(ports)].filter((p) => Number.isInteger(p) && p > 0 && p < 65536);
  const [host] = await runJob(
    {
      hosts: [{ address: target.address }],
      ports: list,
      options: { ...timing, budget, perHost: budget, burst: opts.burst ?? 128 },
    },
    netIo(target),
    { blocking: false, stopped: () => !!opts.signal?.aborted },
  );
  opts.signal?.throwIfAborted();
  return host!.open;
}
