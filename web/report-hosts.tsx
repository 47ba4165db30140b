// The report page's Hosts table (issue 26, "say what ran, per host"): the
// addresses that answered first, a row each with how they were found, the
// RTT, ports scanned and open / closed / filtered counts; the down ones
// counted in the heading and listed, as ranges, in a closed <details>. A
// /24 with discovery on is its live hosts and one line; with discovery off
// (254 rows up) the first ROWS rows show until the reader asks for all.
import { useState } from 'preact/hooks';
import { downRanges, HOST_COLUMNS, hostsOf } from '../src/audit/render/hosts.ts';
import type { ScanInfo } from '../src/audit/report.ts';

/** Rows shown before "Show all": a screen and a half of a /24, not 254. */
const ROWS = 50;

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export function HostsTable({ info }: { info: ScanInfo }) {
  const [all, setAll] = useState(false);
  const v = hostsOf(info);
  // Reports written before issue 26 have no per-host lines: the section is left out.
  if (!v) return null;
  const rows = all ? v.up : v.up.slice(0, ROWS);
  const ranges = downRanges(v);
  return (
    <section aria-labelledby="hosts-heading">
      <h2 id="hosts-heading">Hosts</h2>
      <p>
        {v.discovery
          ? `${plural(v.up.length, 'host')} up, ${v.down.length} down (no answer to host discovery)`
          : `${plural(v.up.length, 'address', 'addresses')} scanned, host discovery off`}
        .
      </p>
      {v.up.length > 0 && (
        <div class="scroll">
          <table class="hosts" aria-label="Hosts up">
            <thead>
              <tr>
                {HOST_COLUMNS.map((c) => (
                  <th scope="col" class={c.numeric ? 'num' : undefined}>
                    {c.head}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.line.ip} class={`host-${r.state}`}>
                  {HOST_COLUMNS.map((c, i) => (
                    <td class={i === 0 ? 'mono' : c.numeric ? 'num' : undefined}>{c.cell(r)}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {rows.length < v.up.length && (
        <button type="button" class="no-print" onClick={() => setAll(true)}>
          Show all {v.up.length} hosts
        </button>
      )}
      {v.up.some((r) => r.state === 'lost') && (
        <p class="muted">lost: answered, then went silent mid-scan and was given up.</p>
      )}
      {v.down.length > 0 && (
        <details class="down-hosts">
          <summary>{plural(v.down.length, 'down host')}: no answer to host discovery, not port-scanned</summary>
          <ul class="mono" aria-label="Down hosts">
            {ranges.map((r) => (
              <li key={r}>{r}</li>
            ))}
          </ul>
        </details>
      )}
    </section>
  );
}
