import dnsPacket, { type Answer } from 'dns-packet';
import { fail } from '../errors.ts';
import type { Trx } from './domains.ts';
import type { RecordTypeName, StoredData } from './records.ts';
import { recordAnswers, type ZoneIndex } from './server/zone-index.ts';
import type { ZoneModel } from './zone.ts';

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

/** The field of a type's stored data that holds its owner name (SRV adds srvc/prot, which the exact check compares). */
const OWNER_FIELD: Partial<Record<RecordTypeName, string>> = { MX: 'host', SRV: 'host', WebForwarding: 'host' };

/**
 * Refuses an add that can never be served: the zone's record or byte cap
 * reached, or a record set that would no longer fit in one DNS message.
 * Runs inside the add's transaction, so two adds cannot both squeeze in.
 */
export async function checkAdd(trx: Trx, caps: ZoneCaps, domain: { id: number; name: string }, type: RecordTypeName, data: StoredData): Promise<void> {
  const size = await trx
    .selectFrom('records')
    .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.sum<number>(eb.fn('length', ['data'])).as('bytes')])
    .where('domain_id', '=', domain.id)
    .executeTakeFirstOrThrow();
  const json = JSON.stringify(data);
  // "The record was not added": the spec's code for an add the service cannot take.
  if (Number(size.n) + 1 > caps.maxZoneRecords || Number(size.bytes ?? 0) + json.length > caps.maxZoneBytes) fail('unspecifiedError');

  const mine = recordAnswers(type, data, domain.name);
  if (!mine.length) return;
  const owner = mine[0]!.name;
  const key = OWNER_FIELD[type] ?? 'name';
  // A cheap filter in SQL (the owner field's exact JSON text), then the exact owner compared here.
  const rows = await trx
    .selectFrom('records')
    .select('data')
    .where('domain_id', '=', domain.id)
    .where('type', '=', type)
    .where('data', 'like', `%${JSON.stringify(key)}:${JSON.stringify(data[key] ?? '')}%`)
    .execute();
  let bytes = mine.reduce((sum, a) => sum + codec.answer.encodingLength(a), 0);
  for (const r of rows) {
    for (const a of recordAnswers(type, JSON.parse(r.data), domain.name)) {
      if (a.name === owner && a.type === mine[0]!.type) bytes += codec.answer.encodingLength(a);
    }
  }
  if (bytes > maxRrsetBytes(owner)) fail('unspecifiedError');
}

/** Publish errors for a zone over the caps (e.g. after the operator lowered them). */
export function capErrors(caps: ZoneCaps, model: ZoneModel, zoneText: string): string[] {
  const errors: string[] = [];
  if (model.records.length > caps.maxZoneRecords) errors.push(`the zone has ${model.records.length} records; this server takes at most ${caps.maxZoneRecords} per domain`);
  const bytes = Buffer.byteLength(zoneText);
  if (bytes > caps.maxZoneBytes) errors.push(`the zone text is ${bytes} bytes; this server takes at most ${caps.maxZoneBytes} per domain`);
  return errors;
}

/** Publish errors for record sets too large for one DNS message (added before the add-time check, or transferred). */
export function oversizedSets(index: ZoneIndex): string[] {
  const errors: string[] = [];
  for (const [name, node] of index.nodes) {
    for (const [type, answers] of node) {
      const bytes = answers.reduce((sum, a) => sum + codec.answer.encodingLength(a), 0);
      if (bytes > maxRrsetBytes(name)) errors.push(`the ${type} records at ${name} take ${bytes} bytes; one DNS message carries at most ${maxRrsetBytes(name)}`);
    }
  }
  return errors;
}
