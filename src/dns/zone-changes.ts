import type { AccountRow } from '../accounts/accounts.ts';
import { ApiError, fail, type ErrorCode } from '../errors.ts';
import type { Domains } from './domains.ts';
import { ADDABLE, type AddableType, type Fields, parseRecord } from './records.ts';
import { applyToModel, type BatchAdd, cnameConflicts, finalStateProblems, runBatch } from './zone-batch.ts';
import { MAX_TOLD } from './zone-import.ts';
import { WIRE } from './rr/wire-names.ts';

/** One change that failed: its index in `changes` (null: the final zone as a whole), a code, and words. */
export interface ChangeError {
  index: number | null;
  code: ErrorCode;
  message: string;
}

/** dnsApplyChanges's reply (extension, issue 16): what was applied, or why nothing was. */
export interface ChangesReply {
  /** One per change, in order: the seq the add got, or the seq deleted. Empty when there are errors. */
  applied: { index: number; action: 'add' | 'delete'; seq: number }[];
  warnings: string[];
  errors: ChangeError[];
}

/** The record types an add change may name: those with a dnsAdd… script. */
const ADDABLE_TYPES = ADDABLE.map((t) => t.type) as readonly string[];
/** One call's changes; a zone is rebuilt from text faster than this many single calls anyway. */
export const MAX_CHANGES = 10_000;
const SEQ = /^[1-9]\d{0,15}$/;

/** A change that could be read, with its index in `changes` as sent. */
type Change = { index: number } & (
  | { action: 'add'; type: AddableType; fields: Fields }
  | { action: 'delete'; seq: number }
);

/**
 * Reads `changes`: a JSON array of `{"action":"add","type":"A",…the add
 * script's fields…}` and `{"action":"delete","seq":"12"}`. Field values
 * may be strings or numbers (numbers are read as their decimal text).
 */
function readChanges(
  text: string | undefined,
  errors: ChangeError[],
  addFields: (type: AddableType) => readonly string[],
): Change[] {
  if (text === undefined || text.trim() === '') fail('missingInput');
  let list: unknown;
  try {
    list = JSON.parse(text);
  } catch {
    fail('missingInput');
  }
  if (!Array.isArray(list) || list.length === 0 || list.length > MAX_CHANGES) fail('missingInput');
  const out: Change[] = [];
  list.forEach((item: unknown, index) => {
    const bad = (code: ErrorCode, message: string) => errors.push({ index, code, message });
    if (typeof item !== 'object' || item === null || Array.isArray(item))
      return bad('missingInput', 'a change is an object');
    const fields: Fields = {};
    for (const [k, v] of Object.entries(item)) {
      if (typeof v === 'string') fields[k] = v;
      else if (typeof v === 'number' && Number.isSafeInteger(v)) fields[k] = String(v);
      else return bad('missingInput', `${k}: a string or a whole number`);
    }
    const { action, type, seq, domain, ...rest } = fields;
    if (domain !== undefined) return bad('unknownParameter', 'domain: the call names the domain, not each change');
    if (action === 'delete') {
      if (Object.keys(rest).length || type !== undefined) return bad('unknownParameter', 'a delete takes only `seq`');
      if (seq === undefined || !SEQ.test(seq)) return bad('syntaxInvalidSeq', 'seq: a record number');
      out.push({ index, action, seq: Number(seq) });
    } else if (action === 'add') {
      if (seq !== undefined) return bad('unknownParameter', 'an add takes no `seq`');
      if (!ADDABLE_TYPES.includes(type ?? '')) return bad('missingInput', `type: one of ${ADDABLE_TYPES.join(', ')}`);
      // As the extension scripts refuse an unknown field (issue 16): a typo must not drop a value silently.
      const known = addFields(type as AddableType);
      const unknown = Object.keys(rest).filter((k) => !known.includes(k));
      if (unknown.length) return bad('unknownParameter', `${type} adds take no ${unknown.join(', ')}`);
      out.push({ index, action, type: type as AddableType, fields: rest });
    } else bad('missingInput', 'action: `add` or `delete`');
  });
  return out;
}

/**
 * dnsApplyChanges: adds and deletes on one domain, all or none. Each add is
 * checked by its type's add path; each delete as dnsDeleteRecord checks it
 * (a record of this domain, not its SOA, not deleted twice); then the zone
 * after every change as a whole (zone-batch.ts): a CNAME may replace an A
 * that the same call deletes, and the record cap counts the final zone.
 */
export async function applyChanges(
  domains: Domains,
  account: AccountRow,
  fields: Fields,
  /** The fields (but `domain`) the add script of a type takes: the API's table knows them. */
  addFields: (type: AddableType) => readonly string[],
): Promise<ChangesReply> {
  let changes: Change[] = [];
  const { reply, seqs } = await runBatch(domains, account, fields.domain, async (_trx, domain, model) => {
    const errors: ChangeError[] = [];
    changes = readChanges(fields.changes, errors, addFields);
    const bySeq = new Map(model.records.map((r) => [r.seq, r]));
    const adds: BatchAdd[] = [];
    const addIndex: number[] = [];
    const deletes = new Set<number>();
    for (const c of changes) {
      if (c.action === 'delete') {
        const r = bySeq.get(c.seq);
        if (!r || r.type === WIRE.SOA || deletes.has(c.seq)) {
          errors.push({
            index: c.index,
            code: 'recordNotDeleted',
            message: `seq ${c.seq}: no record of ${domain.name} that can be deleted`,
          });
        } else deletes.add(c.seq);
        continue;
      }
      try {
        adds.push({ type: c.type, data: parseRecord(c.type, { ...c.fields, domain: domain.name }, domain.name) });
        addIndex.push(c.index);
      } catch (e) {
        if (!(e instanceof ApiError)) throw e;
        errors.push({ index: c.index, code: e.code, message: `add ${c.type}: ${e.code}` });
      }
    }
    // A CNAME beside other data, as an add and an import refuse it; against the zone after this call's deletes,
    // so a call may still replace an A by a CNAME.
    const kept = { ...model, records: model.records.filter((r) => !deletes.has(r.seq)) };
    for (const i of cnameConflicts(kept, adds)) {
      errors.push({ index: addIndex[i]!, code: 'cnameConflict', message: `add ${adds[i]!.type}: cnameConflict` });
    }
    const out: ChangesReply = { applied: [], warnings: [], errors };
    const batch = { adds, deletes: [...deletes] };
    if (!errors.length) {
      const final = finalStateProblems(domains.settings, model, applyToModel(model, batch));
      for (const message of final.errors) errors.push({ index: null, code: 'unspecifiedError', message });
      out.warnings.push(...final.warnings);
    }
    return { batch, reply: out };
  });
  if (reply.errors.length) {
    reply.errors.sort((x, y) => (x.index ?? Infinity) - (y.index ?? Infinity));
    const more = reply.errors.length - MAX_TOLD;
    if (more > 0)
      reply.errors.splice(MAX_TOLD, Infinity, {
        index: null,
        code: 'unspecifiedError',
        message: `… and ${more} more errors`,
      });
    return reply;
  }
  // Every change was read and applied: adds got their seqs in order.
  let a = 0;
  reply.applied = changes.map((c) => ({
    index: c.index,
    action: c.action,
    seq: c.action === 'delete' ? c.seq : seqs[a++]!,
  }));
  return reply;
}
