import type { ScanInfo } from '../report.ts';
import {
  baselineOf,
  CVE_ID,
  type EntryView,
  gridOf,
  headLines,
  isWebUrl,
  nvdUrl,
  orderedEntries,
  RISK_LABEL,
  RISKS,
} from './model.ts';
import { STYLE } from './style.ts';

/**
 * Text into HTML text or a quoted attribute: banners, titles and
 * descriptions come from the target, which may be hostile.
 */
export function esc(s: string | number): string {
  return (
    String(s)
      .replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)
      // Control characters (a banner's terminal escapes) are parse errors in HTML: shown as `?` as in the text format.
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g, '?')
  );
}

const link = (href: string, text: string) => `<a href="${esc(href)}">${esc(text)}</a>`;
const cveLink = (cve: string) => (CVE_ID.test(cve) ? link(nvdUrl(cve), cve) : esc(cve));
const riskTag = (r: keyof typeof RISK_LABEL) => `<span class="risk ${r}">${RISK_LABEL[r]}</span>`;

function head(info: ScanInfo): string {
  const rows = headLines(info)
    .map(([k, v]) => `<dt>${esc(k)}</dt><dd>${esc(v)}</dd>`)
    .join('');
  const summary = info.basic.summary ? `<p class="summary">${esc(info.basic.summary)}</p>` : '';
  return `<header><h1>Vigil audit report</h1><p class="sub">${esc(info.basic.title)}</p><dl class="head">${rows}</dl>${summary}</header>`;
}

function counts(info: ScanInfo): string {
  const boxes = RISKS.map((r) => `<div class="count ${r}">${riskTag(r)}<b>${info.risk[r] ?? 0}</b></div>`).join('');
  return `<section><h2>Risk counts</h2><div class="counts">${boxes}</div></section>`;
}

function grid(info: ScanInfo): string {
  const g = gridOf(info);
  if (!g.cats.length) return '';
  const headRow = `<tr><th>Category</th>${RISKS.map((r) => `<th class="n">${RISK_LABEL[r]}</th>`).join('')}</tr>`;
  const rows = g.cats
    .map((c) => `<tr><td>${esc(c)}</td>${RISKS.map((r) => `<td class="n">${g.cell(c, r) || ''}</td>`).join('')}</tr>`)
    .join('');
  return `<section><h2>Category × risk</h2><table class="grid">${headRow}${rows}</table></section>`;
}

function entry(v: EntryView): string {
  const e = v.entry;
  const score = v.score !== null ? ` · CVSS <b>${v.score.toFixed(1)}</b>` : '';
  const cves = v.cves.length ? ` · ${v.cves.map(cveLink).join(', ')}` : '';
  const meta = `${esc(e.ip)} port ${esc(e.port)}${score}${cves} · baseline: ${esc(e.baseline)} · <code>${esc(e.id)}</code>`;
  const vector = v.vector ? `<p class="vector">${esc(v.vector)}</p>` : '';
  const body = v.body.map((l) => `<p>${esc(l)}</p>`).join('');
  const solution = v.solution ? `<div class="solution"><b>Solution:</b> ${esc(v.solution)}</div>` : '';
  const refs = v.references.length
    ? `<p class="refs-label">References</p><ul class="refs">${v.references.map((r) => `<li>${isWebUrl(r) ? link(r, r) : esc(r)}</li>`).join('')}</ul>`
    : '';
  const qod = v.qod ? `<p class="qod">Quality of detection: ${esc(v.qod)}</p>` : '';
  return `<article class="entry ${e.risk}" id="e${esc(e.entrykey)}"><h4>${riskTag(e.risk)} ${esc(e.title)}</h4><p class="meta">${meta}</p>${vector}<div class="body">${body}</div>${solution}${refs}${qod}</article>`;
}

function findings(entries: readonly EntryView[]): string {
  if (!entries.length) return '<section><h2>Findings</h2><p>None.</p></section>';
  const groups = RISKS.map((r) => {
    const here = entries.filter((v) => v.entry.risk === r);
    return here.length
      ? `<h3>${riskTag(r)} ${here.length} ${here.length === 1 ? 'entry' : 'entries'}</h3>${here.map(entry).join('')}`
      : '';
  });
  return `<section><h2>Findings</h2>${groups.join('')}</section>`;
}

function baseline(entries: readonly EntryView[]): string {
  const b = baselineOf(entries);
  const counts = b.counts.length
    ? `<table><tr><th>State</th><th class="n">Findings</th></tr>${b.counts.map(([s, n]) => `<tr><td>${esc(s)}</td><td class="n">${n}</td></tr>`).join('')}</table>`
    : '<p>No findings to compare.</p>';
  const resolved = b.resolved
    .map(
      (v) =>
        `<p>Resolved on ${esc(v.entry.ip)} since the previous audit:</p><ul>${v.body
          .slice(1)
          .map((l) => `<li>${esc(l)}</li>`)
          .join('')}</ul>`,
    )
    .join('');
  return `<section><h2>Baseline</h2>${counts}${resolved}</section>`;
}

function ports(info: ScanInfo): string {
  if (!info.ports.length) return '<section><h2>Open ports</h2><p>None found.</p></section>';
  const rows = info.ports
    .map(
      (p) =>
        `<tr><td>${esc(p.hostip)}</td><td class="n">${esc(p.portend)}</td><td>${esc(p.portprot)}</td><td>${esc(p.portservice)}</td></tr>`,
    )
    .join('');
  return `<section><h2>Open ports</h2><table class="ports"><tr><th>Address</th><th class="n">Port</th><th>Protocol</th><th>Service</th></tr>${rows}</table></section>`;
}

/**
 * One self-contained document: inline CSS, no script, nothing fetched (the
 * Content-Security-Policy says so to the browser that opens the mail's
 * attachment, a second fence after the escaping).
 */
export function renderHtml(info: ScanInfo): string {
  const entries = orderedEntries(info);
  const csp = "default-src 'none'; style-src 'unsafe-inline'; img-src 'none'; form-action 'none'; base-uri 'none'";
  return [
    '<!DOCTYPE html>',
    '<html lang="en"><head><meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${csp}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${esc(`Vigil audit ${info.basic.scanuid}: ${info.basic.title}`)}</title>`,
    `<style>${STYLE}</style></head><body>`,
    head(info),
    counts(info),
    grid(info),
    findings(entries),
    baseline(entries),
    ports(info),
    `<footer>Vigil audit ${esc(info.basic.scanuid)} · report ${esc(info.basic.reporttype)}</footer>`,
    '</body></html>',
    '',
  ].join('\n');
}
