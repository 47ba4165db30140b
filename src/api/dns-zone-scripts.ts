import { applyChanges } from '../dns/zone-changes.ts';
import { importZone } from '../dns/zone-import.ts';
import type { Fields } from '../dns/records.ts';
import { sessionScript, type Call, type SessionScript } from './call.ts';
import { CONTRACTS, type Contract, type ScriptName } from './contract/index.ts';
import type { AddableType } from '../dns/zone-edits.ts';
import { DOMAIN } from './contract/dns-domains.ts';

/**
 * ZONES's extension scripts (issue 16): whole-zone changes, all or none.
 * The table (src/api/scripts.ts) spreads these into SCRIPTS; each entry is
 * a contract and its `run`, like every other script's.
 */

/** dnsApplyChanges's declarations; dnsImportZone's are in the table's record contracts. */
export const applyChangesContract = {
  summary: 'extension: several record adds and deletes on one domain, checked against the zone they leave; all applied or none',
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
      items: { type: 'object', fields: { index: { type: 'number' }, action: { type: 'string', enum: ['add', 'delete'] }, seq: { type: 'number' } } },
      doc: 'one per change, in order: the seq the add got or the seq deleted; empty when there are errors',
    },
    warnings: { type: 'array', items: { type: 'string' }, doc: 'what a publish would newly warn of' },
    errors: {
      type: 'array',
      items: { type: 'object', fields: { index: { type: 'number', nullable: true }, code: { type: 'string' }, message: { type: 'string' } } },
      doc: 'why nothing was applied: the index of the failing change (null: the final zone as a whole) and the code its add or delete script would answer',
    },
  },
  // A change's own failures (syntaxInvalidIP, recordNotDeleted…) are told in the reply's `errors`, not as the call's code.
  errors: ['noSuchDomain', 'unspecifiedError'],
} as const satisfies Contract;

const fieldsOf = (form: Iterable<[string, string]>): Fields => Object.fromEntries(form);

/** The add script of each type a change may add: its declared params are the fields a change may carry. */
const ADD_SCRIPT: Record<AddableType, ScriptName> = {
  A: 'dnsAddA.php',
  AAAA: 'dnsAddAAAA.php',
  CNAME: 'dnsAddCNAME.php',
  MX: 'dnsAddMX.php',
  NS: 'dnsAddNS.php',
  TXT: 'dnsAddTXT.php',
  SRV: 'dnsAddSRV.php',
  CAA: 'dnsAddCAA.php',
  WebForwarding: 'dnsAddWebForwarding.php',
};
const addFields = (type: AddableType): readonly string[] => Object.keys(CONTRACTS[ADD_SCRIPT[type]].params).filter((n) => n !== 'domain');

export const dnsZoneScripts: Record<string, SessionScript> = {
  'dnsImportZone.php': sessionScript('dnsImportZone.php', async ({ account, services, form }) => ({ ...(await importZone(services.dns.domains, account, fieldsOf(form))) })),
  'dnsApplyChanges.php': Object.freeze({
    ...applyChangesContract,
    session: true as const,
    run: async ({ account, services, form }: Call) => ({ ...(await applyChanges(services.dns.domains, account, fieldsOf(form), addFields)) }),
  }),
};
