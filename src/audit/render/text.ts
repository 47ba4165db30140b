import type { ScanInfo } from '../report.ts';
import {
  baselineOf,
  bodyParts,
  collapse,
  countsOf,
  type EntryView,
  gridOf,
  headLines,
  kindOf,
  orderedEntries,
  RISK_LABEL,
  RISKS,
} from './model.ts';
import { downRanges, HOST_COLUMNS, hostsOf } from './hosts.ts';

const WIDTH = 80;

/** Control characters from a banner would move a terminal's cursor or change its colours: shown as `?`. */
const clean = (s: string) => s.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, '?');

/**
 * Breaks text at spaces into lines of at most `width` (a longer word is
 * cut); keeps the text's own line breaks and runs of spaces (columns).
 */
export function wrap(text: string, width: number, indent = ''): string[] {
  const out: string[] = [];
  const room = Math.max(10, width - indent.length);
  for (const para of clean(text).split('\n')) {
    let line: string | null = null;
    for (let word of para.split(' ')) {
      while (word.length > room) {
        if (line) out.push(line);
        line = null;
        out.push(word.slice(0, room));
        word = word.slice(room);
      }
      if (line === null) line = word;
      else if (line.length + 1 + word.length <= room) line += ` ${word}`;
      else out.push(line), (line = word);
    }
    out.push(line ?? '');
  }
  return out.map((l) => (l.trimEnd() ? indent + l.trimEnd() : ''));
}

const rule = (ch = '-') => ch.repeat(WIDTH);
const pad = (s: string, n: number) => (s.length >= n ? s : s + ' '.repeat(n - s.length));
const padStart = (s: string, n: number) => (s.length >= n ? s : ' '.repeat(n - s.length) + s);

const ALL_IN = '(the CSV and HTML reports list them all)';

/**
 * One entry: its title, then what to do (the `Solution:` line right under
 * the title, as GSA puts it first), where it was seen, then the evidence.
 * Long lists (CVEs, a product's CVE lines, references) show their first
 * few and say how many more there are.
 */
function entryLines(v: EntryView): string[] {
  const e = v.entry;
  const out: string[] = [];
  const score = v.score !== null ? ` CVSS ${v.score.toFixed(1)}` : '';
  // A risk word only on findings: what RISK COUNTS counts is what is labelled.
  const label = kindOf(v) === 'finding' ? `[${RISK_LABEL[e.risk]}${score}] ` : '';
  out.push('', ...wrap(`${label}${e.title}`, WIDTH));
  if (v.solution) out.push(...wrap(`Solution: ${v.solution}`, WIDTH, '  '));
  out.push(...wrap(`${e.ip} port ${e.port}  ${e.id}  baseline: ${e.baseline}`, WIDTH, '  '));
  const cves = collapse(v.cves);
  if (cves.shown.length)
    out.push(
      ...wrap(`CVE: ${cves.shown.join(', ')}${cves.more.length ? ` and ${cves.more.length} more` : ''}`, WIDTH, '  '),
    );
  if (v.vector) out.push(...wrap(`Vector: ${v.vector}`, WIDTH, '  '));
  for (const part of bodyParts(v))
    out.push(...wrap('line' in part ? part.line : `… and ${part.more.length} more CVEs ${ALL_IN}`, WIDTH, '  '));
  const refs = collapse(v.references);
  for (const r of refs.shown) out.push(...wrap(`See: ${r}`, WIDTH, '  '));
  if (refs.more.length) out.push(...wrap(`… and ${refs.more.length} more references ${ALL_IN}`, WIDTH, '  '));
  if (v.qod) out.push(`  Quality of detection: ${clean(v.qod)}`);
  return out;
}

/** Column widths of the HOSTS table (80 columns: an IPv4 address fits; a longer IPv6 one pushes its row). */
const HOST_WIDTHS = [16, 6, 9, 8, 7, 6, 7, 9, 12];

/**
 * HOSTS (issue 26): a row per address that answered, up first, then the
 * down ones as ranges on one wrapped line: a /24 with 40 live hosts is 40
 * rows and a line, not 254 rows.
 */
