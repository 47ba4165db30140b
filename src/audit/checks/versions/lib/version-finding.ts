/**
 * One finding per outdated product per port (issue 15: one old Apache gave
 * 27 entries, one per CVE). The finding names the version, how many known
 * vulnerabilities it has and how serious, lists each CVE with its score,
 * and says which release to upgrade to.
 */
import { cveRisk, cveScore, cveScoreV2, higherRisk, ratingOf } from '../../../engine/cvss.ts';
import { QOD } from '../../../engine/qod.ts';
import type { Finding, Risk } from '../../../engine/types.ts';
import { triage, type Triage } from './backports.ts';
import { compareDebian } from './backports-dpkg.ts';
import { compareVersions, inRange, parseRanges, type Range } from './version-compare.ts';
import type { Sighting } from './version-extract.ts';
import type { ProductTable, VersionRow } from '../../data/version-table.ts';

interface ParsedRow {
  row: VersionRow;
  cves: string[];
  ranges: Range[];
}

const parsed = new WeakMap<ProductTable, ParsedRow[]>();

function rowsOf(table: ProductTable): ParsedRow[] {
  let rows = parsed.get(table);
  if (!rows) {
    rows = table.rows.map((row) => ({ row, cves: row.cve.split(' '), ranges: parseRanges(row.affected) }));
    parsed.set(table, rows);
  }
  return rows;
}

const maxVersion = (a: string, b: string) => (compareVersions(a, b) >= 0 ? a : b);

/**
 * The release to upgrade to, computed from the affected ranges (they are
 * the vendors' "fixed in" releases per branch, version-table.ts): start
 * from the highest fix of the seen version's own ranges, then while that
 * release is itself inside any row's range (a later flaw, or a regression
 * such as Apache 2.4.60's CVE-2024-39884), move to that range's fix. The
 * result is the lowest release of the branch line that no row of the
 * table affects, so it is never stale against the table's own data.
 */
export function upgradeTarget(table: ProductTable, version: string): string | null {
  let target: string | null = null;
  for (const { ranges } of rowsOf(table)) {
    for (const r of ranges) if (inRange(version, [r])) target = target ? maxVersion(target, r.fixed) : r.fixed;
  }
  if (!target) return null;
  for (let moved = true; moved; ) {
    moved = false;
    for (const { ranges } of rowsOf(table)) {
      for (const r of ranges) {
        if (inRange(target, [r])) {
          target = r.fixed;
          moved = true;
        }
      }
    }
  }
  return target;
}

interface Line {
  cve: string;
  title: string;
  score: number | null;
  risk: Risk | null;
  fixedIn: string | null;
}

/** Score descending, unscored last, then CVE id: the order of the detail lines. */
const byScore = (a: Line, b: Line) => (b.score ?? -1) - (a.score ?? -1) || a.cve.localeCompare(b.cve);

