import { accountContracts } from './account.ts';
import { authAuditContracts } from './auth-audit.ts';
import { dnsDomainContracts } from './dns-domains.ts';
import { dnsRecordContracts } from './dns-records.ts';
import { dnsZoneContracts } from '../dns-zone-contract.ts';
import { dnssecContracts } from './dnssec.ts';
import { dnsHealthContracts } from './dns-health.ts';
import { scheduleContracts } from './schedules.ts';
import type { Contract } from './schema.ts';
import { SHARED_NAMES } from './shared.ts';

export * from './schema.ts';

/**
 * THE declarations of every script the API serves, by script name: what
 * src/api/scripts.ts serves (each entry there is one of these plus its
 * `run`), what the API validates before `run`, and what OpenAPI, the
 * reference doc and the typed client are derived from.
 */
export const CONTRACTS = {
  ...authAuditContracts,
  ...dnsDomainContracts,
  ...dnsRecordContracts,
  ...dnsZoneContracts,
  ...dnssecContracts,
  ...dnsHealthContracts,
  ...scheduleContracts,
  ...accountContracts,
} as const satisfies Record<string, Contract>;

export type ScriptName = keyof typeof CONTRACTS;

export { SHARED_NAMES, sharedOperation, type SharedName } from './shared.ts';

/** The operations a script name serves: its own, then those it shares. */
export function operationsOf(name: ScriptName): readonly ScriptName[] {
  return [name, ...((SHARED_NAMES as Partial<Record<ScriptName, readonly ScriptName[]>>)[name] ?? [])];
}
