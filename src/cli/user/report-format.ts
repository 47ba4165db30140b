import type { ScanInfo } from '../../audit/report.ts';
import { renderReport } from '../../audit/render/index.ts';

export const REPORT_FORMATS = ['json', 'text', 'csv', 'html'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

/**
 * A report in text, csv or html, by the renderer the completion mail also
 * uses (src/audit/render/: pure, so it runs here on the client with the
 * API's `scaninfo`, and the user's copy matches the mail's attachment).
 */
export function renderedReport(info: ScanInfo, format: Exclude<ReportFormat, 'json'>): string {
  return renderReport(info, format);
}
