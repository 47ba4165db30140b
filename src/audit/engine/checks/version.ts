import type { Check, Finding, HostFacts } from '../types.ts';
import { VERSION_BIND_CHECK } from './version-bind.ts';
import { inRange, parseRanges } from './version-compare.ts';
import { sightings } from './version-extract.ts';
import { VERSION_TABLE, type ProductTable, type VersionRow } from './version-table.ts';

/** Said in every detail: a version match is evidence, not proof. */
function backportNote(distro: string | null): string {
  return distro
    ? ` This looks like a ${distro} package: the distribution may have backported the fix without changing the version; check its security tracker.`
    : '';
}

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
      'Found by the version the service announces; upgrade to a fixed release.',
    intrusive: false,
    dos: false,
    active: false,
    async run(host: HostFacts): Promise<Finding[]> {
      const findings: Finding[] = [];
      try {
        for (const svc of host.services) {
          const s = sightings(svc).find((x) => x.product === table.product);
          if (!s || !inRange(s.version, ranges)) continue;
          findings.push({
            port: svc.port,
            detail: `${s.seen} — ${table.name} ${s.version} is in the affected range (${row.affected}).${backportNote(s.distro)}${table.caveat ? ` ${table.caveat}` : ''}`,
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
