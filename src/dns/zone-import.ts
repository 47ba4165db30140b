import type { AccountRow } from '../accounts/accounts.ts';
import { ApiError } from '../errors.ts';
import type { DnsSettings, Domains } from './domains.ts';
import { parseMasterFile, type MasterRecord } from './master-file.ts';
import {
  dataIf,
  isRecordType,
  parseRecord,
  RECORD_TYPES,
  type SoaData,
  type StoredData,
  setSoa,
  tokenText,
} from './records.ts';
import { NS } from './rr/ns.ts';
import { SOA } from './rr/soa.ts';
import {
  applyToModel,
  type Batch,
  type BatchAdd,
  cnameConflicts,
  contentKey,
  finalStateProblems,
  runBatch,
} from './zone-batch.ts';
import type { ZoneModel } from './zone.ts';
import { WIRE } from './rr/wire-names.ts';

/** dnsImportZone's reply (extension, issue 16): as Publish, plus the count of records added. */
export interface ImportReply {
  imported: number;
  warnings: string[];
  errors: string[];
}

/** Zone text longer than this is refused unread: 4 times the default zone cap is generous for comments. */
const MAX_TEXT = 16 * 1024 * 1024;

/** Errors told in one reply at most (the rest are counted). */
export const MAX_TOLD = 100;

/** The owner relative to the zone ('' the apex), or null outside it. */
function relative(owner: string, zone: string): string | null {
  if (owner === `${zone}.`) return '';
  return owner.endsWith(`.${zone}.`) ? owner.slice(0, -zone.length - 2) : null;
}

/** The SOA's RNAME (`john\.doe.example.com.`) as dnsSetSOA's `admin` (`john.doe@example.com`). */
function rnameToAdmin(rname: string): string {
  const m = /^((?:[^.\\]|\\.)+)\.(.+?)\.?$/.exec(rname);
  return m ? `${m[1]!.replace(/\\\./g, '.')}@${m[2]}` : rname;
}

const where = (r: MasterRecord) => `line ${r.line}: ${r.owner} ${r.type}`;

/**
 * dnsImportZone: a master file into a master domain, every record checked as
 * its add script checks it (the type table reads its presentation form into
 * the add's fields, `parse` checks them), then the zone after the import as
 * a whole (zone-batch.ts); one transaction, all or nothing. docs/dns.md,
 * "Zone import", has the rules for the SOA, apex NS, other types, names
 * outside the zone and records already there.
 */
export async function importZone(
  domains: Domains,
  account: AccountRow,
  fields: Record<string, string | undefined>,
): Promise<ImportReply> {
  const { reply, seqs } = await runBatch(domains, account, fields.domain, async (_trx, _domain, model) =>
    planImport(domains.settings, model, fields.zone),
  );
  return { ...reply, imported: seqs.length };
}

