import { fail, type SpecCode } from '../../errors.ts';
import { fqdn, normalizeOwner, normalizeTarget } from '../names.ts';
import { presentName } from '../text.ts';

export type RecordTypeName =
  | 'SOA'
  | 'NS'
  | 'MX'
  | 'A'
  | 'AAAA'
  | 'CNAME'
  | 'TXT'
  | 'SRV'
  | 'CAA'
  | 'Options'
  | 'WebForwarding';
/** Form fields as received (undefined = absent). */
export type Fields = Record<string, string | undefined>;
/** A record's stored data: JSON, already normalized. */
export type StoredData = Record<string, any>;

/**
 * The shape every record type has (one file each in this folder): how its
 * add fields are validated (spec error codes), its `data` in the records
 * reply, its zone lines, and where it lives.
 */
export interface RecordType {
  readonly type: RecordTypeName;
  /** Validates the add fields (zone already normalized) into stored data; throws ApiError with the spec code. */
  parse(fields: Fields, zone: string): StoredData;
  /** The `data` object of the dnsGetDomainRecords reply: the spec's field names, numbers as numbers. */
  reply(data: StoredData): Record<string, string | number>;
  /** Master-file lines, owner absolute; [] for types that are not zone records. */
  zoneLines(data: StoredData, zone: string, ttl: number): string[];
  /** Relative owner ('' apex) for validation; null when the record has no owner name. */
  owner(data: StoredData): string | null;
  /**
   * A master-file record of this type as the add script's form fields
   * (`owner` relative to the zone, '' the apex; `rdata` the tokens after the
   * type), so an import is checked by `parse` exactly as an add is. Absent:
   * the type is not read from zone text (SOA has its own rule; settings are
   * not zone records). Throws ApiError (the add's code) when the tokens
   * cannot be the type's fields at all.
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
export function ttlOf(data: StoredData, zoneTtl: number): number {
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
export function one(rdata: readonly RdataToken[], code: SpecCode): RdataToken {
  if (rdata.length !== 1) fail(code);
  return rdata[0]!;
}

/** Exactly `n` rdata tokens as text, else the add's code for its first field. */
export function tokens(rdata: readonly RdataToken[], n: number, code: SpecCode): string[] {
  if (rdata.length !== n) fail(code);
  return rdata.map(tokenText);
}

export const need = <T>(value: T | null, code: SpecCode): T => (value === null ? fail(code) : value);

/** An owner field; absent and invalid get the same code (ARCHITECTURE.md). */
export function ownerField(
  value: string | undefined,
  zone: string,
  code: SpecCode,
  rules: { wildcard?: boolean; underscore?: boolean } = {},
): string {
  return need(value === undefined ? null : normalizeOwner(value, zone, rules), code);
}

/**
 * A target field. MX, NS and SRV targets must be host names (RFC 2181
 * 10.3, BIND's check-names): no underscore. CNAME targets may have one.
 */
export function targetField(value: string | undefined, zone: string, code: SpecCode, hostname: boolean): string {
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
