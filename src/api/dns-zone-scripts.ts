import { applyChanges } from '../dns/zone-changes.ts';
import { importZone } from '../dns/zone-import.ts';
import { type AddableType, type Fields, RECORD_TYPES } from '../dns/records.ts';
import { sessionScript, type Call, type SessionScript } from './call.ts';
import { CONTRACTS, type ScriptName } from './contract/index.ts';
import { applyChangesContract } from './dns-zone-contract.ts';

/**
 * ZONES's extension scripts (issue 16): whole-zone changes, all or none.
 * The table (src/api/scripts.ts) spreads these into SCRIPTS; each entry is
 * a contract and its `run`, like every other script's.
 */

const fieldsOf = (form: Iterable<[string, string]>): Fields => Object.fromEntries(form);

/** The fields (but `domain`) a change of a type may carry: its add script's declared params. */
const addFields = (type: AddableType): readonly string[] =>
  Object.keys(CONTRACTS[RECORD_TYPES[type].add!.script as ScriptName].params).filter((n) => n !== 'domain');

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
