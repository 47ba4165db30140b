import type { ScanInfo } from '../report.ts';
import { renderCsv } from './csv.ts';
import { renderHtml } from './html.ts';
import { renderText } from './text.ts';

export type ReportFormat = 'text' | 'csv' | 'html';

const FORMATS: Record<ReportFormat, (info: ScanInfo) => string> = {
  text: renderText,
  csv: renderCsv,
  html: renderHtml,
};

/**
 * The report (the spec's `scaninfo`) as text for a terminal, CSV for a
 * spreadsheet or an HTML document that prints to PDF. Pure, no node:
 * imports: the CLI, the completion mail and a browser console share it.
 */
export function renderReport(info: ScanInfo, format: ReportFormat): string {
  const render = FORMATS[format];
  if (!render) throw new TypeError(`unknown report format ${String(format)}`);
  return render(info);
}
