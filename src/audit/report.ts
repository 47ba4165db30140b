import type { AuditResult } from './engine/run.ts';
import type { Risk } from './engine/types.ts';

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
  };
  entries?: Partial<Record<Risk, Record<string, ReportEntry>>>;
  ports: ReportPort[];
  risk: Partial<Record<Risk, number>>;
  riskcatgrid: Record<string, number>;
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

/** What a previous audit of the same address reported: keys `ip|id|port`. */
export type Baseline = ReadonlyMap<string, ReadonlySet<string>>;

type Draft = Omit<ReportEntry, 'repid' | 'entrykey' | 'shortkey' | 'baseline'>;

const seconds = (ms: number | null) => (ms === null ? 0 : Math.floor(ms / 1000));
const key = (e: { ip: string; id: string; port: string }) => `${e.ip}|${e.id}|${e.port}`;

/** `1-3,5` from a sorted port list. */
export function portRanges(ports: readonly number[]): string {
  const out: string[] = [];
  for (let i = 0; i < ports.length; ) {
    let j = i;
    while (j + 1 < ports.length && ports[j + 1] === ports[j]! + 1) j++;
    out.push(i === j ? String(ports[i]) : `${ports[i]}-${ports[j]}`);
    i = j + 1;
  }
  return out.join(',');
}

function basic(a: AuditFacts, ports: string, checksRun: number, failed: boolean): ScanInfo['basic'] {
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
  };
}

/** Groups numbered drafts under their risk and counts them (risk, riskcatgrid). */
function assemble(a: AuditFacts, drafts: (Draft & { baseline: string })[], head: ScanInfo['basic'], ports: ReportPort[]): ScanInfo {
  const info: ScanInfo = { basic: head, ports, risk: {}, riskcatgrid: {} };
  const entries: NonNullable<ScanInfo['entries']> = {};
  drafts.forEach((d, i) => {
    const shortkey = i + 1;
    const entrykey = `${a.scanuid}_${shortkey}`;
    (entries[d.risk] ??= {})[entrykey] = { repid: String(a.scanuid), ...d, entrykey, shortkey };
    info.risk[d.risk] = (info.risk[d.risk] ?? 0) + 1;
    const cell = `${d.cat}:${d.risk}`;
    info.riskcatgrid[cell] = (info.riskcatgrid[cell] ?? 0) + 1;
  });
  if (drafts.length) info.entries = entries;
  return info;
}

/**
 * The finished report (`scaninfo`) of an audit: entries numbered
 * `<scanuid>_<n>` in a stable order, grouped by risk; counts computed from
 * the entries; `baseline` against the account's previous audit of each
 * address (new / unchanged; what disappeared is one `resolved` entry).
 */
export function buildReport(a: AuditFacts, result: AuditResult, previous: Baseline, usualService: (port: number) => string): ScanInfo {
  const drafts: (Draft & { baseline: string })[] = [];
  const ports: ReportPort[] = [];
  for (const host of result.hosts) {
    const here: Draft[] = [];
    for (const s of host.services) {
      here.push({
        id: 'vigil.service.detection', shortid: 'SVC-DETECT', ip: host.address, port: String(s.port), cat: 'General', cve: '',
        risk: 'other', type: 'LOG', title: 'Service detected',
        static_description: 'A service answers on this port; this is what it said about itself.',
        description: `A service answers on this port; this is what it said about itself.\n${serviceLine(s)}`,
      });
    }
    for (const { check, finding } of host.findings) {
      here.push({
        id: check.id, shortid: check.shortid, ip: host.address, port: String(finding.port), cat: check.category,
        cve: (finding.cves ?? check.cves).join(','), risk: finding.risk ?? check.risk, type: finding.type ?? check.type,
        title: finding.title ?? check.title, static_description: check.description,
        description: `${check.description}\n${finding.detail}${finding.qod === undefined ? '' : `\nQuality of detection: ${finding.qod}%`}`,
      });
    }
    const before = previous.get(host.address);
    const now = new Set(here.map(key));
    for (const d of here) drafts.push({ ...d, baseline: before?.has(key(d)) ? 'unchanged' : 'new' });
    const gone = before ? [...before].filter((k) => !now.has(k)) : [];
    if (gone.length) drafts.push(resolved(host.address, gone));
    for (const port of host.openPorts) {
      ports.push({ repid: String(a.scanuid), hostip: host.address, portend: port, portnum: '-1', portprot: 'TCP', portservice: usualService(port) });
    }
  }
  return assemble(a, drafts, basic(a, portRanges(result.ports), result.checksRun, false), ports);
}

function serviceLine(s: AuditResult['hosts'][number]['services'][number]): string {
  const what = [s.product, s.version].filter(Boolean).join(' ');
  const tls = s.tls ? ` over ${s.tls.protocol}` : '';
  return `${s.port}/tcp: ${s.name}${what ? ` (${what})` : ''}${tls}${s.banner ? `; banner: ${s.banner}` : ''}`;
}

function resolved(ip: string, gone: string[]): Draft & { baseline: string } {
  const list = gone.map((k) => k.split('|')).map(([, id, port]) => `${id} on port ${port}`).join('\n');
  const text = 'Findings of the previous audit of this address that this audit no longer sees.';
  return {
    id: 'vigil.baseline.resolved', shortid: 'BASELINE-RESOLVED', ip, port: '0', cat: 'General', cve: '', risk: 'other', type: 'LOG',
    title: 'Resolved since the previous audit', static_description: text, description: `${text}\n${list}`, baseline: 'resolved',
  };
}

/** The report of an audit that could not finish: its head and one entry saying why. */
export function failedReport(a: AuditFacts, reason: string): ScanInfo {
  const text = 'The audit could not be completed; no findings are reported for it.';
  const entry = {
    id: 'vigil.audit.failed', shortid: 'AUDIT-FAILED', ip: a.hostip, port: '0', cat: 'General', cve: '', risk: 'other' as const,
    type: 'LOG' as const, title: 'Audit failed', static_description: text, description: `${text}\nReason: ${reason}`, baseline: 'new',
  };
  return assemble(a, [entry], basic(a, '', 0, true), []);
}
