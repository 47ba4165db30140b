import { compare, coverageOf, type Earlier } from './baseline.ts';
import type { AuditResult } from './engine/run.ts';
import type { Risk } from './engine/types.ts';
import { byReportOrder, type Draft, hostDrafts, resolvedDraft } from './report-entries.ts';
import { FAILED_ENTRY, findingCounts } from './report-count.ts';
import { portRanges, portService } from './report-ports.ts';
import { whatRan } from './report-summary.ts';

export { portRanges } from './report-ports.ts';

/** One report entry, every field of spec 2.3 with its exact type. */
export interface ReportEntry {
  repid: string;
  id: string;
  shortid: string;
  ip: string;
  port: string;
  cat: string;
  cve: string;
  entrykey: string;
  risk: Risk;
  shortkey: number;
  static_description: string;
  description: string;
  title: string;
  type: 'LOG' | 'NOTE' | 'HOLE';
  baseline: string;
}

export interface ReportPort {
  repid: string;
  hostip: string;
  portend: number;
  portnum: string;
  portprot: string;
  portservice: string;
}

export interface ScanInfo {
  basic: {
    detail_supplement: number;
    ejtime: string;
    hostip: string;
    merge: number;
    mergelist: string;
    promocode: string;
    qjtime: number;
    reporttype: string;
    scanattr: string;
    scanportstcp: string;
    scantype: string;
    scanuid: number;
    sjtime: number;
    title: string;
    totalnaslentries: number;
  } & Partial<WhatRan>;
  entries?: Partial<Record<Risk, Record<string, ReportEntry>>>;
  ports: ReportPort[];
  risk: Partial<Record<Risk, number>>;
  riskcatgrid: Record<string, number>;
}

/**
 * Extension fields under `scaninfo.basic` (issue 15, "say what ran"): on
 * every report written since; reports stored before lack them, hence
 * optional in ScanInfo.
 */
export interface WhatRan {
  /** TCP ports scanned on each address. */
  portsScanned: number;
  /** Checks the audit type ran on each address (as `totalnaslentries`). */
  checksRun: number;
  /** Whether nmap's NSE scripts ran (advanced audits, nmap installed, an open port), and nmap's version. */
  nse: { ran: boolean; version?: string };
  /** One sentence, always there: what ran and what was found, or that nothing was. */
  summary: string;
  /** Issue 26: whether host discovery ran first (false: every address scanned, as nmap -Pn). */
  discovery?: boolean;
  /** Addresses that answered discovery, and those that did not (not port-scanned). */
  hostsUp?: number;
  hostsDown?: number;
  /** Per address, what the scan saw. */
  hosts?: HostLine[];
}

/** One address of `basic.hosts` (issue 26). */
export interface HostLine {
  ip: string;
  state: 'up' | 'down';
  /** What showed it up: `icmp` (an echo or timestamp reply), `tcp` (a SYN-ACK or RST), `assumed` (no discovery). */
  reason: string;
  /** Smoothed round-trip time in ms, as measured by the scan (null: nothing answered). */
  rtt: number | null;
  portsScanned: number;
  open: number;
  closed: number;
  /** Ports that never answered, after the retries. */
  filtered: number;
  /**
   * Ports whose probe met an ICMP unreachable or no route (nmap counts them filtered; kept apart so that
   * open + closed + filtered + unreachable = portsScanned). Absent from reports written before it.
   */
  unreachable?: number;
  /** Went silent mid-scan and was given up. */
  dropped: boolean;
}

export interface AuditFacts {
  scanuid: number;
  type: string;
  hostip: string;
  excludedos: boolean;
  notification: boolean;
  queuedAt: number;
  startedAt: number | null;
  endedAt: number;
}

const seconds = (ms: number | null) => (ms === null ? 0 : Math.floor(ms / 1000));

