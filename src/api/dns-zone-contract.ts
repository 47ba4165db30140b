import { DOMAIN } from './contract/dns-domains.ts';
import type { Contract } from './contract/schema.ts';

/**
 * The declarations of ZONES's own extension script (issue 16), pure data
 * like every contract (no node: imports, no domain code), so the table's
 * CONTRACTS and the typed client can take it as they take the others.
 * dnsImportZone's declarations are in the table's record contracts.
 */

/** dnsApplyChanges.php: several adds and deletes, all or none (docs/dns.md, "Several changes at once"). */
export const applyChangesContract = {
  summary:
    'extension: several record adds and deletes on one domain, checked against the zone they leave; all applied or none',
  requires: ['session', 'dnsSubscription'],
  storeDownError: 'dbConnectionFailure',
  systemError: 'unspecifiedError',
  extension: true,
  params: {
    domain: DOMAIN,
    changes: {
      required: true,
      kind: 'text',
      code: 'missingInput',
      checkedBy: 'domain',
      doc: 'a JSON array of changes: `{"action":"add","type":"A","name":"www","ip":"192.0.2.1","ttl":"300"}` (the add script\'s fields) or `{"action":"delete","seq":"12"}`; at most 10,000',
    },
  },
  reply: {
    applied: {
      type: 'array',
      items: {
        type: 'object',
        fields: {
          index: { type: 'number' },
          action: { type: 'string', enum: ['add', 'delete'] },
          seq: { type: 'number' },
        },
      },
      doc: 'one per change, in order: the seq the add got or the seq deleted; empty when there are errors',
    },
    warnings: { type: 'array', items: { type: 'string' }, doc: 'what a publish would newly warn of' },
    errors: {
      type: 'array',
      items: {
        type: 'object',
        fields: { index: { type: 'number', nullable: true }, code: { type: 'string' }, message: { type: 'string' } },
      },
      doc: 'why nothing was applied: the index of the failing change (null: the final zone as a whole) and the code its add or delete script would answer',
    },
  },
  // A change's own failures (syntaxInvalidIP, recordNotDeleted…) are told in the reply's `errors`, not as the
  // call's code.
  errors: ['noSuchDomain', 'unspecifiedError'],
} as const satisfies Contract;

export const dnsZoneContracts = {
  'dnsApplyChanges.php': applyChangesContract,
} as const;
