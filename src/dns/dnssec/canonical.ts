import { createRequire } from 'node:module';
import dnsPacket, { type Answer } from 'dns-packet';
import { typeByWire } from '../records.ts';
import { lowerName } from '../rr/kit.ts';
import { dnssecFail } from './errors.ts';

const RRSIG = 'RRSIG';

/**
 * RFC 4034 section 6: the canonical form of names and records, which is
 * what a signature covers and how names are ordered for NSEC.
 *
 * dns-packet encodes every RDATA we need (A … CAA, and the DNSSEC types
 * RRSIG, DNSKEY, DS, NSEC, NSEC3); what it lacks is the canonical part:
 * lowercased, uncompressed owner names, the canonical name order and the
 * RR order within a set. That part is hand-rolled here and is what the
 * validator tests (sign.test.ts) check against BIND and Knot.
 */

interface RdataCodec {
  encode(data: unknown): Buffer;
}
/** dns-packet's per-type RDATA codecs (`record(type)`), untyped in @types/dns-packet. */
const codecs = dnsPacket as unknown as { record(type: string): RdataCodec };

/** dns-packet's own type table ('UNKNOWN_n' for types it has no name for); not in its typings, hence require. */
const typeNumbers = createRequire(import.meta.url)('dns-packet/types.js') as {
  toType(name: string): number;
  toString(n: number): string;
};
export const typeNumber = (type: string): number => typeNumbers.toType(type);
export const typeName = (n: number): string => typeNumbers.toString(n);

/** ASCII letters lowered, bytes above 0x7f untouched (RFC 4034 6.2: "uppercase US-ASCII letters"). */
function lowerBytes(b: Buffer): Buffer {
  for (let i = 0; i < b.length; i++) if (b[i]! >= 0x41 && b[i]! <= 0x5a) b[i] = b[i]! + 0x20;
  return b;
}

/**
 * A name's labels (dns-packet's form: no trailing dot needed), lowercased,
 * escapes (`\.`, `\DDD`, `\X`) undone; the root has none. Vigil's names are
 * host names, so the escape-free path is the usual one.
 */
export function labels(name: string): Buffer[] {
  if (name === '' || name === '.') return [];
  if (!name.includes('\\')) {
    const n = name.endsWith('.') ? name.slice(0, -1) : name;
    return n.split('.').map((l) => checkLabel(lowerBytes(Buffer.from(l, 'utf8'))));
  }
  const out: Buffer[] = [];
  let cur: number[] = [];
  const bytes = Buffer.from(name, 'utf8');
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (b === 0x5c) {
      const d = bytes.subarray(i + 1, i + 4).toString('latin1');
      if (/^\d{3}$/.test(d)) {
        cur.push(Number(d) & 0xff);
        i += 3;
      } else if (i + 1 < bytes.length) cur.push(bytes[++i]!);
    } else if (b === 0x2e) {
      out.push(checkLabel(lowerBytes(Buffer.from(cur))));
      cur = [];
    } else cur.push(b);
  }
  if (cur.length) out.push(checkLabel(lowerBytes(Buffer.from(cur))));
  return out;
}

function checkLabel(l: Buffer): Buffer {
  if (l.length === 0 || l.length > 63) dnssecFail('badName');
  return l;
}

/** The canonical wire form of a name: lowercased, uncompressed (RFC 4034 6.2). */
export function nameWire(name: string): Buffer {
  return labelsWire(labels(name));
}

/** The wire form of labels already split and lowered (labels()). */
export function labelsWire(ls: readonly Buffer[]): Buffer {
  const out = Buffer.allocUnsafe(ls.reduce((n, l) => n + l.length + 1, 1));
  let o = 0;
  for (const l of ls) {
    out[o++] = l.length;
    l.copy(out, o);
    o += l.length;
  }
  out[o] = 0;
  if (out.length > 255) dnssecFail('badName');
  return out;
}

/**
 * RFC 4034 6.1 order: label by label from the top, each label as lowercase
 * octets, a missing label (the shorter name, an ancestor) first.
 */
export function compareLabels(a: readonly Buffer[], b: readonly Buffer[]): number {
  for (let i = a.length - 1, j = b.length - 1; ; i--, j--) {
    if (i < 0) return j < 0 ? 0 : -1;
    if (j < 0) return 1;
    const c = Buffer.compare(a[i]!, b[j]!);
    if (c !== 0) return c;
  }
}

/** Names in canonical order (each name's labels computed once). */
export function sortNames(names: Iterable<string>): string[] {
  const keyed = [...names].map((n) => ({ n, l: labels(n) }));
  keyed.sort((x, y) => compareLabels(x.l, y.l));
  return keyed.map((k) => k.n);
}

/**
 * RDATA with the embedded names lowercased, for the types RFC 4034 6.2 lists
 * as amended by RFC 6840 5.1 (NSEC's next name is not lowered; RRSIG's
 * signer is). The record table's types say it themselves (their wire's
 * `canonical`); the signer's RRSIG is the one left here. Text (TXT, CAA
 * values) is never touched.
 */
function canonicalData(type: string, data: unknown): unknown {
  const kit = typeByWire(type)?.wire;
  if (kit) return kit.canonical ? kit.canonical(data) : data;
  if (type === RRSIG) {
    const d = data as { signersName: string };
    return { ...d, signersName: lowerName(d.signersName) };
  }
  return data;
}

/** RDLENGTH and RDATA in canonical form, as dns-packet's codec writes them (the first two bytes are RDLENGTH). */
export function rdataWire(a: Answer): Buffer {
  const b = codecs.record(a.type).encode(canonicalData(a.type, (a as { data: unknown }).data));
  // Cut to RDLENGTH: dns-packet sizes its buffer by encodingLength, which for an SOA mailbox
  // with an escaped dot (`john\.doe`) counts the backslash the encoder drops, leaving a stray
  // zero byte that would be signed (found by dnssec-verify; the fixture's SOA has such a mailbox).
  return b.length === 2 + b.readUInt16BE(0) ? b : b.subarray(0, 2 + b.readUInt16BE(0));
}

/**
 * One RRset's records as a signature covers them (RFC 4034 3.1.8.1):
 * owner | type | class | original TTL | RDLENGTH | RDATA, each record in
 * canonical RDATA order, duplicates dropped (RFC 4034 6.3).
 */
export function rrsetWire(owner: Buffer, type: string, originalTtl: number, rrset: readonly Answer[]): Buffer {
  const rdatas = rrset.map(rdataWire);
  rdatas.sort((x, y) => Buffer.compare(x.subarray(2), y.subarray(2)));
  const head = Buffer.allocUnsafe(8);
  head.writeUInt16BE(typeNumber(type), 0);
  head.writeUInt16BE(1, 2); // IN: the only class Vigil serves
  head.writeUInt32BE(originalTtl >>> 0, 4);
  const parts: Buffer[] = [];
  let prev: Buffer | null = null;
  for (const r of rdatas) {
    if (prev && prev.equals(r)) continue;
    parts.push(owner, head, r);
    prev = r;
  }
  return Buffer.concat(parts);
}

/**
 * Labels of an owner as the RRSIG Labels field counts them: the root and a leading `*` not counted (RFC 4034
 * 3.1.3).
 */
export function rrsigLabels(owner: string): number {
  const ls = labels(owner);
  return ls.length && ls[0]!.length === 1 && ls[0]![0] === 0x2a ? ls.length - 1 : ls.length;
}
