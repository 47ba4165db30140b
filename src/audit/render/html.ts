import type { ScanInfo } from '../report.ts';
import {
  baselineOf,
  bodyParts,
  collapse,
  countsOf,
  CVE_ID,
  type EntryView,
  gridOf,
  headLines,
  isWebUrl,
  kindOf,
  nvdUrl,
  orderedEntries,
  RISK_LABEL,
  RISKS,
} from './model.ts';
import { downRanges, HOST_COLUMNS, hostsOf } from './hosts.ts';
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
  const risk = countsOf(info).risk;
  const boxes = RISKS.map((r) => `<div class="count ${r}">${riskTag(r)}<b>${risk[r] ?? 0}</b></div>`).join('');
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

/** The rest of a long list, closed until the reader opens it (`<details>` needs no script). */
const more = (n: number, what: string, inner: string) =>
  `<details class="more"><summary>and ${n} more ${what}</summary>${inner}</details>`;

const refItem = (r: string) => `<li>${isWebUrl(r) ? link(r, r) : esc(r)}</li>`;

/**
 * One entry: the title, then what to do (the solution right under it, as
 * GSA shows it first), where it was seen, then the evidence. Lists longer
 * than SHOWN (CVEs, a product's CVE lines, references) show their first
 * items and keep the rest in a closed `<details>`.
 */
function entry(v: EntryView): string {
  const e = v.entry;
  const score = v.score !== null ? ` · CVSS <b>${v.score.toFixed(1)}</b>` : '';
  const meta = `${esc(e.ip)} port ${esc(e.port)}${score} · baseline: ${esc(e.baseline)} · <code>${esc(e.id)}</code>`;
  const c = collapse(v.cves);
  const cves = c.shown.length
    ? `<div class="cves">CVE: ${c.shown.map(cveLink).join(', ')}${c.more.length ? more(c.more.length, 'CVEs', `<p>${c.more.map(cveLink).join(', ')}</p>`) : ''}</div>`
    : '';
  const vector = v.vector ? `<p class="vector">${esc(v.vector)}</p>` : '';
  const body = bodyParts(v)
    .map((p) =>
      'line' in p
        ? `<p>${esc(p.line)}</p>`
        : more(p.more.length, 'CVEs', p.more.map((l) => `<p>${esc(l)}</p>`).join('')),
    )
    .join('');
  const solution = v.solution ? `<div class="solution"><b>Solution:</b> ${esc(v.solution)}</div>` : '';
  const r = collapse(v.references);
  const refs = r.shown.length
    ? `<p class="refs-label">References</p><ul class="refs">${r.shown.map(refItem).join('')}</ul>${r.more.length ? more(r.more.length, 'references', `<ul class="refs">${r.more.map(refItem).join('')}</ul>`) : ''}`
    : '';
  const qod = v.qod ? `<p class="qod">Quality of detection: ${esc(v.qod)}</p>` : '';
  // A risk word only on findings: what the risk counts count is what is labelled.
  const tag = kindOf(v) === 'finding' ? `${riskTag(e.risk)} ` : '';
  return `<article class="entry ${e.risk}" id="e${esc(e.entrykey)}"><h4>${tag}${esc(e.title)}</h4>${solution}<p class="meta">${meta}</p>${cves}${vector}<div class="body">${body}</div>${refs}${qod}</article>`;
}

/** Findings only, grouped by risk: each group's heading gives the same number as the risk counts. */
function findings(entries: readonly EntryView[]): string {
  const found = entries.filter((v) => kindOf(v) === 'finding');
  if (!found.length) return '<section><h2>Findings</h2><p>None.</p></section>';
  const groups = RISKS.map((r) => {
    const here = found.filter((v) => v.entry.risk === r);
    return here.length
      ? `<h3>${riskTag(r)} ${here.length} ${here.length === 1 ? 'finding' : 'findings'}</h3>${here.map(entry).join('')}`
      : '';
  });
  return `<section><h2>Findings</h2>${groups.join('')}</section>`;
}

/** Entries of one kind that are not findings (a failed audit's note, what answers on each port) under a heading. */
function others(entries: readonly EntryView[], kind: 'note' | 'detection', heading: string): string {
  const here = entries.filter((v) => kindOf(v) === kind);
  return here.length ? `<section><h2>${heading}</h2>${here.map(entry).join('')}</section>` : '';
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

/**
 * Hosts (issue 26): a row per address that answered, up first; the down
 * ones counted and listed as ranges under the table, so a /24 prints as
 * its live hosts and one paragraph.
 */
function hosts(info: ScanInfo): string {
  const v = hostsOf(info);
  if (!v) return '';
  const th = HOST_COLUMNS.map((c) => `<th${c.numeric ? ' class="n"' : ''}>${esc(c.head)}</th>`).join('');
  const rows = v.up
    .map(
      (r) =>
        `<tr class="host ${r.state}">${HOST_COLUMNS.map((c) => `<td${c.numeric ? ' class="n"' : ''}>${esc(c.cell(r))}</td>`).join('')}</tr>`,
    )
    .join('');
  const table = v.up.length
    ? `<table class="hosts"><tr>${th}</tr>${rows}</table>`
    : '<p>No address answered host discovery.</p>';
  const down = v.down.length
    ? `<p class="down"><b>${v.down.length} down</b> (no answer to host discovery, not port-scanned): ${esc(downRanges(v).join(', '))}</p>`
    : '';
  const lost = v.up.some((r) => r.state === 'lost')
    ? '<p class="qod">lost: answered, then went silent mid-scan and was given up.</p>'
    : '';
  return `<section><h2>Hosts</h2>${table}${down}${lost}</section>`;
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
    others(entries, 'note', 'Notes'),
    counts(info),
    grid(info),
    findings(entries),
    baseline(entries),
    hosts(info),
    ports(info),
    others(entries, 'detection', 'Service detection'),
    `<footer>Vigil audit ${esc(info.basic.scanuid)} · report ${esc(info.basic.reporttype)}</footer>`,
    '</body></html>',
    '',
  ].join('\n');
}
