import { CONTENT } from './catalogue-content.ts';
import { SERVICES } from './catalogue-services.ts';
import type { Check } from './kit.ts';

/**
 * THE catalogue of checks: every check file of src/audit/checks/<family>/,
 * families in report order (catalogue.test.ts fails when a file is missing
 * here or listed twice). Its two halves, catalogue-content.ts and
 * catalogue-services.ts, keep each file readable; a new check goes at the
 * end of its family in the half that holds the family. A file's default
 * export is one check, or the checks of one data table. Ids are stable
 * forever (reports and baselines refer to them).
 */
export const FILES: Readonly<Record<string, Check | readonly Check[]>> = { ...CONTENT, ...SERVICES };

export const CHECKS: readonly Check[] = Object.freeze([...Object.values(FILES).flat()]);

/** The check of this id (tests and tools; the engine takes the profile's list from profiles.ts). */
export function checkById(id: string): Check {
  const c = CHECKS.find((x) => x.id === id);
  if (!c) throw new Error(`no check ${id}`);
  return c;
}
