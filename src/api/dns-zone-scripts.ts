import { applyChanges } from '../dns/zone-changes.ts';
import { importZone } from '../dns/zone-import.ts';
import type { Fields } from '../dns/records.ts';
import { sessionScript, type Call, type SessionScript } from './call.ts';
import { CONTRACTS, type ScriptName } from './contract/index.ts';
import { applyChangesContract } from './dns-zone-contract.ts';
import type { AddableType } from '../dns/zone-edits.ts';

/**
 * ZONES's extension scripts (issue 16): whole-zone changes, all or none.
 * The table (src/api/scripts.ts) spreads these into SCRIPTS; each entry is
 * a contract and its `run`, like every other script's.
 */

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
const addFields = (type: AddableType): readonly string[] =>
  Object.keys(CONTRACTS[ADD_SCRIPT[type]].params).filter((n) => n !== 'domain');

export const dnsZoneScripts: Record<string, SessionScript> = {
  'dnsImportZone.php': sessionScript('dnsImportZone.php', async ({ account, services, form }) => ({
    ...(await importZone(services.dns.domains, account, fieldsOf(form))),
  })),
  'dnsApplyChanges.php': Object.freeze({
    ...applyChangesContract,
    session: true as const,
    run: async ({ account, services, form }: Call) => ({
      ...(await applyChanges(services.dns.domains, account, fieldsOf(form), addFields)),
    }),
  }),
};
