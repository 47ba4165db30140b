import { type ErrorCode, fail } from '../../errors.ts';
import { fqdn, normalizeOwner, normalizeTarget } from '../names.ts';
import { parseNumber, presentName } from '../text.ts';

/** Form fields as received (undefined = absent). */
export type Fields = Record<string, string | undefined>;

/** What any stored record may carry beside its type's own fields: its TTL (issue 16). */
export type Stored = {
  readonly ttl?: number;
};

/** A record's stored data as the rest of Vigil holds it: JSON, already normalized, read through its type. */
export type StoredData = Stored & { readonly [field: string]: unknown };

/** What a form field holds: the contract's kinds (src/api/contract/schema.ts) that record fields use. */
export type FieldKind = 'owner' | 'hostname' | 'text' | 'integer' | 'enum' | 'hex' | 'ipv4' | 'ipv6' | 'url';

/**
 * One field of an add script. The script's contract (and so OpenAPI, the
 * API reference and the SDK's types), the CLI's field list and the
 * console's form are all made from these declarations.
 */
export interface FieldDef {
  readonly name: string;
  readonly kind: FieldKind;
  readonly required: boolean;
  /** The code a bad value answers (`syntaxInvalid…` naming the field); none where the spec fixes none. */
  readonly code?: ErrorCode;
  /** `integer`: the accepted range. */
  readonly min?: number;
  readonly max?: number;
  /** `enum`: the accepted values. */
  readonly values?: readonly string[];
  /** For the API reference and OpenAPI. */
  readonly doc: string;
  /** For the console's form. */
  readonly label: string;
  readonly hint?: string;
  /** Blank when not given, in the CLI and the console: owner fields the spec calls "usually blank". */
  readonly blank?: true;
}

/** A type's add script: `domain` and the optional `ttl` are every add's, so not listed. */
export interface AddForm {
  readonly script: `dnsAdd${string}.php`;
  readonly summary: string;
  /** Not a spec script: an unknown field is refused (unknownParameter). */
  readonly extension?: true;
  /** The spec's SRV takes no `domain`; Vigil finds it from `host` when absent. */
  readonly domainOptional?: true;
  readonly fields: readonly FieldDef[];
  /** One add of the type in `example.org` (docs/dns.md shows it; the kit's tests run it through every layer). */
  readonly example: Readonly<Record<string, string>>;
}

/**
 * How the name server carries a type: dns-packet's record form (its
 * `Answer.data`). `type` is dns-packet's name for it, `UNKNOWN_64` for a
 * type it has no codec for (its data is then the raw RDATA).
 */
export interface Wire<D> {
  readonly type: string;
  /** The answer's data for the stored record. */
  encode(d: D): unknown;
  /** A transferred record's data in stored form (`owner` relative to the zone); null when Vigil cannot hold it. */
  decode(data: unknown, owner: string): D | null;
  /**
   * RFC 4034 6.2 (as amended by RFC 6840 5.1): the data with its embedded names lowercased, for signing.
   * Absent: as it is.
   */
  canonical?(data: unknown): unknown;
  /** The RDATA in presentation form (RFC 1035 5.1), for the signed zone's text; null: write RFC 3597's generic form. */
  present(data: unknown): string | null;
}

/**
 * What a type means to the zone, for the checks that need more than its
 * data: `address` (A, AAAA: glue, targets that resolve), `alias` (CNAME),
 * `delegation` (NS), `delegationSigner` (DS: only at a delegation),
 * `forward` (a web forwarding: answered with the forwarder's address),
 * `soa`, `setting` (no record of the zone text).
 */
export type Role = 'address' | 'alias' | 'delegation' | 'delegationSigner' | 'forward' | 'soa' | 'setting';

/**
 * A record type: one file each in this folder, listed once in index.ts.
 * It owns every conversion of its data: the add form, parse and validate,
 * the records reply, owner and targets, the size bound, zone text both
 * ways, the wire both ways, the signed form and the one-line display.
 */
export interface RecordType<D extends Stored = StoredData, N extends string = string> {
  /** The name in zone text, the records reply and dnsApplyChanges. */
  readonly type: N;
  readonly role?: Role;
  readonly add?: AddForm;
  /** A setting's form (Options: set by dnsSetOptions, not added), for the console. */
  readonly settings?: { readonly script: string; readonly fields: readonly FieldDef[] };
  readonly wire?: Wire<D>;
  /**
   * Upper bound of one record's stored JSON (17 bytes of it for an own TTL,
   * `,"ttl":2147483647`): while a zone's bound stays under the byte cap an
   * add need not sum the zone's bytes (limits.ts).
   */
  readonly bound: number;
  /**
   * The one-line display (console, CLI, reports): `{field}` is replaced by the field, `{field|@}` by `@` when
   * blank.
   */
  readonly display: string;
  /** Validates the add fields (zone already normalized) into stored data; throws ApiError with the field's code. */
  parse(fields: Fields, zone: string): D;
  /** The `data` object of the dnsGetDomainRecords reply: the script's field names, numbers as numbers. */
  reply(d: D): Record<string, string | number>;
  /** Relative owner ('' apex); null when the record has no owner name. */
  owner(d: D): string | null;
  /** A publish warning about a record that is valid but likely a mistake (a TLSA no client will ask for); null: none. */
  lint?(d: D): string | null;
  /** Names the record points at (absolute, final dot), which should resolve to an address. */
  targets?(d: D): readonly string[];
  /** The RDATA as master-file text; null when the stored data cannot be written safely (the line is left out). */
  rdata?(d: D): string | null;
  /**
   * A master-file record of this type as the add script's form fields
   * (`owner` relative to the zone, '' the apex; `rdata` the tokens after the
   * type), so an import is checked by `parse` exactly as an add is. Absent:
   * the type is not read from zone text. Throws ApiError (the add's code)
   * when the tokens cannot be the type's fields at all.
   */
  fromText?(owner: string, rdata: readonly RdataToken[], origin: string): Fields;
}

