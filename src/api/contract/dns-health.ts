import { DOMAIN } from './dns-domains.ts';
import type { Contract } from './schema.ts';

/** Zone health (issue 30; INTERFACE.md "Zone health"; docs/dns.md lists every finding and its reference). */
export const dnsHealthContracts = {
  'dnsCheckDomain.php': {
    requires: ['session', 'dnsSubscription'],
    storeDownError: 'dbConnectionFailure',
    systemError: 'unspecifiedError',
    extension: true,
    summary:
      "extension: check a domain's health: the zone as it would be published and as the world resolves it (delegation, DNSSEC chain, dangling targets, SPF, DMARC, MTA-STS, CAA), and the mail and web hosts it names that the account may audit",
    params: { domain: DOMAIN },
    reply: {
      findings: {
        type: 'array',
        doc: 'most serious first; empty when nothing is wrong',
        items: {
          type: 'object',
          fields: {
            id: { type: 'string', doc: 'the check, e.g. `mail.spf-multiple` (docs/dns.md, "Zone health")' },
            level: { type: 'string', enum: ['ERROR', 'WARNING', 'NOTICE', 'INFO'], doc: "Zonemaster's severity" },
            name: { type: 'string', doc: 'the owner name or host it concerns, without the final dot' },
            message: { type: 'string' },
            solution: { type: 'string' },
          },
        },
      },
      checked: { type: 'string', doc: 'when the check ran, ISO 8601 UTC' },
    },
    errors: ['noSuchDomain'],
  },
} as const satisfies Record<string, Contract>;
