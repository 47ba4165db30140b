import type { Contract } from './schema.ts';

/**
 * accountGetInfo.php (extension, issue 17): what an account may do, in one
 * reply. The spec tells a client its entitlements only by refusing
 * (`notEntitled`, `dnsEntitlementsOrCreditsMissing`), so a person filling
 * in a run form could not know which audit types or addresses would pass;
 * the console's account page and run form read this instead.
 */
export const accountContracts = {
  'accountGetInfo.php': {
    summary:
      'extension: the account: its audit entitlements, the addresses it may audit, its DNS subscription and credits',
    requires: ['session'],
    extension: true,
    params: {},
    reply: {
      userid: { type: 'string' },
      email: { type: 'string', optional: true, doc: 'where audit mail goes; absent when none is set' },
      auditTypes: {
        type: 'array',
        items: { type: 'string', enum: ['advanced', 'standard', 'norisk', 'desktop', 'basic'] },
        doc: 'the audit types saRunAudit.php accepts from this account; empty: none',
      },
      allowedAddresses: {
        type: 'array',
        items: { type: 'string' },
        doc: 'the addresses, ranges and patterns the account may audit (as the operator set them); empty: none',
      },
      dnsSubscription: {
        type: 'boolean',
        doc: 'whether the account may host domains (a subscription that has not expired)',
      },
      dnsCredits: {
        type: 'number',
        nullable: true,
        doc: 'the credits the subscription gives; null without a subscription',
      },
      dnsCreditsUsed: { type: 'number', doc: "the summed weight of the account's domains" },
      dnsExpiryjtime: {
        type: 'number',
        nullable: true,
        doc: 'when the subscription ends, seconds since 1970; null without one',
      },
      dnsExpiryreadable: {
        type: 'string',
        optional: true,
        doc: 'the same time, readable (UTC); absent without a subscription',
      },
      domaincount: { type: 'number' },
    },
    errors: [],
    storeDownError: 'dbConnectionFailure',
    systemError: 'unspecifiedError',
  },
} as const satisfies Record<string, Contract>;
