import type { AccountRow } from '../accounts/accounts.ts';
import { fail } from '../errors.ts';
import { lockAccount } from '../store/dialect.ts';
import type { DnsSettings, Domains, DomainRow, Trx } from './domains.ts';
import { capErrors, oversizedSets } from './limits.ts';
import { isRecordType, RECORD_TYPES, type RecordTypeName, type StoredData } from './records.ts';
import { buildZoneIndex, recordAnswers } from './server/zone-index.ts';
import { DomainState } from './states.ts';
import { domainSummaries, requireSubscription } from './subscription.ts';
import { validateZone } from './validate.ts';
import { buildZone, type ZoneModel, type ZoneRecord } from './zone.ts';
import { setDomainState } from './zone-store/domains.ts';
import { deleteRecords, insertRecordsReturning, updateRecordData } from './zone-store/records.ts';
import { WIRE } from './rr/wire-names.ts';
import { WebForwarding } from './rr/web-forwarding.ts';

/**
 * Changes of several records at once (zone import, dnsApplyChanges): each
 * record is checked by its add path first (the callers do that), then the
 * zone as it would be after all of them is checked as a whole, and either
 * every change is written in one transaction or none is.
 */

/** A record to add, already parsed by its type's add path. */
export interface BatchAdd {
  type: RecordTypeName;
  data: StoredData;
}

export interface Batch {
  adds: BatchAdd[];
  /** Seqs of the domain's records to delete. */
  deletes: number[];
  /** A new SOA data (import), written over the domain's SOA. */
  soa?: StoredData;
}

/** Key of a record's content, TTL aside: two records with the same key are the same record. */
export const contentKey = (type: RecordTypeName, data: StoredData) =>
  `${type} ${JSON.stringify(RECORD_TYPES[type].reply(data))}`;

const diff = (after: string[], before: string[]) => {
  const had = new Set(before);
  return after.filter((e) => !had.has(e));
};

/**
 * What the final zone would break: the caps (records, bytes), record sets
 * too large for one DNS message, and the publish errors the batch brings
 * in (a CNAME beside data, a loop, a delegation without glue…). Problems
 * the zone had before are the publish's to report, not the batch's: a zone
 * with errors can still be mended one batch at a time. Warnings likewise:
 * only new ones.
 */
export function finalStateProblems(
  caps: DnsSettings,
  before: ZoneModel,
  after: ZoneModel,
): { errors: string[]; warnings: string[] } {
  const errors: string[] = [];
  // The caps bind a batch that grows the zone; one that shrinks a zone already over them (an operator lowered
  // them) may pass.
  const bytes = (m: ZoneModel) => m.records.reduce((sum, r) => sum + JSON.stringify(r.data).length, 0);
  const grows = after.records.length > before.records.length || bytes(after) > bytes(before);
  if (grows) {
    if (bytes(after) > caps.maxZoneBytes)
      errors.push(
        `the zone's records would take ${bytes(after)} bytes; this server takes at most ${caps.maxZoneBytes} per domain`,
      );
    errors.push(...capErrors(caps, after, buildZone(after)));
  }
  errors.push(...diff(oversizedSets(buildZoneIndex(after)), oversizedSets(buildZoneIndex(before))));
  const was = validateZone(before);
  const now = validateZone(after);
  errors.push(...diff(now.errors, was.errors));
  return { errors, warnings: diff(now.warnings, was.warnings) };
}

/** The zone after the batch (new records get seqs above every stored one, in order). */
export function applyToModel(model: ZoneModel, batch: Batch): ZoneModel {
  const gone = new Set(batch.deletes);
  let next = model.records.reduce((max, r) => Math.max(max, r.seq), 0);
  const kept = model.records
    .filter((r) => !gone.has(r.seq))
    .map((r) => (r.type === WIRE.SOA && batch.soa ? { ...r, data: batch.soa } : r));
  const added: ZoneRecord[] = batch.adds.map((a) => ({ seq: ++next, type: a.type, data: a.data }));
  return { ...model, records: [...kept, ...added] };
}

