import { type AuditCoverage, compare, type Seen } from './baseline.ts';
import type { Risk } from './engine/types.ts';
import type { ReportEntry, ScanInfo } from './report.ts';

/** One finding that came or went between two runs of a schedule. */
export interface Change {
  kind: 'new' | 'resolved';
  ip: string;
  port: number;
  id: string;
  title: string;
  risk: Risk;
}

/** A run as the comparison reads it: its report and what it covered (null: an audit from before issue 15). */
export interface Run {
  report: ScanInfo;
  coverage: AuditCoverage | null;
}

/** Entries that are not findings of the address: the baseline's own list and a failed audit's note. */
const NOT_SEEN = new Set(['vigil.baseline.resolved', 'vigil.audit.failed']);

function entries(info: ScanInfo): ReportEntry[] {
  return Object.values(info.entries ?? {}).flatMap((group) => Object.values(group ?? {}));
}

const productOf = (run: Run, ip: string, port: number) => run.coverage?.products?.[ip]?.[String(port)];

/**
 * What changed from the previous run of a schedule to this one, for
 * alert=changes (docs/audits.md, "Alerts on change"): the baseline's own
 * comparison (baseline.ts `compare`, like with like: a finding is resolved
 * only where this run checked for it), between two runs of one schedule,
 * so of the same audit type and the same ports. A finding is its check,
 * its port and the product detection named on that port: when another
 * product answers there now (nginx where Apache was), what the old one
 * showed is resolved and what the new one shows is new, even under the
 * same check id. The per-port detection entries count: a port that opened
 * or closed is a change. New findings first, each group in report order.
 */
export function changesBetween(previous: Run, current: Run): Change[] {
  const now = entries(current.report).filter((e) => !NOT_SEEN.has(e.id) && e.baseline !== 'resolved');
  const before = entries(previous.report).filter((e) => !NOT_SEEN.has(e.id) && e.baseline !== 'resolved');
  const ips = [...new Set([...now, ...before].map((e) => e.ip))];
  const seen = (e: ReportEntry): Seen => ({ id: e.id, port: Number(e.port) });
  const change = (kind: Change['kind'], e: ReportEntry): Change => ({
    kind,
    ip: e.ip,
    port: Number(e.port),
    id: e.id,
    title: e.title,
    risk: e.risk,
  });
  const added: Change[] = [];
  const gone: Change[] = [];
  for (const ip of ips) {
    const here = now.filter((e) => e.ip === ip);
    const there = before.filter((e) => e.ip === ip);
    const coverage = current.coverage ?? { ports: current.report.basic.scanportstcp, checks: [] };
    const cmp = compare(ip, { coverage, found: here.map(seen) }, [
      { coverage: previous.coverage, scannedPorts: previous.report.basic.scanportstcp, found: there.map(seen) },
    ]);
    for (const e of here) {
      const port = Number(e.port);
      const [was, is] = [productOf(previous, ip, port), productOf(current, ip, port)];
      const otherProduct = was !== undefined && is !== undefined && was !== is;
      if (cmp.status(seen(e)) === 'new' || otherProduct) added.push(change('new', e));
      if (otherProduct) {
        const old = there.find((t) => t.id === e.id && Number(t.port) === port);
        if (old) gone.push(change('resolved', old));
      }
    }
    for (const r of cmp.resolved) {
      const old = there.find((t) => t.id === r.id && Number(t.port) === r.port);
      if (old) gone.push(change('resolved', old));
    }
  }
  return [...added, ...gone];
}