function hostsLines(info: ScanInfo): string[] {
  const v = hostsOf(info);
  if (!v) return [];
  const row = (cells: string[]) =>
    cells
      .map((c, i) => (HOST_COLUMNS[i]!.numeric ? padStart(c, HOST_WIDTHS[i]!) : pad(c, HOST_WIDTHS[i]!)))
      .join('')
      .trimEnd();
  const out = ['', 'HOSTS', rule(), row(HOST_COLUMNS.map((c) => c.head))];
  for (const r of v.up) out.push(row(HOST_COLUMNS.map((c) => clean(c.cell(r)))));
  if (!v.up.length) out.push('None answered.');
  if (v.down.length)
    out.push(...wrap(`Down (${v.down.length}, no answer to host discovery): ${downRanges(v).join(', ')}`, WIDTH));
  if (v.up.some((r) => r.state === 'lost')) out.push('lost: answered, then went silent mid-scan and was given up.');
  return out;
}

/** The report for a terminal: 80 columns, no colour codes (a pipe or a mail keeps it readable). */
export function renderText(info: ScanInfo): string {
  const b = info.basic;
  const entries = orderedEntries(info);
  const counts = countsOf(info);
  const out: string[] = [rule('='), ...wrap(`Vigil audit report: ${b.title}`, WIDTH), rule('=')];
  for (const [k, v] of headLines(info)) {
    const [first, ...rest] = wrap(v, WIDTH - 15);
    out.push(pad(`${k}:`, 15) + first, ...rest.map((l) => ' '.repeat(15) + l));
  }
  if (b.summary) out.push('', ...wrap(b.summary, WIDTH));
  // A failed audit's note (why it failed) before anything else.
  const notes = entries.filter((v) => kindOf(v) === 'note');
  if (notes.length) out.push('', 'NOTES', rule(), ...notes.flatMap(entryLines).slice(1));

  out.push('', 'RISK COUNTS', rule());
  out.push(RISKS.map((r) => `${RISK_LABEL[r]}: ${counts.risk[r] ?? 0}`).join('   '));

  const grid = gridOf(info);
  if (grid.cats.length) {
    const catWidth = Math.min(40, Math.max(8, ...grid.cats.map((c) => c.length)) + 2);
    out.push('', 'CATEGORY x RISK', rule());
    out.push(pad('Category', catWidth) + RISKS.map((r) => padStart(RISK_LABEL[r], 8)).join(''));
    for (const c of grid.cats)
      out.push(
        pad(clean(c).slice(0, catWidth - 1), catWidth) +
          RISKS.map((r) => padStart(String(grid.cell(c, r)), 8)).join(''),
      );
  }

  // Findings only under FINDINGS, so the section holds as many entries as RISK COUNTS adds up to.
  const findings = entries.filter((v) => kindOf(v) === 'finding');
  out.push('', 'FINDINGS', rule());
  if (!findings.length) out.push('None.');
  for (const v of findings) out.push(...entryLines(v));

  const base = baselineOf(entries);
  out.push('', 'BASELINE', rule());
  out.push(base.counts.length ? base.counts.map(([s, n]) => `${s}: ${n}`).join('   ') : 'No findings to compare.');
  for (const v of base.resolved) out.push(...wrap(`Resolved on ${v.entry.ip}: ${v.body.slice(1).join(', ')}`, WIDTH));

  out.push(...hostsLines(info));

  out.push('', 'OPEN PORTS', rule());
  if (!info.ports.length) out.push('None found.');
  for (const p of info.ports)
    out.push(
      ...wrap(
        `${pad(p.hostip, 16)} ${padStart(String(p.portend), 5)}/${p.portprot.toLowerCase()}  ${p.portservice}`,
        WIDTH,
      ),
    );
  // What answers on each port and what it said (not findings: not counted above).
  const detected = entries.filter((v) => kindOf(v) === 'detection');
  if (detected.length) out.push('', 'SERVICE DETECTION', rule(), ...detected.flatMap(entryLines).slice(1));
  return `${out.join('\n')}\n`;
}
