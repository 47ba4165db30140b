/** One CVE's scoring facts as NVD publishes them (see cvss-data-a.ts). */
export interface CveFacts {
  /** CVSS v3.x vector string, or null when NVD has none (old CVEs). */
  vector: string | null;
  /** The v3.x base score NVD states for that vector. */
  score?: number;
  source?: 'nvd' | 'cna';
  /** CVSS v2 vector and score, only when there is no v3.x. */
  v2?: string;
  v2score?: number;
  /** The vendor's advisory. */
  advisory?: string;
  rejected?: true;
  missing?: true;
}
