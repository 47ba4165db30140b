import type { ScanInfo } from '../../audit/report.ts';

export const REPORT_FORMATS = ['json', 'text', 'csv', 'html'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];
type Rendered = Exclude<ReportFormat, 'json'>;
type Renderer = (info: ScanInfo, format: Rendered) => string;

/**
 * A report in text, csv or html, by the renderer the completion mail also
 * uses (src/audit/render/index.ts, `renderReport(info, format)`: pure, so
 * it runs here on the client with the API's `scaninfo`).
 *
 * Loaded by a computed name, with this file's own extension (.ts from the
 * sources, .js from dist/), because it is built beside this command in the
 * same session: a static import would stop the whole CLI from compiling
 * until it lands. Null while there is none.
 */
export async function renderedReport(info: ScanInfo, format: Rendered): Promise<string | null> {
  const ext = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
  let render: Renderer | undefined;
  try {
    render = ((await import(`../../audit/render/index${ext}`)) as { renderReport?: Renderer }).renderReport;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ERR_MODULE_NOT_FOUND') throw err;
  }
  return render ? render(info, format) : null;
}