function basic(a: AuditFacts, ports: string, checksRun: number, failed: boolean, ran: WhatRan): ScanInfo['basic'] {
  return {
    detail_supplement: 0,
    ejtime: String(seconds(a.endedAt)),
    hostip: a.hostip,
    merge: 0,
    mergelist: '',
    promocode: '',
    qjtime: seconds(a.queuedAt),
    reporttype: failed ? 'failed' : 'complete',
    scanattr: [a.excludedos ? 'excludedos' : '', a.notification ? 'OCMP' : ''].filter(Boolean).join(','),
    scanportstcp: ports,
    scantype: a.type,
    scanuid: a.scanuid,
    sjtime: seconds(a.startedAt),
    title: `${a.type} audit of ${a.hostip}`,
    totalnaslentries: checksRun,
    ...ran,
  };
}

/**
 * Numbers the drafts in report order (`<scanuid>_<n>`), groups them under their risk and counts the findings
 * among them (risk, riskcatgrid: report-count.ts says what a finding is).
 */
function assemble(a: AuditFacts, drafts: Draft[], head: ScanInfo['basic'], ports: ReportPort[]): ScanInfo {
  const entries: NonNullable<ScanInfo['entries']> = {};
  const all: ReportEntry[] = [];
  [...drafts].sort(byReportOrder).forEach(({ score: _score, baseline, ...d }, i) => {
    const shortkey = i + 1;
    const entrykey = `${a.scanuid}_${shortkey}`;
    const entry: ReportEntry = {
      repid: String(a.scanuid),
      ...d,
      entrykey,
      shortkey,
      baseline: baseline ?? 'new',
    };
    (entries[d.risk] ??= {})[entrykey] = entry;
    all.push(entry);
  });
  return { basic: head, ports, ...findingCounts(all), ...(drafts.length ? { entries } : {}) };
}

/**
 * The finished report (`scaninfo`) of an audit: one entry per finding
 * (report-entries.ts) and per open port, in report order, grouped by risk;
 * counts computed from the findings among the entries; `baseline` like with like against the
 * earlier audits of each address (baseline.ts: `earlier`, newest first);
 * the ports as detection named them; what ran, under `basic`.
 */
export function buildReport(
  a: AuditFacts,
  result: AuditResult,
  earlier: ReadonlyMap<string, readonly Earlier[]>,
  usualService: (port: number) => string,
): ScanInfo {
  const drafts: Draft[] = [];
  const ports: ReportPort[] = [];
  const coverage = coverageOf(result);
  let resolvedCount = 0;
  for (const host of result.hosts) {
    const here = hostDrafts(host);
    const seen = (d: Draft) => ({ id: d.id, port: Number(d.port) });
    const cmp = compare(host.address, { coverage, found: here.map(seen) }, earlier.get(host.address) ?? []);
    for (const d of here) drafts.push({ ...d, baseline: cmp.status(seen(d)) });
    if (cmp.resolved.length) drafts.push(resolvedDraft(host.address, cmp.resolved));
    resolvedCount += cmp.resolved.length;
    for (const port of host.openPorts) {
      const service = portService(
        host.services.find((s) => s.port === port),
        usualService(port),
      );
      ports.push({
        repid: String(a.scanuid),
        hostip: host.address,
        portend: port,
        portnum: '-1',
        portprot: 'TCP',
        portservice: service,
      });
    }
  }
  const ran = whatRan(a, result, drafts, resolvedCount);
  return assemble(a, drafts, basic(a, portRanges(result.ports), result.checksRun, false, ran), ports);
}

/** The report of an audit that could not finish: its head and one entry saying why. */
export function failedReport(a: AuditFacts, reason: string): ScanInfo {
  const text = 'The audit could not be completed; no findings are reported for it.';
  const entry: Draft = {
    id: FAILED_ENTRY,
    shortid: 'AUDIT-FAILED',
    ip: a.hostip,
    port: '0',
    cat: 'General',
    cve: '',
    risk: 'other',
    type: 'LOG',
    title: 'Audit failed',
    static_description: text,
    description: `${text}\nReason: ${reason}`,
    baseline: 'new',
    score: null,
  };
  const ran: WhatRan = {
    portsScanned: 0,
    checksRun: 0,
    nse: { ran: false },
    summary: `The ${a.type} audit of ${a.hostip} could not be completed (${reason}); it reports nothing.`,
  };
  return assemble(a, [entry], basic(a, '', 0, true, ran), []);
}
