import type { ScanInfo } from '../report.ts';
import { hostSentence, hostsOf } from './hosts.ts';
import { kindOf, orderedEntries } from './model.ts';

export const CSV_COLUMNS = [
  'risk',
  'score',
  'port',
  'ip',
  'title',
  'cve',
  'baseline',
  'id',
  'solution',
  'description',
  'kind',
] as const;

/**
 * One cell (RFC 4180: quoted when it holds a quote, comma or line break;
 * quotes doubled). Titles and descriptions carry target banners, so a cell
 * a spreadsheet would read as a formula (= + - @, or a tab or CR that some
 * spreadsheets strip before looking) gets a leading apostrophe (OWASP, "CSV
 * Injection").
 */
export function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/**
 * One row per entry in report order after a header row; CRLF line ends as
 * RFC 4180 says. Nothing is collapsed here: `cve` and `description` hold
 * every CVE, `description` every reference (each once). `kind` says what
 * the entry is (`finding`, `detection`, `resolved`, `note`): counting the
 * rows whose kind is `finding` gives the report's risk counts. Then one row
 * of kind `host` per address (issue 26), up first, down ones too (a
 * spreadsheet filters; nothing is collapsed here): `title` says up, lost or
 * down, `description` what the scan saw.
 */
export function renderCsv(info: ScanInfo): string {
  const rows: string[][] = [[...CSV_COLUMNS]];
  for (const v of orderedEntries(info)) {
    const e = v.entry;
    const description = [
      ...v.body,
      ...(v.vector ? [`Vector: ${v.vector}`] : []),
      ...(v.references.length ? [`References: ${v.references.join(' ')}`] : []),
      ...(v.qod ? [`Quality of detection: ${v.qod}`] : []),
    ];
    rows.push([
      e.risk,
      v.score !== null ? v.score.toFixed(1) : '',
      e.port,
      e.ip,
      e.title,
      e.cve,
      e.baseline,
      e.id,
      v.solution ?? '',
      description.join('\n'),
      kindOf(v),
    ]);
  }
  const hosts = hostsOf(info);
  for (const r of hosts ? [...hosts.up, ...hosts.down] : [])
    rows.push(['', '', '', r.line.ip, `Host ${r.state}`, '', '', '', '', hostSentence(r), 'host']);
  return rows.map((r) => r.map(csvCell).join(',')).join('\r\n') + '\r\n';
}
