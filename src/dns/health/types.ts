/**
 * Zone health (issue 30; docs/dns.md, "Zone health"): what one check of a
 * zone finds, in Zonemaster's levels, and what a check in the table is.
 */

/** Zonemaster's severities, most serious first (its "Severity Level Definitions"). */
export const LEVELS = ['ERROR', 'WARNING', 'NOTICE', 'INFO'] as const;
export type Level = (typeof LEVELS)[number];

/** One finding as dnsCheckDomain.php answers it (INTERFACE.md, "Zone health"). */
export interface HealthFinding {
  id: string;
  level: Level;
  /** The owner name or host it concerns, fully qualified without the final dot. */
  name: string;
  message: string;
  solution: string;
}

/** What a check's run reports: the name and the words; the row adds id, level and solution. */
export interface Hit {
  name: string;
  message: string;
  /** When this hit's fix differs from the row's. */
  solution?: string;
  /** When this hit is more or less serious than the row's usual (e.g. an expired signature). */
  level?: Level;
}

export type Family = 'delegation' | 'dnssec' | 'dangling' | 'mail' | 'web' | 'hosts';

/**
 * One row of the table (src/dns/health/table.ts): an id, the level it
 * reports at, its family, the reference its rule comes from (a Zonemaster
 * test case or an RFC section) and the run. Runs share their look-ups
 * through the context, which asks each question once.
 */
export interface HealthCheck<C> {
  readonly id: string;
  readonly level: Level;
  readonly family: Family;
  readonly reference: string;
  readonly solution: string;
  /** Needs nothing but the zone itself: what a publish runs even when the world cannot be asked. */
  readonly local?: true;
  run(ctx: C): Promise<Hit[]> | Hit[];
}
