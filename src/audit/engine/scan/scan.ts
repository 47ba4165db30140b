/**
 * A range scan: host discovery, then every live host's ports at once.
 *
 * 1. Discovery (unless skipped, as nmap -Pn): ICMP echo and timestamp where
 *    the process may (probes.ts), and TCP connects to 80, 443, 22, 25 and
 *    3389. Any answer is life: a reply, a SYN-ACK, a RST. A host that
 *    ignores pings but has one of these ports open is found, which nmap's
 *    default (-PE -PS443 -PA80 -PP) misses when the port is not 443 or 80.
 *    The answers' RTTs seed each host's timing (timing.ts).
 * 2. The port scan of the live hosts: one job over all of them (engine.ts:
 *    global budget, a window per host), split into port slices over
 *    worker threads when large. It runs beside discovery: a host's port
 *    scan starts when it answers (gate.ts), and the addresses that never
 *    answer wait as long as the live ones took to, not a fixed second.
 */
import { availableParallelism } from 'node:os';
import type { Fence } from '../fence.ts';
import type { EngineOptions, HostTally } from './engine.ts';
import { closeHost, createGate, openAll, openHost } from './gate.ts';
import { runJob, type ScanJob } from './job.ts';
import { runInWorker } from './pool.ts';
import { nativeAvailable, nativeIo, socketIo } from './probes.ts';

/** nmap's most common open TCP ports among those hosts answer on (issue 26). */
export const DISCOVERY_PORTS = [80, 443, 22, 25, 3389];

export interface HostScan {
  address: string;
  /** Answered discovery (or discovery was skipped). */
  up: boolean;
  /** What showed it up: an ICMP reply, a TCP answer, or nothing asked (discovery skipped). */
  reason: 'icmp' | 'tcp' | 'assumed' | null;
  /** Smoothed round-trip time (ms), once anything answered. */
  rttMs: number | null;
  portsScanned: number;
  open: number[];
  closed: number;
  filtered: number;
  unreachable: number;
  /** Stopped answering mid-scan and was given up (its unscanned ports are not counted). */
  dropped: boolean;
}

export interface ScanHostsOptions {
  signal?: AbortSignal;
  /** Host discovery first (default true); false scans every address (nmap -Pn). */
  discovery?: boolean;
  /** Probes in flight over all hosts and threads (default 4096). */
  budget?: number;
  /** Probes in flight per host at most (default 1024). */
  perHost?: number;
  burst?: number;
  /** Worker threads for large scans (default min(2, cores)). */
  threads?: number;
  initialTimeoutMs?: number;
  minTimeoutMs?: number;
  maxTimeoutMs?: number;
  retries?: number;
  /**
   * SYN probes (half-open, as nmap -sS) where the process may open a raw
   * socket (default true); false: full connects everywhere.
   */
  syn?: boolean;
  /** Each host as soon as its scan ended (down hosts right after discovery). */
  onHost?: (i: number, host: HostScan) => void;
}

/**
 * Discovery's timeouts follow the RTT of the addresses that answered (engine.ts, group timing), but never
 * below this: two tries span 750 ms at least, so a path that stalls for half a second (the loaded forwarder
 * of bench/wan.ts) does not make a live host down, which would lose all its ports. An empty address costs
 * 750 ms at 50 ms RTT (3 s before, at 1 s then 2 s), and no live host waits for it (gate.ts).
 */
const DISCOVERY_MIN_TIMEOUT_MS = 250;

/**
 * Worker threads for a host's port list this long, or for this many probes in all (how many addresses are
 * live is not known when the scan starts: it runs beside discovery); below, their start-up is not worth it.
 * It costs 30-50 ms built, 1.2-1.4 s from source under tsx on the loaded 2-core VM: bench/wan.ts's /24 at
 * 50 ms, 100 ports (25,600 probes at most), scanned alone, ended its first live host at 1.7-1.9 s on
 * threads and at 0.4-0.5 s here. In an audit the threads keep the scan off the main thread, where the
 * detection and checks of the hosts done first run: `standard` (1,023 ports, 261,888 probes at most)
 * ended its scan at 4.2 and 5.8 s on threads, 4.3 and 7.3 s here (same run, load average ~30).
 */
const THREAD_MIN_PORTS = 4096;
const THREAD_MIN_PROBES = 1 << 16;

