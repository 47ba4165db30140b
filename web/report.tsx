// One audit's report: risk counts as a bar chart, the category x risk grid
// as a heat map, findings sortable and filterable by risk, port and text,
// CVE links to NVD, the baseline, the hosts (report-hosts.tsx), open ports,
// and CSV/HTML export through the same renderer the CLI and the mail use
// (src/audit/render, pure).
import { useEffect, useMemo, useState } from 'preact/hooks';
import { ApiCallError, call } from './api.ts';
import { Finding } from './report-finding.tsx';
import { HostsTable } from './report-hosts.tsx';
import { words } from './words.ts';
import { renderReport } from '../src/audit/render/index.ts';
import {
  baselineOf,
  countsOf,
  gridOf,
  headLines,
  isFinding,
  orderedEntries,
  RISK_LABEL,
  RISKS,
} from '../src/audit/render/model.ts';
import { compareAddress } from '../src/audit/address-order.ts';
import type { ScanInfo } from '../src/audit/report.ts';

function download(name: string, type: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

// Counted as the report, its summary and the mail count them (src/audit/report-count.ts): findings only.
function RiskChart({ info }: { info: ScanInfo }) {
  const risk = countsOf(info).risk;
  const counts = RISKS.map((r) => [r, Number(risk[r] ?? 0)] as const);
  const max = Math.max(1, ...counts.map(([, n]) => n));
  return (
    <figure class="chart">
      <figcaption>Findings by risk</figcaption>
      <ul class="bars">
        {counts.map(([r, n]) => (
          <li key={r}>
            <span class="bar-label">{RISK_LABEL[r]}</span>
            <span class="bar-track">
              {n > 0 && <span class={`bar risk-${r}`} style={{ width: `${(n / max) * 100}%` }} />}
            </span>
            <span class="bar-value">{n}</span>
          </li>
        ))}
      </ul>
    </figure>
  );
}

function HeatMap({ info }: { info: ScanInfo }) {
  const { cats, cell } = gridOf(info);
  const max = Math.max(1, ...cats.flatMap((c) => RISKS.map((r) => cell(c, r))));
  if (!cats.length) return null;
  return (
    <div class="scroll">
      <table class="heat">
        <caption>Findings by category and risk</caption>
        <thead>
          <tr>
            <th scope="col">Category</th>
            {RISKS.map((r) => (
              <th scope="col">{RISK_LABEL[r]}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {cats.map((c) => (
            <tr key={c}>
              <th scope="row">{c}</th>
              {RISKS.map((r) => {
                const n = cell(c, r);
                return (
                  <td
                    class={`heat-${r}`}
                    style={{ opacity: n ? 0.35 + 0.65 * (n / max) : 1 }}
                    data-zero={n ? undefined : 'true'}
                  >
                    {n}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** A findings filter over the values findings have ("all" first): addresses, ports. */
function ChoiceFilter(props: { label: string; value: string; choices: string[]; onChange: (v: string) => void }) {
  return (
    <label>
      {props.label}{' '}
      <select
        aria-label={props.label}
        value={props.value}
        onChange={(e) => props.onChange((e.currentTarget as HTMLSelectElement).value)}
      >
        <option value="">all</option>
        {props.choices.map((c) => (
          <option value={c}>{c}</option>
        ))}
      </select>
    </label>
  );
}

export function ReportPage({ scanuid }: { scanuid: string }) {
  const [info, setInfo] = useState<ScanInfo | null>(null);
  const [error, setError] = useState('');
  const [risk, setRisk] = useState('');
  const [port, setPort] = useState('');
  const [address, setAddress] = useState('');
  const [text, setText] = useState('');
  const [sort, setSort] = useState('risk');
  useEffect(() => {
    call('saGetAuditReport.php', { scanuid }).then(
      (r) => setInfo((r as { scaninfo: ScanInfo }).scaninfo),
      (e) => setError(e instanceof ApiCallError ? words(e.code) : String(e)),
    );
  }, [scanuid]);
  const all = useMemo(() => (info ? orderedEntries(info) : []), [info]);
  // Print shows every finding open (browsers without ::details-content too); closed again after.
  useEffect(() => {
    let opened: HTMLDetailsElement[] = [];
    const before = () => {
      opened = [
        ...document.querySelectorAll<HTMLDetailsElement>('details.finding:not([open]), details.down-hosts:not([open])'),
      ];
      for (const d of opened) d.open = true;
    };
    const afterPrint = () => opened.forEach((d) => (d.open = false));
    addEventListener('beforeprint', before);
    addEventListener('afterprint', afterPrint);
    return () => {
      removeEventListener('beforeprint', before);
      removeEventListener('afterprint', afterPrint);
    };
  }, []);
  if (error)
    return (
      <p class="error" role="alert">
        {error}
      </p>
    );
  if (!info) return <p>Loading the report…</p>;
  const findings = all.filter(isFinding);
  const ports = [...new Set(findings.map((v) => v.entry.port))].sort(
    (a, b) => Number(a) - Number(b) || a.localeCompare(b),
  );
  // A range's report has findings on many hosts: the address narrows them to one.
  const addresses = [...new Set(findings.map((v) => v.entry.ip))].sort(compareAddress);
  const t = text.toLowerCase();
  let shown = findings.filter(
    (v) =>
      (!risk || v.entry.risk === risk) &&
      (!address || v.entry.ip === address) &&
      (!port || v.entry.port === port) &&
      (!t || `${v.entry.title}\n${v.entry.description}\n${v.entry.cve}`.toLowerCase().includes(t)),
  );
  if (sort === 'score') shown = [...shown].sort((a, b) => (b.score ?? -1) - (a.score ?? -1));
  if (sort === 'port') shown = [...shown].sort((a, b) => Number(a.entry.port) - Number(b.entry.port));
  const base = baselineOf(all);
  const name = `vigil-audit-${info.basic.scanuid}`;
  return (
    <section class="report">
      <p class="no-print">
        <a href="#/audits">← All audits</a>
      </p>
      <h1>Audit report {info.basic.scanuid}</h1>
      <div class="actions no-print">
        <button type="button" onClick={() => download(`${name}.csv`, 'text/csv', renderReport(info, 'csv'))}>
          Export CSV
        </button>
        <button type="button" onClick={() => download(`${name}.html`, 'text/html', renderReport(info, 'html'))}>
          Export HTML
        </button>
        <button type="button" onClick={() => print()}>
          Print
        </button>
      </div>
      <dl class="figures">
        {headLines(info).map(([k, v]) => (
          <div>
            <dt>{k}</dt>
            <dd>{v}</dd>
          </div>
        ))}
      </dl>
      <div class="two">
        <RiskChart info={info} />
        <HeatMap info={info} />
      </div>
      {base.counts.length > 0 && (
        <p>
          Baseline: {base.counts.map(([k, n]) => `${n} ${k}`).join(', ')}
          {base.resolved.length ? `; ${base.resolved.length} resolved since the previous audit` : ''}.
        </p>
      )}
      <HostsTable info={info} />
      <h2>Open ports</h2>
      <div class="scroll">
        <table>
          <thead>
            <tr>
              <th scope="col">Address</th>
              <th scope="col">Port</th>
              <th scope="col">Protocol</th>
              <th scope="col">Service</th>
            </tr>
          </thead>
          <tbody>
            {info.ports.map((p) => (
              <tr>
                <td class="mono">{p.hostip}</td>
                <td>{p.portend}</td>
                <td>{p.portprot}</td>
                <td>{p.portservice}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <h2>
        Findings ({shown.length} of {findings.length})
      </h2>
      <form class="inline no-print" onSubmit={(e) => e.preventDefault()} aria-label="Filter findings">
        <label>
          Risk{' '}
          <select
            aria-label="Risk"
            value={risk}
            onChange={(e) => setRisk((e.currentTarget as HTMLSelectElement).value)}
          >
            <option value="">all</option>
            {RISKS.map((r) => (
              <option value={r}>{RISK_LABEL[r]}</option>
            ))}
          </select>
        </label>
        <ChoiceFilter label="Address" value={address} choices={addresses} onChange={setAddress} />
        <ChoiceFilter label="Port" value={port} choices={ports} onChange={setPort} />
        <label>
          Text{' '}
          <input type="search" value={text} onInput={(e) => setText((e.currentTarget as HTMLInputElement).value)} />
        </label>
        <label>
          Sort by{' '}
          <select
            aria-label="Sort by"
            value={sort}
            onChange={(e) => setSort((e.currentTarget as HTMLSelectElement).value)}
          >
            <option value="risk">risk</option>
            <option value="score">score</option>
            <option value="port">port</option>
          </select>
        </label>
      </form>
      <div class="findings">
        {shown.map((v) => (
          <Finding key={v.entry.entrykey} v={v} />
        ))}
      </div>
      {base.resolved.length > 0 && (
        <>
          <h2>Resolved since the previous audit</h2>
          <ul>
            {base.resolved.map((v) => (
              <li>
                {v.entry.title} (port {v.entry.port})
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
