import { cveFacts, cveRisk, higherRisk, topScore } from './cvss.ts';
import type { Check, Finding, Risk } from './types.ts';

/**
 * Everything a report says about one finding beyond what was seen: the
 * CVEs, the risk group, the score, the fix and where to read more. The
 * report, the mail and the console take these from here and nowhere else.
 */
export interface FindingFacts {
  cves: string[];
  risk: Risk;
  /** CVSS v3.x base score (0.0-10.0) of the most serious CVE, or null without one. */
  score: number | null;
  /** That CVE's CVSS v3.x vector, e.g. `CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H`. */
  vector: string | null;
  /** The fix, for the report's "Solution:" line. */
  solution: string;
  /** URLs: the NVD page of every CVE, then vendor advisories. */
  references: string[];
}

export const nvdUrl = (cve: string) => `https://nvd.nist.gov/vuln/detail/${cve}`;

/**
 * Risk: the highest group among the finding's CVEs by score (docs/scores.md),
 * else the finding's or check's declared risk. `other` stays `other`: an
 * informational check, or a finding settled as LOG because its quality of
 * detection is low (qod.ts), is not raised to an alarm by its CVEs' scores.
 */
export function findingFacts(check: Check, finding: Finding): FindingFacts {
  const cves = [...(finding.cves ?? check.cves)];
  const declared = finding.risk ?? check.risk;
  const top = topScore(cves);
  let scoredRisk: Risk | null = null;
  for (const cve of cves) {
    const r = cveRisk(cve);
    if (r) scoredRisk = scoredRisk ? higherRisk(scoredRisk, r) : r;
  }
  const advisories = cves.map((cve) => cveFacts(cve)?.advisory).filter((u): u is string => !!u);
  return {
    cves,
    risk: declared === 'other' || !scoredRisk ? declared : scoredRisk,
    score: top?.score ?? null,
    vector: top?.vector ?? null,
    solution: finding.solution ?? check.solution ?? '',
    references: [...new Set([...cves.map(nvdUrl), ...advisories, ...check.references])],
  };
}
