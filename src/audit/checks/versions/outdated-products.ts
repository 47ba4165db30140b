import { QOD } from '../../engine/qod.ts';
import { type ProductTable, VERSION_TABLE } from '../data/version-table.ts';
import { type Check, defineCheck } from '../kit.ts';
import { sightings } from './lib/version-extract.ts';
import { productFinding } from './lib/version-finding.ts';

/**
 * Outdated releases, one check per product table (data/version-table*.ts):
 * passive, it reads the version detection saw on every port and gives one
 * finding per port whose version the table knows to be vulnerable,
 * carrying all that version's CVEs (lib/version-finding.ts). A new product
 * is one table row set, not code: this file is the check, the tables are
 * its data (as one NSE script, vulners, reads its database).
 */
function outdated(table: ProductTable): Check {
  const cves = [...new Set(table.rows.flatMap((r) => r.cve.split(' ')))];
  return defineCheck({
    id: `vigil.version.${table.product}`,
    shortid: `VERSION-${table.product.toUpperCase()}`,
    title: `${table.name}: outdated release with known vulnerabilities`,
    family: table.category,
    categories: ['safe', 'passive', 'version', 'vuln', 'default'],
    risk: table.rows.some((r) => r.risk === 'high') ? 'high' : 'medium',
    cves,
    type: 'HOLE',
    description:
      `The ${table.name} version the service announces is in the affected range of published vulnerabilities (Vigil's table of ${cves.length} ${table.name} CVEs, ` +
      "from the vendor's advisories). A distribution package whose revision shows every fix is not reported; one whose fixes cannot be decided is reported as LOG at a low quality of detection.",
    solution:
      table.upgrade ??
      `Upgrade ${table.name} to the release the finding names, or install the distribution's security updates for it.`,
    qod: QOD.banner,
    // Every port detection described: a product's version can show on any of them.
    ports: { where: () => true },
    async run({ service, port }) {
      try {
        const s = service && sightings(service).find((x) => x.product === table.product);
        return s ? productFinding(table, s, port) : null;
      } catch {
        return null;
      }
    },
  });
}

export default VERSION_TABLE.map(outdated);
