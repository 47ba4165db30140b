import dnsPacket, { type Answer } from 'dns-packet';
import { fail } from '../errors.ts';
import type { Trx } from './domains.ts';
import { isRecordType, RECORD_TYPE_LIST, RECORD_TYPES, type RecordTypeName, type StoredData } from './records.ts';
import { recordAnswers, type ZoneIndex } from './server/zone-index.ts';
import type { ZoneModel } from './zone.ts';
import { countsByType, recordSet, setOwner, storedBytes } from './zone-store/records.ts';

/** dns-packet exports its per-part codecs (index.js `exports.name`, `exports.answer`); @types/dns-packet omits them. */
const codec = dnsPacket as unknown as {
  name: { encodingLength(name: string): number };
  answer: { encodingLength(answer: Answer): number };
};

/** The caps an operator sets (`--max-zone-records`, `--max-zone-bytes`). */
export interface ZoneCaps {
  readonly maxZoneRecords: number;
  readonly maxZoneBytes: number;
}

/**
 * Largest record set a reply can carry: a DNS message is at most 65,535
 * bytes (the TCP length prefix), less the header (12), the question (the
 * owner's name + 4) and an EDNS OPT record (11). dns-packet writes names
 * uncompressed, so the encoded answers are what Vigil really sends.
 * named-checkzone refuses a larger set too, so secondaries would not load it.
 */
export function maxRrsetBytes(owner: string): number {
  return 65_535 - 12 - (codec.name.encodingLength(owner) + 4) - 11;
}

/**
 * Upper bound of a stored row's JSON by its type (each type's `bound`,
 * from what its parse accepts: docs/security.md has the figures). While
 * the bound of a zone stays under the byte cap an add skips summing the
 * zone's bytes, so adds stay cheap in zones of thousands of records. A
 * type this version does not know has no bound.
 */
const storedBound = (type: string): number =>
  isRecordType(type) ? RECORD_TYPES[type].bound : Number.POSITIVE_INFINITY;

/** The owner a stored record is answered under ('' for settings that are not answered). */
const ownerOf = (type: RecordTypeName, data: StoredData, zone: string) =>
  recordAnswers(type, data, zone)[0]?.name ?? '';

/**
 * Refuses an add that can never be served: the zone's record or byte cap
 * reached, or a record set that would no longer fit in one DNS message.
 * Runs inside the add's transaction, so two adds cannot both squeeze in.
 * Returns the owner to store with the record (records.owner).
 */
export async function checkAdd(
  trx: Trx,
  caps: ZoneCaps,
  domain: { id: number; name: string },
  type: RecordTypeName,
  data: StoredData,
): Promise<string> {
  const counts = await countsByType(trx, domain.id);
  const json = JSON.stringify(data);
  // "The record was not added": the spec's code for an add the service cannot take.
  if (counts.reduce((sum, c) => sum + c.n, 1) > caps.maxZoneRecords) fail('unspecifiedError');
  const bound = counts.reduce((sum, c) => sum + c.n * storedBound(c.type), json.length);
  if (bound > caps.maxZoneBytes && (await storedBytes(trx, domain.id)) + json.length > caps.maxZoneBytes)
    fail('unspecifiedError');

  const mine = recordAnswers(type, data, domain.name);
  const owner = mine[0]?.name ?? '';
  if (!mine.length) return owner;
  // One look at the name: the records of this type (the set's size) and whatever a CNAME rule concerns.
  const alias = RECORD_TYPES[type].role === 'alias';
  const there = await recordsAt(trx, domain, alias ? SERVED : [type, ...ALIASES], owner);
  if (alias ? there.length : there.some((r) => RECORD_TYPES[r.type].role === 'alias')) fail('cnameConflict');
  const limit = maxRrsetBytes(owner);
  let bytes = mine.reduce((sum, a) => sum + codec.answer.encodingLength(a), 0);
  for (const r of there) {
    if (r.type !== type) continue;
    for (const a of recordAnswers(type, r.data, domain.name)) bytes += codec.answer.encodingLength(a);
  }
  if (bytes > limit) fail('unspecifiedError');
  return owner;
}

/** Records of these types at `owner` (wire form, no final dot), parsed; legacy rows get their owner filled in. */
async function recordsAt(
  trx: Trx,
  domain: { id: number; name: string },
  types: readonly RecordTypeName[],
  owner: string,
) {
  const found: { type: RecordTypeName; data: StoredData }[] = [];
  for (const r of await recordSet(trx, domain.id, types, owner)) {
    if (!isRecordType(r.type)) continue;
    const data = JSON.parse(r.data) as StoredData;
    if (r.owner === null) {
      // Written before records.owner existed: fill it in once.
      const theirs = ownerOf(r.type, data, domain.name);
      await setOwner(trx, r.id, theirs);
      if (theirs !== owner) continue;
    }
    found.push({ type: r.type, data });
  }
  return found;
}

/**
 * A CNAME is the only data at its name (RFC 1034 3.6.2, RFC 2181 10.1): a
 * CNAME beside other records, or a record beside a CNAME, is refused when
 * added, as PowerDNS and deSEC refuse it, instead of only at publish
 * (`cnameConflict`, docs/api.md). SERVED: every type answered under an owner
 * name; DNSSEC's own records beside a CNAME are the signer's, never stored.
 */
const SERVED = RECORD_TYPE_LIST.filter((t) => t.wire && t.role !== 'soa').map((t) => t.type);
const ALIASES = RECORD_TYPE_LIST.filter((t) => t.role === 'alias').map((t) => t.type);

/** Publish errors for a zone over the caps (e.g. after the operator lowered them). */
export function capErrors(caps: ZoneCaps, model: ZoneModel, zoneText: string): string[] {
  const errors: string[] = [];
  if (model.records.length > caps.maxZoneRecords)
    errors.push(
      `the zone has ${model.records.length} records; this server takes at most ${caps.maxZoneRecords} per domain`,
    );
  const bytes = Buffer.byteLength(zoneText);
  if (bytes > caps.maxZoneBytes)
    errors.push(`the zone text is ${bytes} bytes; this server takes at most ${caps.maxZoneBytes} per domain`);
  return errors;
}

/** Publish errors for record sets too large for one DNS message (added before the add-time check, or transferred). */
export function oversizedSets(index: ZoneIndex): string[] {
  const errors: string[] = [];
  for (const [name, node] of index.nodes) {
    for (const [type, answers] of node) {
      const bytes = answers.reduce((sum, a) => sum + codec.answer.encodingLength(a), 0);
      if (bytes > maxRrsetBytes(name))
        errors.push(
          `the ${type} records at ${name} take ${bytes} bytes; one DNS message carries at most ${maxRrsetBytes(name)}`,
        );
    }
  }
  return errors;
}