/**
 * Runs `plan` on the locked domain and its zone; writes the batch it returns
 * only when it reports no errors, then marks the domain Unvalidated.
 * Answers the seqs the adds got, in order.
 */
export async function runBatch<R extends { errors: unknown[] }>(
  domains: Domains,
  account: AccountRow,
  field: string | undefined,
  plan: (trx: Trx, domain: DomainRow, model: ZoneModel) => Promise<{ batch: Batch; reply: R }>,
): Promise<{ reply: R; seqs: number[] }> {
  requireSubscription(account, domains.clock.now());
  return domains.db.transaction().execute(async (trx) => {
    // Locked (PostgreSQL): the final-state checks read the zone before the writes.
    const domain = await domains.own(account, field, trx, true);
    if (domain.type === 'slave') fail('unspecifiedError'); // a slave zone is its masters' copy
    const model = await domains.model(domain, trx);
    const { batch, reply } = await plan(trx, domain, model);
    const soaRow = model.records.find((r) => r.type === WIRE.SOA);
    const soaChanged = batch.soa !== undefined && JSON.stringify(batch.soa) !== JSON.stringify(soaRow?.data);
    // Nothing to write (errors, or a text already imported): the domain keeps its state.
    if (reply.errors.length || (!batch.adds.length && !batch.deletes.length && !soaChanged)) return { reply, seqs: [] };
    if (
      batch.adds.some((a) => a.type === WebForwarding.type) &&
      !model.records.some((r) => r.type === WebForwarding.type)
    ) {
      await requireForwardingCredit(trx, account, domain.id);
    }
    if (soaChanged && soaRow) await updateRecordData(trx, domain.id, soaRow.seq, batch.soa!);
    if (batch.deletes.length) await deleteRecords(trx, domain.id, batch.deletes);
    const rows = batch.adds.map((a) => ({
      type: a.type,
      data: a.data,
      owner: recordAnswers(a.type, a.data, domain.name)[0]?.name ?? '',
    }));
    const seqs = rows.length ? await insertRecordsReturning(trx, domain.id, rows) : [];
    await setDomainState(trx, domain.id, DomainState.Unvalidated);
    return { reply, seqs };
  });
}

/** The first web forwarding of a domain raises its weight from 1 to 2: that needs a free credit (as a single add). */
async function requireForwardingCredit(trx: Trx, account: AccountRow, domainId: number): Promise<void> {
  await lockAccount(trx, account.id);
  const domains = await domainSummaries(trx, account.id);
  if (domains.find((d) => d.seq === domainId)?.weight === 2) return;
  const used = domains.reduce((sum, d) => sum + d.weight, 0);
  if (used + 1 > Number(account.dns_credits)) fail('dnsEntitlementsOrCreditsMissing');
}

/**
 * The adds that would put a CNAME beside other data at its name, or other
 * data beside a CNAME (RFC 2181 10.1), counting the zone's records and the
 * adds before them: refused at import and in dnsApplyChanges as at add (limits.ts).
 */
export function cnameConflicts(
  model: ZoneModel,
  adds: readonly { type: RecordTypeName; data: StoredData }[],
): number[] {
  const at = new Map<string, { alias: number; other: number }>();
  const note = (type: RecordTypeName, data: StoredData): { alias: number; other: number } | null => {
    const def = RECORD_TYPES[type];
    const owner = def.owner(data);
    if (!def.wire || def.role === 'soa' || owner === null) return null;
    const node = at.get(owner) ?? { alias: 0, other: 0 };
    at.set(owner, node);
    return node;
  };
  for (const r of model.records) {
    if (!isRecordType(r.type)) continue;
    const node = note(r.type, r.data);
    if (node) node[RECORD_TYPES[r.type].role === 'alias' ? 'alias' : 'other']++;
  }
  const bad: number[] = [];
  adds.forEach((a, i) => {
    const node = note(a.type, a.data);
    if (!node) return;
    const alias = RECORD_TYPES[a.type].role === 'alias';
    if (alias ? node.alias + node.other > 0 : node.alias > 0) bad.push(i);
    node[alias ? 'alias' : 'other']++;
  });
  return bad;
}
