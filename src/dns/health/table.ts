import type { HealthContext } from './context.ts';
import { DELEGATION_CHECKS } from './delegation.ts';
import { DNSSEC_CHECKS } from './dnssec.ts';
import { HOST_CHECKS } from './host-checks.ts';
import { MAIL_CHECKS } from './mail.ts';
import { NAME_CHECKS } from './names.ts';
import { type HealthCheck, type HealthFinding, LEVELS } from './types.ts';

/**
 * THE table of zone-health checks: every finding dnsCheckDomain.php can
 * give, with its level, family and reference. docs/dns.md ("Zone health")
 * lists the same rows; src/dns/health/table.test.ts holds the two together.
 */
export const HEALTH_CHECKS: readonly HealthCheck<HealthContext>[] = Object.freeze([
  ...DELEGATION_CHECKS,
  ...DNSSEC_CHECKS,
  ...NAME_CHECKS,
  ...MAIL_CHECKS,
  ...HOST_CHECKS,
]);

/**
 * Runs the rows at once (their look-ups are shared through the context)
 * and gives the findings most serious first. A row that throws is left
 * out and named to `failed`: one broken rule must not hide the others.
 */
export async function runChecks(
  ctx: HealthContext,
  rows: readonly HealthCheck<HealthContext>[],
  failed: (id: string, err: unknown) => void = () => {},
): Promise<HealthFinding[]> {
  const found = await Promise.all(
    rows.map(async (row) => {
      try {
        const hits = await row.run(ctx);
        return hits.map(
          (h): HealthFinding => ({
            id: row.id,
            level: h.level ?? row.level,
            name: h.name,
            message: h.message,
            solution: h.solution ?? row.solution,
          }),
        );
      } catch (err) {
        failed(row.id, err);
        return [];
      }
    }),
  );
  const rank = (f: HealthFinding) => LEVELS.indexOf(f.level);
  return found.flat().sort((a, b) => rank(a) - rank(b) || a.id.localeCompare(b.id) || a.name.localeCompare(b.name));
}
