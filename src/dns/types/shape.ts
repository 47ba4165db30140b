import { fail, type SpecCode } from '../../errors.ts';
import { fqdn, normalizeOwner, normalizeTarget } from '../names.ts';
import { presentName } from '../text.ts';

export type RecordTypeName = 'SOA' | 'NS' | 'MX' | 'A' | 'AAAA' | 'CNAME' | 'TXT' | 'SRV' | 'CAA' | 'Options' | 'WebForwarding';
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
}

export const need = <T>(value: T | null, code: SpecCode): T => (value === null ? fail(code) : value);

/** An owner field; absent and invalid get the same code (ARCHITECTURE.md). */
export function ownerField(value: string | undefined, zone: string, code: SpecCode, rules: { wildcard?: boolean; underscore?: boolean } = {}): string {
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
export const addressText = (value: unknown): string | null => (typeof value === 'string' && ADDRESS.test(value) ? value : null);
