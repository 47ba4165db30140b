import { usage } from './exit.ts';

export const REPORT_FORMATS = ['json', 'text', 'csv', 'html'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

/** A report in text, csv or html, by the renderer the completion mail also uses (src/audit/render/). */
export async function renderedReport(info: unknown, format: Exclude<ReportFormat, 'json'>): Promise<string> {
  void info;
  throw usage(`--format ${format}: not available yet; use --format json`);
}
