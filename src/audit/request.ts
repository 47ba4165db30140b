import type { AccountRow } from '../accounts/accounts.ts';
import { ApiError, type ErrorCode, fail } from '../errors.ts';
import { checksFor } from './engine/profiles.ts';
import { portsFor } from './engine/ports.ts';
import { MAX_PORTS, normalizedPorts, parsePorts } from './port-list.ts';
import type { AuditProgress } from './progress.ts';
import { expandTargets, permitted } from './targets.ts';
import { type AuditType, isAuditType } from './types.ts';

/** The fields of saRunAudit (and the audit part of saScheduleAudit) as received (undefined = absent). */
export interface RunFields {
  ipaddr?: string;
  audittype?: string;
  excludedos?: string;
  notification?: string;
  ports?: string;
}

/** The operator's bounds on what one account may ask (serve flags; docs/audits.md, "Limits"). */
export interface AuditLimits {
  /** Audits of one account queued or running at once (--audit-queue-limit). */
  queued: number;
  /** Ports one `ports` list may name, counting repeats (--audit-max-ports, at most 65,535). */
  maxPorts: number;
}

/** Embedded callers (benches, tests of the queue) that pass no limits get none. */
export const NO_LIMITS: AuditLimits = { queued: Number.POSITIVE_INFINITY, maxPorts: MAX_PORTS };

/** A request that passed the checks that need no state: what an audit row is made from. */
export interface CheckedRequest {
  type: AuditType;
  /** The targets as asked (items trimmed, comma-joined), or the caller's address. */
  hostip: string;
  addresses: string[];
  excludedos: boolean;
  notification: boolean;
  /** The ports asked for, sorted and distinct; null: the type's list. */
  ports: number[] | null;
  /** Their stored form (ranges); null: the type's list. */
  portsText: string | null;
}

/**
 * saRunAudit's checks that need no store, in the order docs/audits.md
 * gives (the API's table checks `audittype` and the entitlement first; a
 * scheduled run comes through here alone, so they are repeated):
 * missingAuditType, invalidAuditType, notEntitled, IPPermissionsProblem,
 * then syntaxInvalidPorts. The state checks (norisk, the queue limit)
 * follow in the transaction that writes the audit.
 */
export function checkRequest(
  account: AccountRow,
  f: RunFields,
  clientAddress: string,
  scanAllow: readonly string[],
  maxPorts: number,
): CheckedRequest {
  if (f.audittype === undefined || f.audittype === '') fail('missingAuditType');
  const type = f.audittype;
  if (!isAuditType(type)) fail('invalidAuditType');
  if (!account.audit_types.split(',').includes(type)) fail('notEntitled');
  const { hostip, addresses } = expandTargets(f.ipaddr, clientAddress);
  if (!permitted(addresses, account.allow_ip, scanAllow)) fail('IPPermissionsProblem');
  const ports = f.ports === undefined ? null : (parsePorts(f.ports, maxPorts) ?? fail('syntaxInvalidPorts'));
  return {
    type,
    hostip,
    addresses,
    excludedos: f.excludedos !== undefined,
    notification: f.notification === 'OCMP',
    ports,
    portsText: ports ? normalizedPorts(ports) : null,
  };
}

/** The code of a refusal, for a scheduled run that is refused (its failed audit says it). */
export function refusalCode(err: unknown): ErrorCode | null {
  return err instanceof ApiError ? err.code : null;
}

/** A queued audit's progress: nothing done, the totals it will run (known from its type, ports and addresses). */
export function queuedProgress(r: CheckedRequest): AuditProgress {
  return {
    phase: 'queued',
    portsScanned: 0,
    portsTotal: (r.ports ?? portsFor(r.type)).length * r.addresses.length,
    checksDone: 0,
    checksTotal: checksFor(r.type, r.excludedos).length * r.addresses.length,
  };
}
