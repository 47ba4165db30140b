import type { AuditType } from '../types.ts';
import { detectServices } from './detect.ts';
import type { Fence } from './fence.ts';
import { type HostScan, scanHosts } from './scan/scan.ts';
import { portsFor } from './ports.ts';
import { nmapVersion } from './nmap-version.ts';
import { checksFor, classOf } from './profiles.ts';
import { settle } from './qod.ts';
import type { Check, Finding, Service } from './types.ts';

export interface HostResult {
  address: string;
  openPorts: number[];
  services: Service[];
  findings: { check: Check; finding: Finding }[];
  /**
   * Ids of the profile's checks that threw or timed out here: they checked nothing (the baseline must not
   * read silence from them).
   */
  checksFailed: string[];
  /** What the port scan saw (issue 26): up or down, RTT, ports scanned, open/closed/filtered counts. */
  scan?: HostScan;
}

export interface AuditResult {
  /** The ports scanned on each address. */
  ports: readonly number[];
  /** How many checks the profile ran on each address. */
  checksRun: number;
  /** Ids of those checks, in catalogue order. */
  checkIds: string[];
  /** Whether the profile includes nmap's NSE scripts and nmap was there to run them; its version when known. */
  nse: { ran: boolean; version?: string };
  hosts: HostResult[];
}

/** Where the engine is, over every address of the audit (the runner adds `queued` and `reporting`). */
export interface EngineProgress {
  phase: 'scanning' | 'detecting' | 'checking';
  portsScanned: number;
  portsTotal: number;
  checksDone: number;
  checksTotal: number;
}

export interface RunOptions {
  signal?: AbortSignal;
  /** Upper bound for one check on one host; a check past it is abandoned. */
  checkTimeoutMs?: number;
  /** Checks running at once on one host. */
  checkConcurrency?: number;
  /** Wait on a silent port: detection's per-read bound and the fence's default for the checks (default 3000 ms). */
  probeTimeoutMs?: number;
  /** Live addresses in detection and checks at once (default 64). */
  hostConcurrency?: number;
  /** Called at every step (an address scanned, detected, a check done); the caller throttles. */
  onProgress?: (p: EngineProgress) => void;
  /** nmap's version, asked only when the profile runs NSE (injectable for tests). */
  nseVersion?: () => Promise<string | null>;
  /** CA certificates (PEM) trusted besides Node's roots and the system's (serve --audit-ca): the TLS trust check's. */
  caCertificates?: readonly string[];
}

/** What to audit: the type (its checks, and its ports unless `ports` names others) and the addresses. */
export interface AuditJobSpec {
  type: AuditType;
  excludedos: boolean;
  addresses: readonly string[];
  /** TCP ports to scan instead of the type's list (sorted, distinct). */
  ports?: readonly number[];
  /** Host discovery before the port scan (default true); false scans every address, as nmap -Pn. */
  discovery?: boolean;
}

/**
 * One audit, a few addresses at a time: port scan -> service detection ->
 * the profile's checks. Every socket goes through the fence; a check that
 * throws or hangs costs its own result, never the audit.
 */
export function runAudit(job: AuditJobSpec, fence: Fence, options: RunOptions = {}): Promise<AuditResult> {
  const { signal } = options;
  if (!signal) return audit(job, fence, options);
  // A stop must not wait for a check that is sitting in its timeout: give up
  // at once; the sockets still in flight close on their own bounded timers.
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    audit(job, fence, options)
      .then(resolve, reject)
      .finally(() => signal.removeEventListener('abort', onAbort));
  });
}

