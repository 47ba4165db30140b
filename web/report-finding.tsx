// One finding of the console's report page, shown as the text and HTML
// reports show it (src/audit/render/): the solution right under the title,
// then where it was seen and the evidence; long lists (CVEs, a product's CVE
// lines, references) show their first few and keep the rest collapsed.
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import {
  bodyParts,
  collapse,
  CVE_ID,
  type EntryView,
  isWebUrl,
  nvdUrl,
  RISK_LABEL,
} from '../src/audit/render/model.ts';

function CveLinks({ cves }: { cves: string[] }) {
  return (
    <>
      {cves.map((c, i) => (
        <>
          {i > 0 && ', '}
          {CVE_ID.test(c) ? (
            <a href={nvdUrl(c)} rel="noreferrer noopener" target="_blank">
              {c}
            </a>
          ) : (
            c
          )}
        </>
      ))}
    </>
  );
}

function RefList({ refs }: { refs: string[] }) {
  return (
    <ul class="refs">
      {refs.map((u) => (
        <li>
          {isWebUrl(u) ? (
            <a href={u} rel="noreferrer noopener" target="_blank">
              {u}
            </a>
          ) : (
            u
          )}
        </li>
      ))}
    </ul>
  );
}

/**
 * The rest of a long list behind a button (as the HTML report's closed `<details>`; a button rather than a
 * nested `<details>`, so that a finding's own summary stays its only one). Closed in print too.
 */
function More({ n, what, children }: { n: number; what: string; children: ComponentChildren }) {
  const [open, setOpen] = useState(false);
  return (
    <div class="more">
      <button type="button" class="quiet" aria-expanded={open} onClick={() => setOpen(!open)}>
        {open ? `fewer ${what}` : `and ${n} more ${what}`}
      </button>
      {open && children}
    </div>
  );
}

/** The body's lines in one block between the collapsed CVE runs (one <pre> each). */
function bodyBlocks(v: EntryView): ({ text: string } | { more: string[] })[] {
  const out: ({ text: string } | { more: string[] })[] = [];
  for (const p of bodyParts(v)) {
    const last = out[out.length - 1];
    if ('more' in p) out.push(p);
    else if (last && 'text' in last) last.text += `\n${p.line}`;
    else out.push({ text: p.line });
  }
  return out;
}

export function Finding({ v }: { v: EntryView }) {
  const e = v.entry;
  const cves = collapse(v.cves);
  const refs = collapse(v.references);
  return (
    <details class={`finding risk-border-${e.risk}`}>
      <summary>
        <span class={`badge risk-${e.risk}`}>{RISK_LABEL[e.risk as keyof typeof RISK_LABEL] ?? e.risk}</span>{' '}
        {v.score !== null && <span class="score">{v.score.toFixed(1)}</span>} {e.title}{' '}
        {/* The address too: a range's report (issue 26) has findings on many hosts. */}
        <span class="muted">
          {e.ip} port {e.port}
        </span>
        {e.baseline && <span class="muted"> · {e.baseline}</span>}
      </summary>
      {v.solution && (
        <p>
          <strong>Solution:</strong> {v.solution}
        </p>
      )}
      {cves.shown.length > 0 && (
        <p>
          CVE: <CveLinks cves={cves.shown} />
        </p>
      )}
      {cves.more.length > 0 && (
        <More n={cves.more.length} what="CVEs">
          <p>
            <CveLinks cves={cves.more} />
          </p>
        </More>
      )}
      {v.vector && <p class="mono">{v.vector}</p>}
      {bodyBlocks(v).map((b) =>
        'text' in b ? (
          <pre class="desc">{b.text}</pre>
        ) : (
          <More n={b.more.length} what="CVEs">
            <pre class="desc">{b.more.join('\n')}</pre>
          </More>
        ),
      )}
      {refs.shown.length > 0 && <RefList refs={refs.shown} />}
      {refs.more.length > 0 && (
        <More n={refs.more.length} what="references">
          <RefList refs={refs.more} />
        </More>
      )}
      {v.qod && <p class="muted">Quality of detection: {v.qod}</p>}
    </details>
  );
}