/** One rdata token of a master file: as written (escapes kept) and its bytes (escapes and quotes undone). */
export interface RdataToken {
  readonly raw: string;
  readonly bytes: Uint8Array;
  readonly quoted: boolean;
}

/** The record's TTL (extension, issue 16): 0 to 2^31-1 s (RFC 2181 8). */
export const MAX_RECORD_TTL = 2_147_483_647;

/**
 * The optional `ttl` of an add: absent or blank is the zone's TTL (nothing
 * stored); otherwise ASCII digits within 0..2^31-1, else `syntaxInvalidTTL`,
 * the code the spec gives an invalid TTL (dnsSetSOA).
 */
export function parseTtl(value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  if (!/^\d{1,10}$/.test(value) || Number(value) > MAX_RECORD_TTL) fail('syntaxInvalidTTL');
  return Number(value);
}

/** The TTL a stored record is written and served with: its own, else the zone's. */
export function ttlOf(data: Stored, zoneTtl: number): number {
  const own = data.ttl;
  return typeof own === 'number' && Number.isSafeInteger(own) && own >= 0 && own <= MAX_RECORD_TTL ? own : zoneTtl;
}

/** A token as text (names, numbers, addresses): escapes undone, so `\065` is `A`. */
export const tokenText = (t: RdataToken): string => Buffer.from(t.bytes).toString('utf8');

/**
 * A name in rdata, made absolute against the `$ORIGIN` in force (RFC 1035
 * 5.1), which may not be the zone: the add then reads it as typed with its
 * final dot. `@` is the origin; `.` (SRV "no service") stays as it is.
 */
export function nameToken(t: RdataToken, origin: string): string {
  const text = t.raw;
  if (text === '@') return origin;
  if (text === '.' || (text.endsWith('.') && !text.endsWith('\\.'))) return text;
  return `${text}.${origin}`;
}

/** The one rdata token of a type that has one, else the add's code. */
export function one(rdata: readonly RdataToken[], code: ErrorCode): RdataToken {
  if (rdata.length !== 1) fail(code);
  return rdata[0]!;
}

/** Exactly `n` rdata tokens as text, else the add's code for its first field. */
export function tokens(rdata: readonly RdataToken[], n: number, code: ErrorCode): string[] {
  if (rdata.length !== n) fail(code);
  return rdata.map(tokenText);
}

export const need = <T>(value: T | null, code: ErrorCode): T => (value === null ? fail(code) : value);

/** An owner field; absent and invalid get the same code (ARCHITECTURE.md). */
export function ownerField(
  value: string | undefined,
  zone: string,
  code: ErrorCode,
  rules: { wildcard?: boolean; underscore?: boolean } = {},
): string {
  return need(value === undefined ? null : normalizeOwner(value, zone, rules), code);
}

/**
 * A target field. MX, NS and SRV targets must be host names (RFC 2181
 * 10.3, BIND's check-names): no underscore. CNAME targets may have one.
 */
export function targetField(value: string | undefined, zone: string, code: ErrorCode, hostname: boolean): string {
  const name = value === undefined ? null : normalizeTarget(value, zone);
  return need(name !== null && hostname && name.includes('_') ? null : name, code);
}

/** One master-file line; owner and rdata names pass presentName, so stored text cannot break out. */
export function line(rel: string, zone: string, ttl: number, type: string, rdata: string): string {
  return `${presentName(fqdn(rel, zone))}\t${ttl}\tIN\t${type}\t${rdata}`;
}

/** Address text for zone lines: only what an address can hold, else nothing is written. */
const ADDRESS = /^[0-9a-f.:]{2,45}$/i;
export const addressText = (value: unknown): string | null =>
  typeof value === 'string' && ADDRESS.test(value) ? value : null;

/** A name as dns-packet takes it: without its final dot (the root stays `.`). */
export const bare = (name: string): string => (name !== '.' && name.endsWith('.') ? name.slice(0, -1) : name);

/** A name from dns-packet, absolute with its final dot. */
export const dotted = (name: string): string => (name === '.' || name.endsWith('.') ? name : `${name}.`);

/** An integer field within its range, else its code. */
export const intField = (value: string | undefined, min: number, max: number, code: ErrorCode): number =>
  need(parseNumber(value, min, max), code);

const HEX = /^(?:[0-9a-f]{2})+$/i;
/** The longest hex field Vigil takes: a TLSA record with a whole certificate fits (RFC 6698 2.1.4 allows any size). */
export const MAX_HEX_BYTES = 4096;

/**
 * A hex field (DS digest, TLSA data, SSHFP fingerprint): whole bytes, kept as
 * sent (any case, spec of the extension scripts). `bytes` is the exact length
 * the field's type fixes, when it fixes one. Spaces inside are taken out, as
 * zone text may split a digest (RFC 4034 5.3).
 */
export function hexField(value: string | undefined, code: ErrorCode, bytes?: number): string {
  const hex = (value ?? '').replace(/\s+/g, '');
  if (hex.length > 2 * MAX_HEX_BYTES || !HEX.test(hex)) fail(code);
  if (bytes !== undefined && hex.length !== 2 * bytes) fail(code);
  return hex;
}

/** A name with its ASCII letters lowered and nothing else (RFC 4034 6.2: "uppercase US-ASCII letters"), for signing. */
export const lowerName = (name: string): string =>
  /[A-Z]/.test(name) ? name.replace(/[A-Z]+/g, (m) => m.toLowerCase()) : name;

export { displayLine } from './display.ts';
