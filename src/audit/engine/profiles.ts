import type { AuditType } from '../types.ts';
import { CHECKS } from './checks/catalogue.ts';
import type { Check } from './types.ts';

/** nmap NSE results are the heaviest and least predictable: advanced audits only. */
const isNse = (c: Check) => c.id.startsWith('vigil.nse.');

/**
 * Which checks each audit type runs (ARCHITECTURE.md): basic reads banners
 * only; norisk never sends anything a normal client would not; desktop
 * adds workstation checks to the passive ones; standard runs all but
 * intrusive checks; advanced runs everything. `excludedos` drops the
 * denial-of-service checks from any type.
 */
const RULES: Record<AuditType, (c: Check) => boolean> = {
  basic: (c) => !c.active && !c.intrusive && !c.dos,
  norisk: (c) => !c.intrusive && !c.dos && !isNse(c),
  desktop: (c) => (c.desktop === true || !c.active) && !c.intrusive && !c.dos,
  standard: (c) => !c.intrusive && !c.dos && !isNse(c),
  advanced: () => true,
};

export function checksFor(type: AuditType, excludedos: boolean, catalogue: readonly Check[] = CHECKS): Check[] {
  return catalogue.filter((c) => RULES[type](c) && !(excludedos && (c.dos || c.category === 'Denial of Service')));
}