async function audit(job: AuditJobSpec, fence: Fence, options: RunOptions): Promise<AuditResult> {
  // A request's own list (saRunAudit `ports`) replaces the type's ports; the checks stay the type's.
  const ports = job.ports ?? portsFor(job.type);
  const checks = checksFor(job.type, job.excludedos);
  const hosts: HostResult[] = new Array(job.addresses.length);
  const n = job.addresses.length;
  // The phase is that of the least advanced address: scanning while any
  // port scan is left, detecting while any detection is, then checking.
  const left = { scans: n, detections: n };
  const count = { portsScanned: 0, checksDone: 0 };
  const tell = () =>
    options.onProgress?.({
      phase: left.scans ? 'scanning' : left.detections ? 'detecting' : 'checking',
      portsScanned: count.portsScanned,
      portsTotal: ports.length * n,
      checksDone: count.checksDone,
      checksTotal: checks.length * n,
    });
  tell();
  // One scan of every address at once (scan/scan.ts: a host's port scan
  // starts when it answers discovery, under one socket budget over all
  // hosts); each host goes on to detection and checks as soon as its own
  // ports are done.
  const scans = job.addresses.map(() => deferred<HostScan>());
  const scanning = scanHosts(fence, job.addresses, ports, {
    discovery: job.discovery !== false,
    onHost: (i, scan) => scans[i]!.resolve(scan),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  scanning.catch((e) => scans.forEach((d) => d.reject(e)));
  // Hosts in parallel, many at a time: most of a host's time is spent
  // waiting (banner reads, probe timeouts, a slow-request measurement), not
  // sending. Each live host takes a slot as its own scan ends, in the order
  // the scans end: a host waiting on its scan must not hold a slot that a
  // scanned host could use, and a down host needs none. Measured on the
  // emulated WAN (bench/wan.ts --audit standard, 40 live hosts of a /24,
  // 50 ms RTT): 91 s with 4 hosts at a time taken in address order; in
  // the order the scans end, 33 s with 16 and 25.5 s with 32; with the dos
  // checks first (below), 21.1 s with 32 and 19.6 s with 64 (one host's
  // checks one by one take 28 s there). Each host still sees at most
  // `checkConcurrency` checks at once.
  const slot = limiter(options.hostConcurrency ?? 64);
  // The denial-of-service measurements hold a connection for a fixed time
  // (the slow-request one ~6 s, proto/http.ts SLOW_HOLD_MS): started first,
  // the host's other checks run in their shadow instead of after them.
  const runOrder = [...checks].sort((a, b) => Number(classOf(b) === 'dos') - Number(classOf(a) === 'dos'));
  const one = async (address: string, i: number) => {
    const scan = await scans[i]!.promise;
    left.scans--;
    count.portsScanned += ports.length;
    if (scan.up) tell();
    const work = async () => {
      options.signal?.throwIfAborted();
      const net = fence.net(address, options.probeTimeoutMs);
      const openPorts = scan.open;
      if (!scan.up) {
        // Down: nothing answered discovery. No detection, no checks; the
        // report says so and the baseline reads nothing from it.
        left.detections--;
        count.checksDone += checks.length;
        tell();
        hosts[i] = { address, openPorts: [], services: [], findings: [], checksFailed: [], scan };
        return;
      }
      const services = openPorts.length
        ? await detectServices(net, openPorts, {
            signal: options.signal,
            ...(options.probeTimeoutMs ? probeBounds(options.probeTimeoutMs) : {}),
          })
        : [];
      left.detections--;
      tell();
      const facts = {
        address,
        openPorts,
        services,
        ...(options.caCertificates ? { caCertificates: options.caCertificates } : {}),
      };
      const findings: HostResult['findings'] = [];
      const checksFailed: string[] = [];
      await eachLimited(runOrder, options.checkConcurrency ?? 8, async (check) => {
        options.signal?.throwIfAborted();
        const found = await withTimeout(check.runOn(facts, net), options.checkTimeoutMs ?? 150_000).catch(() => {
          checksFailed.push(check.id);
          return [];
        });
        // Every finding leaves with its QoD, and below the threshold as LOG (qod.ts).
        for (const finding of found) findings.push({ check, finding: { ...finding, ...settle(check, finding) } });
        count.checksDone++;
        tell();
      });
      options.signal?.throwIfAborted();
      // Stable order whatever order the checks finished in.
      findings.sort((a, b) => a.finding.port - b.finding.port || a.check.id.localeCompare(b.check.id));
      hosts[i] = { address, openPorts, services, findings, checksFailed: checksFailed.sort(), scan };
    };
    return scan.up ? slot(work) : work();
  };
  await Promise.all(job.addresses.map(one));
  await scanning;
  // The NSE check runs nmap only where ports are open and nmap is installed
  // (checks/nse.ts); where it threw or timed out it did not run to the end.
  const nseRan =
    checks.some(isNse) &&
    hosts.some((h) => h.openPorts.length > 0 && !h.checksFailed.some((id) => id.startsWith('vigil.nse.')));
  const nse = nseRan ? await (options.nseVersion ?? nmapVersion)() : null;
  return {
    ports,
    checksRun: checks.length,
    checkIds: checks.map((c) => c.id),
    nse: nse ? { ran: true, version: nse } : { ran: false },
    hosts,
  };
}

const isNse = (c: Check) => c.id.startsWith('vigil.nse.');

/** Detection's bounds from one probe timeout, in the proportions of its defaults (3 s a read, 12 s a port, 0.7 s a banner). */
function probeBounds(ms: number) {
  return { timeoutMs: ms, portBudgetMs: 4 * ms, bannerMs: Math.min(700, ms) };
}

function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((y, n) => ((resolve = y), (reject = n)));
  promise.catch(() => {}); // a lane may never await it (the audit was stopped first)
  return { promise, resolve, reject };
}

async function eachLimited<T>(items: readonly T[], limit: number, run: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await run(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}

/** At most `n` runs at once; the others wait their turn, first come first served. */
function limiter(n: number) {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async <T>(run: () => Promise<T>): Promise<T> => {
    while (active >= n) await new Promise<void>((r) => waiting.push(r));
    active++;
    try {
      return await run();
    } finally {
      active--;
      waiting.shift()?.();
    }
  };
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('check timeout')), ms)));
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
