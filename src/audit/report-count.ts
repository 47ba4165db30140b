import { DETECTION_ID } from './baseline.ts';
import type { Risk } from './engine/types.ts';
import type { ScanInfo } from './report.ts';

// What counts as a finding, decided once for every surface (issue 31, "one
// count everywhere"): the report's `risk` and `riskcatgrid`, the summary
// sentence, the text/CSV/HTML reports, the console and the completion mail
// all count with `isFindingEntry`. Pure (no node: imports): the browser
// console bundles it.

/** The per-port entry of service detection: what answers on a port. */
export const DETECTION_ENTRY = DETECTION_ID;
/** The list of earlier findings gone since the previous audit (its `baseline` is `resolved`). */
export const RESOLVED_ENTRY = 'vigil.baseline.resolved';
/** The one entry of a failed audit's report, giving the reason. */
export const FAILED_ENTRY = 'vigil.audit.failed';

/**
 * A finding is an entry a check wrote. The spec counts "vulnerabilities
 * per risk level" in `scaninfo.risk` (api-spec 2.3): an open port with a
 * service on it is not one (the ports list and the detection entry say
 * what answers there), nor is the list of what was resolved, nor the note
 * saying why an audit failed. A check's informational (`other`) entry is a
 * finding: it reports something about the target the reader may act on.
 */
export function isFindingEntry(e: { id: string; baseline: string }): boolean {
  return e.id !== DETECTION_ENTRY && e.id !== RESOLVED_ENTRY && e.id !== FAILED_ENTRY && e.baseline !== 'resolved';
}

export interface FindingCounts {
  risk: Partial<Record<Risk, number>>;
  riskcatgrid: Record<string, number>;
}

/** `risk` and `riskcatgrid` of a set of entries: findings only, absent at 0. */
export function findingCounts(
  entries: Iterable<{ id: string; baseline: string; risk: Risk; cat: string }>,
): FindingCounts {
  const out: FindingCounts = { risk: {}, riskcatgrid: {} };
  for (const e of entries) {
    if (!isFindingEntry(e)) continue;
    out.risk[e.risk] = (out.risk[e.risk] ?? 0) + 1;
    const cell = `${e.cat}:${e.risk}`;
    out.riskcatgrid[cell] = (out.riskcatgrid[cell] ?? 0) + 1;
  }
  return out;
}

const entriesOf = (info: Pick<ScanInfo, 'entries'>) =>
  Object.values(info.entries ?? {}).flatMap((group) => Object.values(group ?? {}));

/**
 * The report with its counts made by the rule above. Reports stored before
 * issue 31 counted every entry (detection and resolved entries too); they
 * are recounted when read, so an old report and a new one say the same.
 */
export function recounted<T extends Pick<ScanInfo, 'entries' | 'risk' | 'riskcatgrid'>>(info: T): T {
  return { ...info, ...findingCounts(entriesOf(info)) };
}
