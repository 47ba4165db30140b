import type { AuditResult } from './engine/run.ts';
import type { AuditFacts, HostLine, WhatRan } from './report.ts';
import { isFindingEntry } from './report-count.ts';
import { type Draft, RISK_ORDER } from './report-entries.ts';

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * "Say what ran" (issue 15): the counts under `scaninfo.basic` and one
 * sentence a reader of the mail or the list can take in at once, e.g.
 * `standard audit of 127.0.0.7: 1021 TCP ports scanned on 1 address (4
 * open), 98 checks run per address, nmap's NSE scripts not run; 5
 * findings: 2 high, 1 medium, 2 for information; 1 earlier finding
 * resolved.` When the checks found nothing: `…; found nothing to report.`
 * Findings are counted as everywhere else (report-count.ts): the checks'
 * entries, not the per-port detection entries nor the resolved list, so
 * the sentence and `scaninfo.risk` give the same numbers.
 */
export function whatRan(a: AuditFacts, result: AuditResult, drafts: readonly Draft[], resolved: number): WhatRan {
  const open = result.hosts.reduce((n, h) => n + h.openPorts.length, 0);
  const addresses = result.hosts.length;
  const lines = hostLines(result);
  const down = lines.filter((h) => h.state === 'down').length;
  // Down addresses are named in the sentence, so that nothing is silently skipped (issue 26).
  const where = down
    ? `${addresses - down} of ${plural(addresses, 'address', 'addresses')} (${open ? `${open} open` : 'none open'}; ${down} down: no answer to host discovery)`
    : `${plural(addresses, 'address', 'addresses')} (${open ? `${open} open` : 'none open'})`;
  const nse = result.nse.ran
    ? `nmap${result.nse.version ? ` ${result.nse.version}` : ''} NSE scripts run`
    : "nmap's NSE scripts not run";
  const ran = `${a.type} audit of ${a.hostip}: ${plural(result.ports.length, 'TCP port')} scanned on ${where}, ${plural(result.checksRun, 'check')} run per address, ${nse}`;
  const findings = drafts.filter((d) => isFindingEntry({ id: d.id, baseline: d.baseline ?? 'new' }));
  const byRisk = RISK_ORDER.map((r) => [r, findings.filter((d) => d.risk === r).length] as const)
    .filter(([, n]) => n > 0)
    .map(([r, n]) => `${n} ${r === 'other' ? 'for information' : r}`);
  const found = findings.length
    ? `${plural(findings.length, 'finding')}: ${byRisk.join(', ')}`
    : 'found nothing to report';
  const gone = resolved ? `; ${plural(resolved, 'earlier finding')} resolved` : '';
  return {
    portsScanned: result.ports.length,
    checksRun: result.checksRun,
    nse: result.nse,
    summary: `${ran}; ${found}${gone}.`,
    ...(lines.length === addresses ? { discovery: !lines.some((h) => h.reason === 'assumed') } : {}),
    hostsUp: addresses - down,
    hostsDown: down,
    hosts: lines,
  };
}

/** `basic.hosts`: each address's scan, in the order asked (hosts without a scan record are left out). */
function hostLines(result: AuditResult): HostLine[] {
  return result.hosts.flatMap((h) =>
    h.scan
      ? [
          {
            ip: h.address,
            state: h.scan.up ? ('up' as const) : ('down' as const),
            reason: h.scan.reason ?? 'no-response',
            rtt: h.scan.rttMs,
            portsScanned: h.scan.portsScanned,
            open: h.scan.open.length,
            closed: h.scan.closed,
            filtered: h.scan.filtered,
            unreachable: h.scan.unreachable,
            dropped: h.scan.dropped,
          },
        ]
      : [],
  );
}
