import { QOD } from '../qod.ts';
import type { Check, Finding, HostFacts } from '../types.ts';
import { judge } from './backports.ts';
import { VERSION_BIND_CHECK } from './version-bind.ts';
import { inRange, parseRanges } from './version-compare.ts';
import { sightings } from './version-extract.ts';
import { VERSION_TABLE, type ProductTable, type VersionRow } from './version-table.ts';

/** One passive check per table row: it reads versions off HostFacts only. */
function rowCheck(table: ProductTable, row: VersionRow): Check {
  const cves = row.cve.split(' ');
  const first = cves[0]!;
  const ranges = parseRanges(row.affected);
  return {
    id: `vigil.version.${table.product}.${first.toLowerCase()}`,
    shortid: `${table.product.toUpperCase()}-${first.slice(4)}`,
    title: `${table.name}: ${row.title}`,
    category: table.category,
    risk: row.risk,
    cves,
    type: 'HOLE',
    description:
      `${table.name} releases in the range ${row.affected} are affected by ${cves.join(', ')} (${row.title}). ` +
      'Found by the version the service announces; upgrade to a fixed release. A distribution package ' +
      'whose revision shows the fix is not reported; one whose fix cannot be decided is reported as LOG at a low quality of detection.',
    intrusive: false,
    dos: false,
    active: false,
    qod: QOD.banner,
    async run(host: HostFacts): Promise<Finding[]> {
      const findings: Finding[] = [];
      try {
        for (const svc of host.services) {
          const s = sightings(svc).find((x) => x.product === table.product);
          if (!s || !inRange(s.version, ranges)) continue;
          const verdict = judge(table.product, s, cves);
          if (verdict.kind === 'fixed') continue;
          findings.push({
            port: svc.port,
            detail: `${s.seen} — ${table.name} ${s.version} is in the affected range (${row.affected}).${verdict.note}${table.caveat ? ` ${table.caveat}` : ''}`,
            qod: verdict.qod,
          });
        }
      } catch {
        return [];
      }
      return findings;
    },
  };
}

export const VERSION_CHECKS: readonly Check[] = Object.freeze([
  ...VERSION_TABLE.flatMap((table) => table.rows.map((row) => rowCheck(table, row))),
  VERSION_BIND_CHECK,
]);
