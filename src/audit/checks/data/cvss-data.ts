import { CVSS_A } from './cvss-data-a.ts';
import { CVSS_B } from './cvss-data-b.ts';
import type { CveFacts } from './cvss-data-types.ts';

/**
 * Every CVE's CVSS facts, one lookup: the two halves read from NVD
 * (cvss-data-a.ts, cvss-data-b.ts) merged. A CVE in both must agree
 * (cvss.test.ts checks it).
 */
export const CVSS_PARTS: readonly Readonly<Record<string, CveFacts>>[] = [CVSS_A, CVSS_B];
