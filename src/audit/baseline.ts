import type { AuditResult } from './engine/run.ts';
import { portRanges } from './report-ports.ts';

/**
 * What an audit covered, stored with it (audits.coverage, JSON): the TCP
 * ports it scanned on every address, the checks its profile ran, and per
 * address the checks that threw or timed out there (they checked nothing).
 */
export interface AuditCoverage {
  /** Ranges, as `scanportstcp`: `1-1000,1433`. */
  ports: string;
  checks: string[];
  failed?: Record<string, string[]>;
  /**
   * Per address, the product service detection named on each port (`vsftpd`,
   * `Apache httpd`; ports where it named none are left out): a scheduled
   * run's alert tells findings apart by check, port and product
   * (src/audit/changes.ts). Audits before issue 31 have none.
   */
  products?: Record<string, Record<string, string>>;
  /** Addresses that did not answer host discovery (issue 26): nothing was checked there. */
  down?: string[];
}

export function coverageOf(result: AuditResult): AuditCoverage {
  const failed = Object.fromEntries(
    result.hosts.filter((h) => h.checksFailed.length).map((h) => [h.address, h.checksFailed]),
  );
  const products = Object.fromEntries(
    result.hosts
      .map((h) => [h.address, Object.fromEntries(h.services.filter((s) => s.product).map((s) => [s.port, s.product!]))])
      .filter(([, byPort]) => Object.keys(byPort as object).length),
  );
  const down = result.hosts.filter((h) => h.scan && !h.scan.up).map((h) => h.address);
  return {
    ports: portRanges(result.ports),
    checks: result.checkIds,
    ...(down.length ? { down } : {}),
    ...(Object.keys(failed).length ? { failed } : {}),
    ...(Object.keys(products).length ? { products } : {}),
  };
}

/** One finding as the baseline sees it: which check, which port of the address. */
export interface Seen {
  id: string;
  port: number;
}

/**
 * One earlier finished audit of the address, newest first: its coverage (null before migration 008) and what
 * it found there.
 */
export interface Earlier {
  coverage: AuditCoverage | null;
  /** `scanportstcp` of its report: the ports it scanned, for audits with no coverage recorded. */
  scannedPorts: string;
  found: Seen[];
}

/** The entry that service detection writes for every open port: "covered" wherever the port was scanned. */
export const DETECTION_ID = 'vigil.service.detection';

const keyOf = (s: Seen) => `${s.id}|${s.port}`;

/**
 * Port ranges (`1-1000,1433`) kept as ranges, membership by binary search:
 * expanding 1-65535 into a set for each of 20 earlier audits cost 270 ms
 * per address (measured); this costs well under one.
 */
class Ranges {
  private readonly lo: number[] = [];
  private readonly hi: number[] = [];

  constructor(text: string) {
    const spans = text
      .split(',')
      .filter(Boolean)
      .map((part) => part.split('-').map(Number) as [number, number?]);
    for (const [a, b] of spans.sort((x, y) => x[0] - y[0])) {
      this.lo.push(a);
      this.hi.push(b ?? a);
    }
  }

  has(port: number): boolean {
    let [l, r] = [0, this.lo.length - 1];
    while (l <= r) {
      const m = (l + r) >> 1;
      if (port < this.lo[m]!) r = m - 1;
      else if (port > this.hi[m]!) l = m + 1;
      else return true;
    }
    return false;
  }
}

/** An audit's view for the comparison: what it covered on one address. */
class View {
  private readonly ports: Ranges;
  private readonly checks: ReadonlySet<string> | null;
  private readonly failed: ReadonlySet<string>;
  readonly found: ReadonlySet<string>;

  constructor(coverage: AuditCoverage | null, scannedPorts: string, address: string, found: Seen[]) {
    this.ports = new Ranges(coverage?.ports ?? scannedPorts);
    this.checks = coverage ? new Set(coverage.checks) : null;
    this.failed = new Set(coverage?.failed?.[address] ?? []);
    this.found = new Set(found.map(keyOf));
    this.down = coverage?.down?.includes(address) ?? false;
  }
  /** The address was down: this audit checked nothing there, so it resolves nothing. */
  private readonly down: boolean;

  /**
   * Port-bound: the finding is on a TCP port this audit scanned. A finding
   * on a port it did not scan (a UDP service a check asks itself: SNMP,
   * TFTP, NTP) or on port 0 (the host as a whole) depends on the check alone.
   */
  portBound(s: Seen): boolean {
    return s.port !== 0 && this.ports.has(s.port);
  }

  /**
   * Did this audit check for `s`? An audit with no coverage recorded is taken to have checked everything (the
   * rule before issue 15).
   */
  covers(s: Seen, portBound: boolean): boolean {
    if (!this.checks) return true;
    if (this.down) return false;
    if (s.id === DETECTION_ID) return this.ports.has(s.port);
    return this.checks.has(s.id) && !this.failed.has(s.id) && (!portBound || this.ports.has(s.port));
  }
}

export interface Comparison {
  /** For each finding of this audit: `unchanged` or `new`. */
  status(s: Seen): 'unchanged' | 'new';
  /** Findings of earlier audits this audit checked for and no longer sees, by port then id. */
  resolved: Seen[];
}

/**
 * Like with like (docs/audits.md, "Baseline"). For every finding this
 * audit could have made, the reference is the latest earlier audit of the
 * address that checked for it (ran its check, and scanned its port when
 * the finding is port-bound). A finding seen now is `unchanged` when that
 * reference saw it too, else `new`. A finding the reference saw and this
 * audit checked for and did not see is `resolved`; one this audit did not
 * check for is neither: a `basic` audit after a `standard` one resolves
 * nothing that only `standard` checks.
 */
export function compare(
  address: string,
  now: { coverage: AuditCoverage; found: Seen[] },
  earlier: readonly Earlier[],
): Comparison {
  const current = new View(now.coverage, '', address, now.found);
  const views = earlier.map((e) => new View(e.coverage, e.scannedPorts, address, e.found));
  const status = new Map<string, 'unchanged' | 'new'>();
  for (const s of now.found) {
    const bound = current.portBound(s);
    const ref = views.find((v) => v.covers(s, bound));
    status.set(keyOf(s), ref?.found.has(keyOf(s)) ? 'unchanged' : 'new');
  }
  const resolved: Seen[] = [];
  const decided = new Set(status.keys());
  earlier.forEach((e, i) => {
    for (const s of e.found) {
      const k = keyOf(s);
      if (decided.has(k)) continue;
      decided.add(k);
      const bound = views[i]!.portBound(s);
      // A newer audit checked for it and did not see it: resolved back then, not now.
      if (views.slice(0, i).some((v) => v.covers(s, bound))) continue;
      if (current.covers(s, bound)) resolved.push(s);
    }
  });
  resolved.sort((a, b) => a.port - b.port || a.id.localeCompare(b.id));
  return { status: (s) => status.get(keyOf(s)) ?? 'new', resolved };
}
