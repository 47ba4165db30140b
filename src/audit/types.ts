/** Audit types of the spec, from light to heavy (ARCHITECTURE.md). */
export const AUDIT_TYPES = ['basic', 'norisk', 'desktop', 'standard', 'advanced'] as const;
export type AuditType = (typeof AUDIT_TYPES)[number];

export function isAuditType(value: string): value is AuditType {
  return (AUDIT_TYPES as readonly string[]).includes(value);
}