/** What an import of `text` would do to the zone `model`: the batch to write, or the errors (pure: no store). */
export function planImport(
  settings: DnsSettings,
  model: ZoneModel,
  text: string | undefined,
): { batch: Batch; reply: ImportReply } {
  const out: ImportReply = { imported: 0, warnings: [], errors: [] };
  // Told as Publish tells a zone it cannot take: in `errors` (the table declares no code for `zone`).
  const refused =
    text === undefined || text.trim() === ''
      ? 'the zone text is empty'
      : text.length > MAX_TEXT
        ? `the zone text is over ${MAX_TEXT} characters`
        : null;
  if (refused !== null || text === undefined) {
    out.errors.push(refused!);
    return { batch: { adds: [], deletes: [] }, reply: out };
  }
  const zone = model.zone;
  const parsed = parseMasterFile(text, `${zone}.`);
  out.errors.push(...parsed.errors);
  const current = model.records.find((r) => r.type === WIRE.SOA)!.data as SoaData;

  // The SOA first: its minimum is the zone's TTL, which the other records' TTLs are compared with.
  const soas = parsed.records.filter((r) => r.type === WIRE.SOA);
  let soa: SoaData | undefined;
  if (soas.length > 1) out.errors.push(`line ${soas[1]!.line}: a second SOA record`);
  const given = soas[0];
  if (given) {
    if (given.owner !== `${zone}.`)
      out.errors.push(`${where(given)}: the SOA must be at the apex ${zone}. (is the text for another zone?)`);
    else if (given.rdata.length !== 7) out.errors.push(`${where(given)}: an SOA has 7 fields`);
    else {
      try {
        // The RNAME as written: its `\.` (a dot of the local part) must survive to tell local from host.
        soa = setSoa(current, { admin: rnameToAdmin(given.rdata[1]!.raw), ttl: tokenText(given.rdata[6]!) });
      } catch (e) {
        if (!(e instanceof ApiError)) throw e;
        out.errors.push(`${where(given)}: ${e.code}`);
      }
    }
  }
  const zoneTtl = (soa ?? current).min;

  const seen = new Set(
    model.records
      .filter((r) => isRecordType(r.type) && RECORD_TYPES[r.type].role !== 'soa')
      .map((r) => contentKey(r.type, r.data)),
  );
  const adds: BatchAdd[] = [];
  const lines: MasterRecord[] = [];
  let equal = 0;
  const outside: string[] = [];
  const unhosted = new Map<string, number>();
  for (const r of parsed.records) {
    if (r.type === SOA.type) continue;
    const owner = relative(r.owner, zone);
    if (owner === null) {
      outside.push(r.owner);
      continue;
    }
    const def = isRecordType(r.type) ? RECORD_TYPES[r.type] : undefined;
    if (!def?.fromText) {
      unhosted.set(r.type, (unhosted.get(r.type) ?? 0) + 1);
      continue;
    }
    let data: StoredData;
    try {
      const f = def.fromText(owner, r.rdata, r.origin);
      // A TTL equal to the zone's is not stored: the record follows the zone's TTL, as before its export.
      if (r.ttl !== null && r.ttl !== zoneTtl) f.ttl = String(r.ttl);
      data = parseRecord(def.type, { ...f, domain: zone }, zone);
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      out.errors.push(`${where(r)}: ${e.code}`);
      continue;
    }
    const key = contentKey(def.type, data);
    if (seen.has(key)) {
      equal++;
      continue;
    }
    seen.add(key);
    adds.push({ type: def.type, data });
    lines.push(r);
  }
  for (const i of cnameConflicts(model, adds)) out.errors.push(`${where(lines[i]!)}: cnameConflict`);
  if (outside.length)
    out.warnings.push(`${outside.length} record(s) outside ${zone} were skipped (first: ${outside[0]})`);
  for (const [type, n] of unhosted)
    out.warnings.push(`${n} ${type} record(s) were skipped: Vigil does not host ${type} records`);
  if (equal) out.warnings.push(`${equal} record(s) equal to records already in the zone (TTL aside) were skipped`);
  for (const a of adds) {
    const ns = dataIf(NS, a);
    if (ns && ns.name === '' && !ns.data.endsWith(`.${settings.nsDomain}.`)) {
      out.warnings.push(
        `apex NS ${ns.data} was imported: the zone is then also delegated to it; delete it once it no longer serves the zone`,
      );
    }
  }
  const batch = { adds, deletes: [], soa };
  if (!out.errors.length) {
    const final = finalStateProblems(settings, model, applyToModel(model, batch));
    out.errors.push(...final.errors);
    out.warnings.push(...final.warnings);
  }
  out.imported = out.errors.length ? 0 : adds.length;
  // A text of garbage has an error per line: the first ones tell the story, the reply stays small.
  if (out.errors.length > MAX_TOLD)
    out.errors.splice(MAX_TOLD, Infinity, `… and ${out.errors.length - MAX_TOLD} more errors`);
  return { batch, reply: out };
}
