import type { Risk } from '../engine/types.ts';
import type { ReportEntry, ScanInfo } from '../report.ts';

// What every format shows, read once from the spec's `scaninfo`. Pure (no
// node: imports): the CLI, the mail and later a browser console share it.

export const RISKS: readonly Risk[] = ['high', 'medium', 'low', 'other'];

/** A word per risk: the colour of a printed page may be grey, the word stays. */
export const RISK_LABEL: Record<Risk, string> = { high: 'HIGH', medium: 'MEDIUM', low: 'LOW', other: 'INFO' };

/** The lines REPORT appends to an entry's description (src/audit/report-entries.ts), taken apart. */
export interface EntryView {
  entry: ReportEntry;
  /** The check's text and what was seen: every line that is not one of the fields below. */
  body: string[];
  score: number | null;
  vector: string | null;
  solution: string | null;
  references: string[];
  qod: string | null;
  cves: string[];
}

const SCORE = /^Score: CVSS (\d+(?:\.\d+)?)(?: \(([^)]*)\))?$/;

export function viewOf(entry: ReportEntry): EntryView {
  const v: EntryView = {
    entry,
    body: [],
    score: null,
    vector: null,
    solution: null,
    references: [],
    qod: null,
    cves: [],
  };
  for (const line of entry.description.split('\n')) {
    const score = SCORE.exec(line);
    if (score) {
      v.score = Number(score[1]);
      v.vector = score[2] ?? null;
    } else if (line.startsWith('Solution: ')) v.solution = line.slice(10);
    else if (line.startsWith('References: ')) v.references = line.slice(12).split(/\s+/).filter(Boolean);
    else if (line.startsWith('Quality of detection: ')) v.qod = line.slice(22);
    else v.body.push(line);
  }
  while (v.body.length && v.body[v.body.length - 1]!.trim() === '') v.body.pop();
  v.cves = entry.cve.split(/[,\s]+/).filter(Boolean);
  return v;
}

/** Entries in report order: by risk group, then `shortkey` (REPORT numbers them in its order). */
export function orderedEntries(info: ScanInfo): EntryView[] {
  const out: EntryView[] = [];
  for (const r of RISKS) {
    const group = Object.values(info.entries?.[r] ?? {}).sort((a, b) => a.shortkey - b.shortkey);
    out.push(...group.map(viewOf));
  }
  return out;
}

/** The checks' findings: not the per-port detection notes nor the resolved list (as the summary counts them). */
export const isFinding = (v: EntryView) => v.entry.id !== 'vigil.service.detection' && v.entry.baseline !== 'resolved';

/** Spec times are Unix seconds (numbers, or `ejtime` as text); 0 means not yet. */
export function timeText(t: number | string): string {
  const s = Number(t);
  if (!Number.isFinite(s) || s <= 0) return '-';
  return `${new Date(s * 1000).toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/**
 * The head every format prints: label, value. Extension fields only when the report has them (older reports
 * lack them).
 */
export function headLines(info: ScanInfo): [string, string][] {
  const b = info.basic;
  const rows: [string, string][] = [
    ['Audit', `${b.scanuid} (${b.scantype})`],
    ['Addresses', b.hostip],
    ['Report', b.reporttype],
    ['Queued', timeText(b.qjtime)],
    ['Started', timeText(b.sjtime)],
    ['Ended', timeText(b.ejtime)],
  ];
  if (b.scanattr) rows.push(['Options', b.scanattr]);
  if (b.portsScanned !== undefined) rows.push(['Ports scanned', `${b.portsScanned} TCP per address`]);
  rows.push(['Checks run', `${b.checksRun ?? b.totalnaslentries} per address`]);
  if (b.nse)
    rows.push(['NSE scripts', b.nse.ran ? `run${b.nse.version ? ` (nmap ${b.nse.version})` : ''}` : 'not run']);
  return rows;
}

/** Categories of the `riskcatgrid` (`<cat>:<risk>` keys), sorted. */
export function gridOf(info: ScanInfo): { cats: string[]; cell: (cat: string, r: Risk) => number } {
  const cats = new Set<string>();
  for (const key of Object.keys(info.riskcatgrid)) cats.add(key.slice(0, key.lastIndexOf(':')));
  return { cats: [...cats].sort(), cell: (cat, r) => info.riskcatgrid[`${cat}:${r}`] ?? 0 };
}

/** Baseline state of the findings: how many new, unchanged, and what was resolved since the previous audit. */
export function baselineOf(entries: readonly EntryView[]): { counts: [string, number][]; resolved: EntryView[] } {
  const counts = new Map<string, number>();
  for (const v of entries.filter(isFinding)) counts.set(v.entry.baseline, (counts.get(v.entry.baseline) ?? 0) + 1);
  return {
    counts: [...counts].sort(([a], [b]) => a.localeCompare(b)),
    resolved: entries.filter((v) => v.entry.baseline === 'resolved'),
  };
}

/** CVE ids link to NVD only when they look like one (the id is a path segment of the URL). */
export const CVE_ID = /^CVE-\d{4}-\d{4,}$/;
export const nvdUrl = (cve: string) => `https://nvd.nist.gov/vuln/detail/${cve}`;
/** Only http(s) URLs become links: no javascript:, data: or file: from a description. */
export const isWebUrl = (u: string) => /^https?:\/\/[^\s"'<>]+$/i.test(u);