function lineText(l: Line): string {
  const v2 = l.score === null ? cveScoreV2(l.cve) : null;
  const score =
    l.score !== null
      ? `CVSS ${l.score.toFixed(1)} ${ratingOf(l.score)}`
      : v2 !== null
        ? `no CVSS v3 score; v2 ${v2.toFixed(1)}`
        : 'no CVSS score';
  return `${l.cve} (${score}): ${l.title}${l.fixedIn ? ` [distribution fix: ${l.fixedIn}]` : ''}`;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

function howBad(lines: Line[]): string {
  const critical = lines.filter((l) => l.score !== null && l.score >= 9).length;
  const high = lines.filter((l) => l.score !== null && l.score >= 7 && l.score < 9).length;
  const n = plural(lines.length, 'known vulnerability', 'known vulnerabilities');
  return critical ? `${n}, ${critical} critical` : high ? `${n}, ${high} high` : n;
}

/** The highest risk among the CVEs' scores; the rows' declared risk where none is scored. */
function riskOf(lines: Line[], rows: Map<string, Risk>): Risk {
  let risk: Risk = 'other';
  for (const l of lines) risk = higherRisk(risk, l.risk ?? rows.get(l.cve) ?? 'other');
  return risk;
}

/**
 * The one finding for `s` (a product version seen on `port`), or null when
 * the table has no row for that version or the package has every fix.
 * Backports (backports.ts) decide per CVE: fixed CVEs are dropped; when
 * some CVE is surely open the finding has the banner's QoD and lists the
 * undecided ones as possible; when all are undecided it is one finding at
 * the backport QoD (LOG in the report).
 */
export function productFinding(table: ProductTable, s: Sighting, port: number, seenAs = s.seen): Finding | null {
  const title = new Map<string, string>();
  const declared = new Map<string, Risk>();
  for (const { row, cves, ranges } of rowsOf(table)) {
    if (!inRange(s.version, ranges)) continue;
    for (const cve of cves) {
      if (!title.has(cve)) title.set(cve, row.title);
      declared.set(cve, higherRisk(declared.get(cve) ?? 'other', row.risk));
    }
  }
  if (title.size === 0) return null;
  const t = triage(table.product, s, [...title.keys()]);
  const line = (cve: string, fixedIn: string | null): Line => ({
    cve,
    title: title.get(cve)!,
    score: cveScore(cve)?.score ?? null,
    risk: cveRisk(cve),
    fixedIn,
  });
  const open = t.open.map((o) => line(o.cve, o.fixedIn)).sort(byScore);
  const undecided = t.undecided.map((cve) => line(cve, null)).sort(byScore);
  if (open.length === 0 && undecided.length === 0) return null;
  const sure = open.length > 0;
  const listed = sure ? open : undecided;
  const name = `${table.name} ${s.version}`;
  const upstream = upgradeTarget(table, s.version);
  const detail = [
    `${seenAs} — ${name} is in the affected range of ${plural(listed.length, 'CVE', 'CVEs')} of Vigil's version table${sure ? '' : ', unless its distribution backported the fixes'}:`,
    ...listed.map(lineText),
  ];
  if (sure && undecided.length)
    detail.push(`Possibly also (a backported fix cannot be decided): ${undecided.map((l) => l.cve).join(', ')}.`);
  const notes = [
    sure && t.pkg
      ? `The ${t.pkg.release} package ${t.pkg.version} predates the distribution's fix of ${open.map((l) => l.cve).join(', ')}.`
      : '',
    t.note,
    table.caveat ?? '',
  ].filter(Boolean);
  if (notes.length) detail.push(notes.join(' '));
  return {
    port,
    title: sure
      ? `${name} is outdated: ${howBad(open)}`
      : `${name} may be outdated: ${howBad(undecided)} unless backported`,
    detail: detail.join('\n'),
    cves: listed.map((l) => l.cve),
    risk: riskOf(listed, declared),
    qod: sure ? QOD.banner : QOD.backport,
    solution: solutionFor(table, s, upstream, sure ? t.pkg : null, open),
  };
}

function solutionFor(
  table: ProductTable,
  s: Sighting,
  upstream: string | null,
  pkg: Triage['pkg'],
  open: Line[],
): string {
  const fixes = open.map((l) => l.fixedIn).filter((f): f is string => !!f);
  const latest = fixes.reduce<string | null>((a, b) => (a && compareDebian(a, b) >= 0 ? a : b), null);
  const upgrade =
    table.upgrade ??
    `Upgrade ${table.name} to ${upstream ?? 'a release its vendor still supports'}${upstream ? ' or later' : ''}.`;
  const then = `${upgrade[0]!.toLowerCase()}${upgrade.slice(1)}`;
  if (pkg && latest)
    return `Install the distribution's security updates (the ${pkg.release} package ${latest} or later fixes these); from upstream: ${then}`;
  if (s.distro) return `Install the ${s.distro} security updates for ${table.name}, or ${then}`;
  return upgrade;
}
