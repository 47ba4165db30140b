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
  /** The fix, for the report's "Solution:" line ('' when the check names none). */
  solution: string;
  /** URLs: the NVD page of every CVE, then vendor advisories. */
  references: string[];
}

export const nvdUrl = (cve: string) => `https://nvd.nist.gov/vuln/detail/${cve}`;

export function findingFacts(check: Check, finding: Finding): FindingFacts {
  const cves = [...(finding.cves ?? check.cves)];
  return {
    cves,
    risk: finding.risk ?? check.risk,
    score: null,
    vector: null,
    solution: finding.solution ?? check.solution ?? '',
    references: cves.map(nvdUrl),
  };
}
