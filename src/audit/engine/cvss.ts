/**
 * CVSS v3.x base scores, computed from NVD's vectors with a CVSS library
 * (ae-cvss-calculator, docs/scores.md says why), and the report's risk
 * group derived from them. The facts per CVE (vector, NVD's stated score,
 * advisory) are data in checks/cvss-data-*.ts; nothing here is typed in
 * by hand, so a wrong vector shows as a score differing from NVD's
 * (cvss.test.ts compares every entry).
 */
import cvssLib from 'ae-cvss-calculator';
import { CVSS_PARTS } from '../checks/data/cvss-data.ts';
import type { CveFacts } from '../checks/data/cvss-data-types.ts';
import type { Risk } from './types.ts';

// The package is a CommonJS webpack bundle: Node's ESM loader sees no named exports, only the default object.
const { Cvss2, Cvss3P0, Cvss3P1 } = cvssLib as unknown as typeof import('ae-cvss-calculator');

const FACTS = new Map<string, CveFacts>();
for (const part of CVSS_PARTS)
  for (const [cve, facts] of Object.entries(part)) if (!FACTS.has(cve)) FACTS.set(cve, facts);

export function cveFacts(cve: string): CveFacts | undefined {
  return FACTS.get(cve);
}

export function knownCves(): string[] {
  return [...FACTS.keys()];
}

/** Base score (0.0-10.0) of a CVSS v3.0/v3.1 vector; throws on anything else. */
export function baseScore(vector: string): number {
  const v = vector.startsWith('CVSS:3.1/')
    ? new Cvss3P1(vector)
    : vector.startsWith('CVSS:3.0/')
      ? new Cvss3P0(vector)
      : null;
  if (!v) throw new Error(`not a CVSS v3.x vector: ${vector}`);
  const base = v.calculateScores().base;
  if (typeof base !== 'number' || !(base >= 0 && base <= 10)) throw new Error(`no base score for ${vector}`);
  return base;
}

/** Base score of a CVSS v2 vector (old CVEs NVD never scored in v3). */
export function baseScoreV2(vector: string): number {
  const base = new Cvss2(vector).calculateScores().base;
  if (typeof base !== 'number' || !(base >= 0 && base <= 10)) throw new Error(`no base score for ${vector}`);
  return base;
}

export interface CveScore {
  cve: string;
  /** v3.x base score computed from `vector`. */
  score: number;
  vector: string;
}

const scored = new Map<string, CveScore | null>();

/** A CVE's v3.x score from its vector, or null when NVD has none (or we have no entry). */
export function cveScore(cve: string): CveScore | null {
  if (!scored.has(cve)) {
    const f = FACTS.get(cve);
    scored.set(cve, f?.vector ? { cve, score: baseScore(f.vector), vector: f.vector } : null);
  }
  return scored.get(cve)!;
}

/** CVSS v3 qualitative rating (FIRST, CVSS v3.1 specification §5). */
export type Rating = 'critical' | 'high' | 'medium' | 'low' | 'none';

export function ratingOf(score: number): Rating {
  return score >= 9 ? 'critical' : score >= 7 ? 'high' : score >= 4 ? 'medium' : score > 0 ? 'low' : 'none';
}

/**
 * The spec's risk groups have no "critical": critical and high go to
 * `high`, medium to `medium`, low to `low`, none to `other`
 * (docs/scores.md).
 */
export function riskOfScore(score: number): Risk {
  const r = ratingOf(score);
  return r === 'critical' ? 'high' : r === 'none' ? 'other' : r;
}

const RANK: Record<Risk, number> = { other: 0, low: 1, medium: 2, high: 3 };

export function higherRisk(a: Risk, b: Risk): Risk {
  return RANK[a] >= RANK[b] ? a : b;
}

/**
 * One CVE's risk group from its v3.x score, or null without one. CVSS v2
 * scores do not count: the CVEs NVD scored only in v2 are mostly the
 * 1999-era configuration entries ("The Telnet service is running"), which
 * NVD scores 0.0 "because this CVE entry has no impact as a software flaw"
 * while the configuration may well matter; the check's own risk stands.
 */
export function cveRisk(cve: string): Risk | null {
  const s = cveScore(cve);
  return s ? riskOfScore(s.score) : null;
}

/** A CVE's v2 base score (computed from its v2 vector) when it has no v3.x one: shown, never used for risk. */
export function cveScoreV2(cve: string): number | null {
  const f = FACTS.get(cve);
  return !f?.vector && f?.v2 ? baseScoreV2(f.v2) : null;
}

/** The most serious scored CVE of a list (highest v3.x score; ties: first), or null. */
export function topScore(cves: readonly string[]): CveScore | null {
  let top: CveScore | null = null;
  for (const cve of cves) {
    const s = cveScore(cve);
    if (s && (!top || s.score > top.score)) top = s;
  }
  return top;
}
