/**
 * The report's stylesheet, inline (the document loads nothing). Risk is told
 * by a word as well as a colour, so a greyscale print loses nothing; the
 * print rules keep an entry on one page and set the page margins.
 */
export const STYLE = `
:root { --high: #b3261e; --medium: #c25e00; --low: #8a6d00; --other: #1f5fa8; --ink: #1b1b1f; --muted: #5b5b66; --line: #d7d7de; }
* { box-sizing: border-box; }
body { font: 14px/1.45 -apple-system, "Segoe UI", Roboto, "Liberation Sans", Arial, sans-serif; color: var(--ink); margin: 0 auto; max-width: 1100px; padding: 24px; }
h1 { font-size: 22px; margin: 0 0 4px; }
h2 { font-size: 17px; border-bottom: 2px solid var(--ink); padding-bottom: 3px; margin: 28px 0 10px; }
h3 { font-size: 15px; margin: 18px 0 8px; }
.sub { color: var(--muted); margin: 0 0 14px; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: 4px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
th { background: #f3f3f6; }
td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; }
dl.head { display: grid; grid-template-columns: max-content 1fr; gap: 2px 16px; margin: 0; }
dl.head dt { font-weight: 600; }
dl.head dd { margin: 0; }
.summary { margin: 12px 0 0; padding: 8px 12px; background: #f3f3f6; border-left: 4px solid var(--ink); }
.counts { display: flex; gap: 12px; flex-wrap: wrap; }
.count { flex: 1 1 120px; border: 2px solid; border-radius: 6px; padding: 8px 12px; }
.count b { display: block; font-size: 26px; line-height: 1.1; }
.risk { display: inline-block; min-width: 64px; text-align: center; font-weight: 700; font-size: 12px; letter-spacing: .04em; color: #fff; border-radius: 4px; padding: 1px 6px; }
.high { border-color: var(--high); } .risk.high { background: var(--high); }
.medium { border-color: var(--medium); } .risk.medium { background: var(--medium); }
.low { border-color: var(--low); } .risk.low { background: var(--low); }
.other { border-color: var(--other); } .risk.other { background: var(--other); }
.entry { border: 1px solid var(--line); border-left: 6px solid; border-radius: 4px; padding: 8px 12px; margin: 0 0 10px; }
.entry.high { border-left-color: var(--high); } .entry.medium { border-left-color: var(--medium); }
.entry.low { border-left-color: var(--low); } .entry.other { border-left-color: var(--other); }
.refs-label { margin: 6px 0 0; font-size: 13px; font-weight: 600; }
.entry h4 { margin: 0 0 4px; font-size: 15px; }
.meta { color: var(--muted); font-size: 13px; margin: 0 0 6px; }
.meta code, .vector { font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 12px; }
.body p { margin: 0 0 4px; white-space: pre-wrap; overflow-wrap: anywhere; }
.solution { background: #eef6ee; border-left: 4px solid #2e7d32; padding: 6px 10px; margin: 6px 0; }
.refs { margin: 4px 0 0; padding-left: 18px; font-size: 13px; overflow-wrap: anywhere; }
.qod { color: var(--muted); font-size: 12px; margin: 4px 0 0; }
.cves { font-size: 13px; margin: 0 0 6px; overflow-wrap: anywhere; }
p.down { margin: 6px 0 0; overflow-wrap: anywhere; }
tr.host.lost td { color: var(--medium); }
details.more { margin: 2px 0 4px; }
details.more > summary { cursor: pointer; color: var(--muted); font-size: 13px; }
details.more p { margin: 2px 0; }
a { color: #1a4fa0; }
footer { color: var(--muted); font-size: 12px; margin-top: 28px; }
@page { size: A4; margin: 16mm 14mm; }
@media print {
  body { max-width: none; padding: 0; font-size: 9.5pt; line-height: 1.3; }
  h2 { margin-top: 16px; }
  .entry { padding: 5px 10px; margin-bottom: 6px; }
  .body p { margin: 0; }
  /* References on one running line: a list of 30 NVD links would push whole entries to the next page. */
  .refs { padding: 0; }
  .refs li { display: inline; }
  .refs li + li::before { content: " · "; }
  * { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
  h2, h3 { break-after: avoid; }
  .entry, .count, tr { break-inside: avoid; }
  a { color: inherit; text-decoration: none; }
}
`;
