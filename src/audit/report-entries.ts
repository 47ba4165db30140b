import { findingFacts } from './engine/finding-facts.ts';
import type { HostResult } from './engine/run.ts';
import type { Check, Finding, Risk, Service } from './engine/types.ts';
import type { ReportEntry } from './report.ts';
import { DETECTION_ENTRY, RESOLVED_ENTRY } from './report-count.ts';
import { compareAddress } from './address-order.ts';
import { dedupeReferences, trimEvidence } from './report-evidence.ts';

/** An entry before numbering, with the score it sorts by (not a report field). */
export type Draft = Omit<ReportEntry, 'repid' | 'entrykey' | 'shortkey' | 'baseline'> & {
  baseline?: string;
  score: number | null;
};

const DETECTION_TEXT = 'A service answers on this port; this is what it said about itself.';

/**
 * The entry of one finding. Everything beyond what was seen comes from
 * findingFacts (CVEs, risk, score, solution, references); `description` is
 * the check's description, what was seen, then one line each for the
 * score, the solution, the references and the quality of detection, each
 * left out when there is nothing to say.
 */
export function findingDraft(address: string, check: Check, finding: Finding): Draft {
  const facts = findingFacts(check, finding);
  const lines = [check.description, finding.detail];
  if (facts.score !== null)
    lines.push(`Score: CVSS ${facts.score.toFixed(1)}${facts.vector ? ` (${facts.vector})` : ''}`);
  if (facts.solution) lines.push(`Solution: ${facts.solution}`);
  const references = dedupeReferences(facts.references);
  if (references.length) lines.push(`References: ${references.join(' ')}`);
  if (finding.qod !== undefined) lines.push(`Quality of detection: ${finding.qod}%`);
  return {
    id: check.id,
    shortid: check.shortid,
    ip: address,
    port: String(finding.port),
    cat: check.family,
    cve: facts.cves.join(','),
    risk: facts.risk,
    type: finding.type ?? check.type,
    title: finding.title ?? check.title,
    static_description: check.description,
    description: lines.filter(Boolean).join('\n'),
    score: facts.score,
  };
}

/** The LOG entry every open port gets: what answers there. */
export function detectionDraft(address: string, s: Service): Draft {
  return {
    id: DETECTION_ENTRY,
    shortid: 'SVC-DETECT',
    ip: address,
    port: String(s.port),
    cat: 'General',
    cve: '',
    risk: 'other',
    type: 'LOG',
    title: 'Service detected',
    static_description: DETECTION_TEXT,
    description: `${DETECTION_TEXT}\n${serviceLine(s)}`,
    score: null,
  };
}

function serviceLine(s: Service): string {
  const what = [s.product, s.version].filter(Boolean).join(' ');
  const tls = s.tls ? ` over ${s.tls.protocol}` : '';
  const sent = s.extra.sent ? `; sent: ${s.extra.sent}` : '';
  return `${s.port}/tcp: ${s.name}${what ? ` (${what})` : ''}${tls}${s.banner ? `${sent}; banner: ${shownBanner(s)}` : ''}`;
}

/**
 * The evidence of what answers: what detection sent (a client-first probe;
 * nothing for a greeting) and what came back. An HTTP banner is the whole
 * reply (status, headers, the start of the body: up to 512 characters);
 * the report shows its status line and Server header, which say what
 * answers. Any other reply is cut by trimEvidence to the lines that name
 * what detection found (its version, else its product, else its service
 * name) with their neighbours: a Redis INFO reply is 23 lines (redis-server
 * 7.0.15), of which `redis_version:` is the one that proves the version.
 */
function shownBanner(s: Service): string {
  if (!s.http) {
    const term = (s.version ?? s.product ?? (s.name !== 'unknown' ? s.name : '')).toLowerCase();
    return trimEvidence(s.banner!, (line) => !!term && line.toLowerCase().includes(term));
  }
  const status = s.banner!.split(/\r?\n/, 1)[0]!;
  const server = s.http.headers.server;
  return server ? `${status} (Server: ${server})` : status;
}

/** The drafts of one address, detection entries first, in the engine's order. */
export function hostDrafts(host: HostResult): Draft[] {
  return [
    ...host.services.map((s) => detectionDraft(host.address, s)),
    ...host.findings.map(({ check, finding }) => findingDraft(host.address, check, finding)),
  ];
}

const RESOLVED_TEXT = 'Findings of earlier audits of this address that this audit checked for and no longer sees.';

/** One entry per address listing what was resolved (`id on port N`, one a line). */
export function resolvedDraft(ip: string, gone: readonly { id: string; port: number }[]): Draft {
  const list = gone.map((g) => `${g.id} on port ${g.port}`).join('\n');
  return {
    id: RESOLVED_ENTRY,
    shortid: 'BASELINE-RESOLVED',
    ip,
    port: '0',
    cat: 'General',
    cve: '',
    risk: 'other',
    type: 'LOG',
    title: 'Resolved since the previous audit',
    static_description: RESOLVED_TEXT,
    description: `${RESOLVED_TEXT}\n${list}`,
    baseline: 'resolved',
    score: null,
  };
}

export const RISK_ORDER: readonly Risk[] = ['high', 'medium', 'low', 'other'];

/**
 * Report order: by risk group (high first), within a group by score
 * (highest first, unscored last), then port (as a number), then check id,
 * then address; the description breaks the last ties so that the order
 * never depends on which check finished first.
 */
export function byReportOrder(a: Draft, b: Draft): number {
  return (
    RISK_ORDER.indexOf(a.risk) - RISK_ORDER.indexOf(b.risk) ||
    (b.score ?? -1) - (a.score ?? -1) ||
    Number(a.port) - Number(b.port) ||
    a.id.localeCompare(b.id) ||
    compareAddress(a.ip, b.ip) ||
    a.description.localeCompare(b.description)
  );
}
