import type { Answer } from 'dns-packet';
import { fqdn } from '../names.ts';
import { A } from './a.ts';
import { AAAA } from './aaaa.ts';
import { CAA } from './caa.ts';
import { CNAME } from './cname.ts';
import { DS } from './ds.ts';
import { type AddForm, displayLine, type Fields, line, parseTtl, type RecordType, type StoredData } from './kit.ts';
import { MX } from './mx.ts';
import { NAPTR } from './naptr.ts';
import { NS } from './ns.ts';
import { Options } from './options.ts';
import { PTR } from './ptr.ts';
import { SOA } from './soa.ts';
import { SRV } from './srv.ts';
import { SSHFP } from './sshfp.ts';
import { HTTPS, SVCB } from './svcb.ts';
import { TLSA } from './tlsa.ts';
import { TXT } from './txt.ts';
import { WebForwarding } from './web-forwarding.ts';

/**
 * THE record-type table. Each type is one file of this folder and one line
 * here; everything else (the add scripts' contracts, OpenAPI, the SDK, the
 * CLI, the console's forms, zone text, import, the name server, transfers,
 * signing) reads its types from this list.
 */
const LIST = [
  SOA,
  A,
  AAAA,
  CNAME,
  MX,
  NS,
  TXT,
  SRV,
  CAA,
  PTR,
  DS,
  TLSA,
  SSHFP,
  SVCB,
  HTTPS,
  NAPTR,
  WebForwarding,
  Options,
] as const;

export type RecordTypeName = (typeof LIST)[number]['type'];

/** The table by name. Each type's data is its own; the rest of Vigil holds it as StoredData. */
export type AnyRecordType = RecordType<StoredData, RecordTypeName>;
export const RECORD_TYPES: Readonly<Record<RecordTypeName, AnyRecordType>> = Object.freeze(
  Object.fromEntries(LIST.map((t) => [t.type, t as unknown as AnyRecordType])) as Record<RecordTypeName, AnyRecordType>,
);

export const RECORD_TYPE_LIST: readonly AnyRecordType[] = Object.values(RECORD_TYPES);

/** Whether a name read from outside (a change, a zone file, a stored row) is one of the table's types. */
export const isRecordType = (name: string): name is RecordTypeName => Object.hasOwn(RECORD_TYPES, name);

/** The types by their wire name (dns-packet's: `UNKNOWN_64` for SVCB), for transfers and signed text. */
const BY_WIRE = new Map(RECORD_TYPE_LIST.filter((t) => t.wire).map((t) => [t.wire!.type, t]));
export const typeByWire = (wireType: string): AnyRecordType | undefined => BY_WIRE.get(wireType);

/** Types with an add script, in table order: the scripts, the CLI's `dns add` and the console's forms. */
export const ADDABLE: readonly AnyRecordType[] = RECORD_TYPE_LIST.filter((t) => t.add);

/**
 * The add forms with their literal types: the add scripts' contracts are typed from them
 * (src/api/contract/dns-records.ts).
 */
type FormOf<T> = T extends { readonly add: infer A extends AddForm } ? A : never;
export type AddFormOf = FormOf<(typeof LIST)[number]>;
export const ADD_FORMS = LIST.flatMap((t) => ('add' in t ? [t.add] : [])) as readonly AddFormOf[];

/** The names of the types with an add script (dnsApplyChanges's `type`, the CLI's TYPE). */
export type AddableType = Extract<(typeof LIST)[number], { readonly add: AddForm }>['type'];

/** Types that are service settings, not records of the zone text. */
export const isZoneRecord = (t: AnyRecordType): boolean => t.role !== 'setting' && t.role !== 'forward';

/** The table's type with an add script of that name. */
export const typeByScript = (script: string): AnyRecordType | undefined =>
  ADDABLE.find((t) => t.add!.script === script);

/**
 * An add's fields as stored data: the type's own fields, then the optional
 * record `ttl` (issue 16), which every add takes (a web forwarding's is
 * the TTL of the forwarder's address in answers). Only a given TTL is
 * stored: without one the record follows the zone's TTL.
 */
export function parseRecord(type: RecordTypeName, fields: Fields, zone: string): StoredData {
  const data = RECORD_TYPES[type].parse(fields, zone);
  const ttl = parseTtl(fields.ttl);
  return ttl === undefined ? data : { ...data, ttl };
}

/** The records reply's `data`: the type's fields, then `ttl` when the record has its own. */
export function replyOf(type: RecordTypeName, data: StoredData): Record<string, string | number> {
  const reply = RECORD_TYPES[type].reply(data);
  return typeof data.ttl === 'number' ? { ...reply, ttl: data.ttl } : reply;
}

/** The one-line display of a record (console, CLI, reports). */
export const displayOf = (type: RecordTypeName, data: StoredData): string =>
  displayLine(RECORD_TYPES[type].display, RECORD_TYPES[type].reply(data));

/** Master-file lines of a stored record, owner absolute; [] for settings and data that cannot be written safely. */
export function zoneLines(type: RecordTypeName, data: StoredData, zone: string, ttl: number): string[] {
  const t = RECORD_TYPES[type];
  const rdata = t.rdata?.(data) ?? null;
  const owner = t.owner(data);
  return rdata === null || owner === null ? [] : [line(owner, zone, ttl, t.type, rdata)];
}

/**
 * The wire record of one stored record (dns-packet's form: owner without
 * the final dot); null for types the name server does not carry as such
 * (settings; a web forwarding is answered with the forwarder's address).
 */
export function answerOf(type: RecordTypeName, data: StoredData, zone: string, ttl = 0): Answer | null {
  const t = RECORD_TYPES[type];
  const owner = t.owner(data);
  if (!t.wire || owner === null) return null;
  const name = fqdn(owner, zone);
  return { type: t.wire.type, name: name.slice(0, -1), ttl, class: 'IN', data: t.wire.encode(data) } as Answer;
}

export type { AddForm, FieldDef, Fields, RdataToken, RecordType, Role, Stored, StoredData } from './kit.ts';
export { MAX_RECORD_TTL, parseTtl, tokenText, ttlOf } from './kit.ts';

/** A stored record's data as its type's own, when it is of that type (else null). */
export function dataIf<T extends { readonly type: string; parse(f: Fields, zone: string): object }>(
  t: T,
  r: { readonly type: string; readonly data: StoredData },
): ReturnType<T['parse']> | null {
  return r.type === t.type ? (r.data as ReturnType<T['parse']>) : null;
}

/**
 * A wire type name as zone text writes it: the table's name (`SVCB`, not dns-packet's `UNKNOWN_64`), else RFC
 * 3597's `TYPEnn`.
 */
export function typeText(wireType: string): string {
  const known = BY_WIRE.get(wireType);
  if (known) return known.type;
  return wireType.startsWith('UNKNOWN_') ? `TYPE${wireType.slice(8)}` : wireType;
}
