import type { AuditType } from '../types.ts';
import { CHECKS } from '../checks/catalogue.ts';
import type { Check, CheckClass, CheckTag } from './types.ts';

export type { CheckClass } from './types.ts';

/** A check's class: the first of its declared categories (types.ts Categories). */
export const classOf = (c: Check): CheckClass => c.categories[0];
const tagged = (c: Check, tag: CheckTag) => (c.categories as readonly string[]).includes(tag);

/** nmap NSE results are the heaviest and least predictable: advanced audits only. */
const isNse = (c: Check) => c.id.startsWith('vigil.nse.');

/**
 * Which checks each audit type runs (ARCHITECTURE.md: "norisk: only checks
 * that cannot disturb a service", "standard: all but intrusive checks",
 * "advanced: every check"):
 * - basic: passive safe checks (banners and headers already read);
 * - norisk: safe checks only, what an ordinary client sends;
 * - desktop: passive safe checks and the safe workstation checks;
 * - standard: safe and denial-of-service measurements (unless excludedos);
 * - advanced: everything, intrusive writes and nmap's NSE scripts included.
 * `excludedos` drops the dos class from any type (spec: "tests in the
 * denial-of-service category are excluded").
 */
const RULES: Record<AuditType, (c: Check, cls: CheckClass) => boolean> = {
  basic: (c, cls) => tagged(c, 'passive') && cls === 'safe',
  norisk: (c, cls) => cls === 'safe' && !isNse(c),
  desktop: (c, cls) => (tagged(c, 'desktop') || tagged(c, 'passive')) && cls === 'safe',
  standard: (c, cls) => cls !== 'intrusive' && !isNse(c),
  advanced: () => true,
};

export function checksFor(type: AuditType, excludedos: boolean, catalogue: readonly Check[] = CHECKS): Check[] {
  return catalogue.filter((c) => {
    const cls = classOf(c);
    return RULES[type](c, cls) && !(excludedos && cls === 'dos');
  });
}
