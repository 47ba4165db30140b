import { QOD } from '../qod.ts';
import type { Check, Finding, HostFacts } from '../types.ts';
import { VERSION_BIND_CHECK } from './version-bind.ts';
import { sightings } from './version-extract.ts';
import { productFinding } from './version-finding.ts';
import { VERSION_TABLE, type ProductTable } from './version-table.ts';

/**
 * One passive check per product table: it reads versions off HostFacts
 * only, and gives one finding per port whose version the table knows to be
 * vulnerable, carrying all that version's CVEs (version-finding.ts).
 */
function productCheck(table: ProductTable): Check {
  const cves = [...new Set(table.rows.flatMap((r) => r.cve.split(' ')))];
  return {
    id: `vigil.version.${table.product}`,
    shortid: `VERSION-${table.product.toUpperCase()}`,
    title: `${table.name}: outdated release with known vulnerabilities`,
    category: table.category,
    risk: table.rows.some((r) => r.risk === 'high') ? 'high' : 'medium',
    cves,
    type: 'HOLE',
    description:
      `The ${table.name} version the service announces is in the affected range of published vulnerabilities (Vigil's table of ${cves.length} ${table.name} CVEs, ` +
      "from the vendor's advisories). A distribution package whose revision shows every fix is not reported; one whose fixes cannot be decided is reported as LOG at a low quality of detection.",
    solution:
      table.upgrade ??
      `Upgrade ${table.name} to the release the finding names, or install the distribution's security updates for it.`,
    intrusive: false,
    dos: false,
    active: false,
    qod: QOD.banner,
    async run(host: HostFacts): Promise<Finding[]> {
      const findings: Finding[] = [];
      try {
        for (const svc of host.services) {
          const s = sightings(svc).find((x) => x.product === table.product);
          const f = s && productFinding(table, s, svc.port);
          if (f) findings.push(f);
        }
      } catch {
        return [];
      }
      return findings;
    },
  };
}

export const VERSION_CHECKS: readonly Check[] = Object.freeze([...VERSION_TABLE.map(productCheck), VERSION_BIND_CHECK]);