export async function scanHosts(
  fence: Fence,
  addresses: readonly string[],
  ports: readonly number[],
  opts: ScanHostsOptions = {},
): Promise<HostScan[]> {
  opts.signal?.throwIfAborted();
  for (const a of addresses) fence.check(a);
  const list = shuffle([...new Set(ports)].filter((p) => Number.isInteger(p) && p > 0 && p < 65536));
  const base: EngineOptions = {
    budget: opts.budget ?? 4096,
    perHost: opts.perHost ?? 1024,
    burst: opts.burst ?? 128,
    initialTimeoutMs: opts.initialTimeoutMs ?? 1000,
    minTimeoutMs: opts.minTimeoutMs ?? 100,
    maxTimeoutMs: opts.maxTimeoutMs ?? 1250,
    retries: opts.retries ?? 2,
  };
  // A failed discovery stops the port scan too (its hosts would wait for discovery forever), and the reverse.
  let failed = false;
  const fail = (e: unknown) => {
    failed = true;
    throw e;
  };
  const stopped = () => failed || !!opts.signal?.aborted;
  const out: HostScan[] = addresses.map((address) => ({
    address,
    up: false,
    reason: null,
    rttMs: null,
    portsScanned: 0,
    open: [],
    closed: 0,
    filtered: 0,
    unreachable: 0,
    dropped: false,
  }));
  const discover = opts.discovery !== false;
  const gate = createGate(addresses.length);
  if (!discover) {
    for (const o of out) Object.assign(o, { up: true, reason: 'assumed' });
    openAll(gate);
  }
  // Discovery and the port scan run at once: each address goes on to its port scan as soon as it answers
  // (gate.ts), and the scan's last probes do not wait for the empty addresses' last silence.
  const discovery = discover
    ? inThread(
        {
          hosts: addresses.map((address) => ({ address })),
          ports: DISCOVERY_PORTS,
          options: {
            ...base,
            minTimeoutMs: Math.max(base.minTimeoutMs, DISCOVERY_MIN_TIMEOUT_MS),
            perHost: DISCOVERY_PORTS.length,
            retries: 1,
            stopOnAnswer: true,
          },
          ping: true,
          syn: opts.syn !== false,
        },
        fence,
        stopped,
        (i, t) => {
          if (stopped()) return;
          if (!t.answered) {
            closeHost(gate, i);
            opts.onHost?.(i, out[i]!);
            return;
          }
          Object.assign(out[i]!, { up: true, reason: t.via });
          openHost(gate, i, t.srtt === null ? null : { srtt: t.srtt, rttvar: t.rttvar ?? t.srtt / 2 });
        },
      ).catch(fail)
    : Promise.resolve();
  const job: ScanJob = {
    hosts: addresses.map((address) => ({ address, held: true })),
    ports: list,
    options: base,
    syn: opts.syn !== false,
    gate,
  };
  const merge = (i: number, t: HostTally, o = out[i]!) => {
    o.open.push(...t.open);
    o.closed += t.closed;
    o.filtered += t.filtered;
    o.unreachable += t.unreachable;
    o.dropped ||= t.dropped;
    o.portsScanned += t.open.length + t.closed + t.filtered + t.unreachable;
    if (t.srtt !== null) o.rttMs = o.rttMs === null ? t.srtt : (o.rttMs + t.srtt) / 2;
  };
  const threads = Math.max(1, Math.min(opts.threads ?? Math.min(2, availableParallelism()), 8));
  const done = (i: number) => {
    const host = finish(out[i]!);
    opts.onHost?.(i, host);
  };
  let reported = 0;
  const scan = async () => {
    const large = list.length >= THREAD_MIN_PORTS || addresses.length * list.length >= THREAD_MIN_PROBES;
    if (nativeAvailable() && large) {
      try {
        return await threaded(job, threads, stopped, merge, (i) => (reported++, done(i)));
      } catch (e) {
        // A worker that cannot start (an odd loader, no threads): the same scan here, if nothing was reported yet.
        if (reported || stopped()) throw e;
        for (const o of out)
          Object.assign(o, { open: [], closed: 0, filtered: 0, unreachable: 0, portsScanned: 0, rttMs: null });
      }
    }
    await inThread(job, fence, stopped, (i, t) => (merge(i, t), done(i)));
  };
  await Promise.all([discovery, scan().catch(fail)]);
  opts.signal?.throwIfAborted();
  return out;
}

function finish(o: HostScan): HostScan {
  o.open.sort((a, b) => a - b);
  if (o.rttMs !== null) o.rttMs = Math.round(o.rttMs * 1000) / 1000;
  return o;
}

/** A job on this thread's event loop: the addon polled without blocking, or node:net. */
function inThread(
  job: ScanJob,
  fence: Fence,
  stopped: () => boolean,
  onHost?: (i: number, t: HostTally) => void,
): Promise<HostTally[]> {
  const io = nativeAvailable() ? nativeIo(job.options.budget, job.syn) : socketIo((a) => fence.check(a));
  return runJob(job, io, { blocking: false, stopped, ...(onHost ? { onHost } : {}) });
}

/** The job's ports dealt over worker threads; a host is reported when every thread has finished it. */
async function threaded(
  job: ScanJob,
  threads: number,
  stopped: () => boolean,
  merge: (k: number, t: HostTally) => void,
  onHost: (k: number) => void,
): Promise<void> {
  const stop = new Int32Array(new SharedArrayBuffer(4));
  const left = job.hosts.map(() => threads);
  const per = {
    ...job.options,
    budget: Math.max(16, Math.floor(job.options.budget / threads)),
    perHost: Math.max(4, Math.floor(job.options.perHost / threads)),
  };
  const timer = setInterval(() => stopped() && Atomics.store(stop, 0, 1), 20);
  try {
    await Promise.all(
      Array.from({ length: threads }, (_, t) =>
        runInWorker(
          { ...job, options: per, ports: job.ports.filter((_, j) => j % threads === t) },
          stop,
          (i, tally) => {
            merge(i, tally);
            if (--left[i]! === 0) onHost(i);
          },
        ),
      ),
    );
  } finally {
    clearInterval(timer);
    Atomics.store(stop, 0, 1);
  }
}

function shuffle(a: number[]): number[] {
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [a[i], a[j]] = [a[j]!, a[i]!];
  }
  return a;
}
