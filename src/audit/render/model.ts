import type { Risk } from '../engine/types.ts';
import type { ReportEntry, ScanInfo } from '../report.ts';
import { DETECTION_ENTRY, type FindingCounts, findingCounts, isFindingEntry } from '../report-count.ts';
import { dedupeReferences } from '../report-evidence.ts';
import { addressRanges } from './hosts.ts';

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
    else if (line.startsWith('References: ')) v.references = shownReferences(line.slice(12).split(/\s+/));
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

/**
 * The checks' findings: not the per-port detection entries, the resolved
 * list nor a failed audit's note. The one rule (report-count.ts) by which
 * the report's counts, its summary and every format count.
 */
export const isFinding = (v: EntryView) => isFindingEntry(v.entry);

/** What an entry is, for the formats' sections and the CSV's `kind` column. */
export type EntryKind = 'finding' | 'detection' | 'resolved' | 'note';

export function kindOf(v: EntryView): EntryKind {
  if (isFinding(v)) return 'finding';
  if (v.entry.id === DETECTION_ENTRY) return 'detection';
  return v.entry.baseline === 'resolved' ? 'resolved' : 'note';
}

/**
 * The counts every surface shows (text, HTML, console, mail), made from
 * the entries by the rule above rather than read from `risk`: a report
 * stored before the rule counted every entry.
 */
export function countsOf(info: ScanInfo): FindingCounts {
  return findingCounts(orderedEntries(info).map((v) => v.entry));
}

/** References each once (http and https of one page are one), the vendors' advisories before NVD's CVE pages. */
function shownReferences(urls: readonly string[]): string[] {
  const refs = dedupeReferences(urls.filter(Boolean));
  const nvd = (u: string) => /^https?:\/\/nvd\.nist\.gov\/vuln\/detail\//i.test(u);
  return [...refs.filter((u) => !nvd(u)), ...refs.filter(nvd)];
}

/** How many items of a long list (CVEs, references, a finding's CVE lines) are shown before "and N more". */
export const SHOWN = 5;

/** A list cut for reading: the first SHOWN items, and the rest when there are more (rendered collapsed). */
export function collapse<T>(items: readonly T[], shown = SHOWN): { shown: T[]; more: T[] } {
  return items.length > shown
    ? { shown: items.slice(0, shown), more: items.slice(shown) }
    : { shown: [...items], more: [] };
}

/** A line of what was seen, or the CVE lines of a long list left collapsed. */
export type BodyPart = { line: string } | { more: string[] };

const CVE_LINE = /^CVE-\d{4}-\d{4,}\b/;

/**
 * The body with each run of CVE lines (an outdated product lists every
 * CVE, one a line: 27 for Apache 2.4.49) cut to its first SHOWN lines
 * (the most serious: they come by score) and the rest as one part.
 */
export function bodyParts(v: EntryView): BodyPart[] {
  const out: BodyPart[] = [];
  let run: string[] = [];
  const flush = () => {
    const { shown, more } = collapse(run);
    out.push(...shown.map((line) => ({ line })), ...(more.length ? [{ more }] : []));
    run = [];
  };
  for (const line of v.body) {
    if (CVE_LINE.test(line)) run.push(line);
    else flush(), out.push({ line });
  }
  flush();
  return out;
}

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
  // Issue 26: with several addresses, how many answered host discovery, and which did not.
  if (b.hostsUp !== undefined && (b.hostsDown || (b.hosts?.length ?? 0) > 1 || b.discovery === false)) {
    // As ranges (`127.0.27.4-254`): the down part of a /24 is one item, not 251.
    const down = addressRanges((b.hosts ?? []).filter((h) => h.state === 'down').map((h) => h.ip));
    rows.push([
      'Hosts',
      b.discovery === false
        ? `${b.hostsUp} scanned, host discovery off`
        : `${b.hostsUp} up, ${b.hostsDown ?? 0} down (no answer to host discovery)`,
    ]);
    if (down.length)
      rows.push([
        'Down',
        `${down.slice(0, 20).join(', ')}${down.length > 20 ? ` and ${down.length - 20} more ranges` : ''}`,
      ]);
  }
  rows.push(['Checks run', `${b.checksRun ?? b.totalnaslentries} per address`]);
  if (b.nse)
    rows.push(['NSE scripts', b.nse.ran ? `run${b.nse.version ? ` (nmap ${b.nse.version})` : ''}` : 'not run']);
  return rows;
}

/** Categories of the findings' `riskcatgrid` (`<cat>:<risk>` keys, countsOf), sorted. */
export function gridOf(info: ScanInfo): { cats: string[]; cell: (cat: string, r: Risk) => number } {
  const grid = countsOf(info).riskcatgrid;
  const cats = new Set<string>();
  for (const key of Object.keys(grid)) cats.add(key.slice(0, key.lastIndexOf(':')));
  return { cats: [...cats].sort(), cell: (cat, r) => grid[`${cat}:${r}`] ?? 0 };
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
