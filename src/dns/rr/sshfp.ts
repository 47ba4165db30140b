import dnsPacket from 'dns-packet';
import { fail } from '../../errors.ts';
import { int } from '../text.ts';
import { hexField, intField, ownerField, type RecordType, type Stored, tokenText } from './kit.ts';

export type SshfpData = Stored & { name: string; algorithm: number; fptype: number; fingerprint: string };

/**
 * Key algorithms (IANA "SSHFP RR Types for public key algorithms"): 1 RSA,
 * 2 DSA (RFC 4255 3.1.1), 3 ECDSA (RFC 6594), 4 Ed25519 (RFC 7479, RFC
 * 8709), 6 Ed448 (RFC 8709). 0 is reserved and 5 unassigned.
 */
const ALGORITHMS = new Set([1, 2, 3, 4, 6]);

/** Fingerprint length by type: 1 SHA-1 (RFC 4255 3.1.2), 2 SHA-256 (RFC 6594); 0 is reserved. */
const FINGERPRINT_BYTES: Readonly<Record<number, number>> = { 1: 20, 2: 32 };

/**
 * dns-packet's SSHFP data (its rsshfp codec): the type is `hash` and the
 * fingerprint a hex string (upper case when decoded).
 */
export interface SshfpWire {
  algorithm: number;
  hash: number;
  fingerprint: string;
}

const HEX = /^[0-9a-f]+$/i;

/**
 * dns-packet 5.6's SSHFP decoder reads the byte count its fingerprint type
 * fixes, not RDLENGTH: an SSHFP of another type (0, 3, a future one) in a
 * transfer left it out of step, and every later record of the message
 * decoded as garbage (seen: the next one came out as UNKNOWN_384). Its
 * decode is replaced, once, by one that takes RDLENGTH's bytes; the
 * fingerprint is then all of them, which `wellFormed` judges.
 */
const codec = (dnsPacket as unknown as { sshfp: { decode: DecodeFn } }).sshfp;
type DecodeFn = ((buf: Buffer, offset?: number) => SshfpWire) & { bytes: number };
const byRdLength = ((buf: Buffer, offset = 0): SshfpWire => {
  const length = buf.readUInt16BE(offset);
  const end = offset + 2 + length;
  const record = {
    algorithm: buf[offset + 2] ?? 0,
    hash: buf[offset + 3] ?? 0,
    fingerprint: buf
      .subarray(Math.min(offset + 4, end), end)
      .toString('hex')
      .toUpperCase(),
  };
  byRdLength.bytes = 2 + length;
  return record;
}) as DecodeFn;
byRdLength.bytes = 0;
codec.decode = byRdLength;

/** Whether wire data is a fingerprint whose length is its type's (the only SSHFP Vigil holds or presents). */
const wellFormed = (d: SshfpWire): boolean =>
  typeof d.fingerprint === 'string' &&
  HEX.test(d.fingerprint) &&
  d.fingerprint.length === 2 * (FINGERPRINT_BYTES[d.hash] ?? 0);

/**
 * SSHFP (RFC 4255): `name` the host (blank: the domain itself),
 * `algorithm` of its key, `fptype` and `fingerprint` (hex, any case, as sent).
 */
export const SSHFP = {
  type: 'SSHFP',
  add: {
    script: 'dnsAddSSHFP.php',
    summary: 'add an SSHFP record (an SSH host key fingerprint)',
    extension: true,
    // `ssh-keygen -r www` for an Ed25519 host key, its SHA-256 line.
    example: {
      name: 'www',
      algorithm: '4',
      fptype: '2',
      fingerprint: '4B741E0026B6892B939C70F9008BC6D29838111202C8FE63AF162C2FAC51BDEF',
    },
    fields: [
      {
        name: 'name',
        kind: 'owner',
        required: true,
        code: 'syntaxInvalidHostname',
        doc: 'owner relative to the domain: the SSH host, blank (or `@`) for the domain itself',
        label: 'Name',
        hint: 'blank for the domain itself',
        blank: true,
      },
      {
        name: 'algorithm',
        kind: 'integer',
        required: true,
        min: 1,
        max: 6,
        code: 'syntaxInvalidAlgorithm',
        doc: "the host key's algorithm: 1 RSA, 2 DSA, 3 ECDSA, 4 Ed25519 or 6 Ed448",
        label: 'Algorithm',
      },
      {
        name: 'fptype',
        kind: 'integer',
        required: true,
        min: 1,
        max: 2,
        code: 'syntaxInvalidFptype',
        doc: 'fingerprint type: 1 SHA-1 or 2 SHA-256',
        label: 'Fingerprint type',
      },
      {
        name: 'fingerprint',
        kind: 'hex',
        required: true,
        code: 'syntaxInvalidFingerprint',
        doc: 'the fingerprint in hex, any case: 40 digits for SHA-1, 64 for SHA-256 (`ssh-keygen -r` prints them)',
        label: 'Fingerprint (hex)',
      },
    ],
  },
  wire: {
    type: 'SSHFP',
    encode: (d): SshfpWire => ({
      algorithm: int(d.algorithm),
      hash: int(d.fptype),
      fingerprint: String(d.fingerprint),
    }),
    decode: (w, name) => {
      const d = w as SshfpWire;
      return wellFormed(d) ? { name, algorithm: d.algorithm, fptype: d.hash, fingerprint: d.fingerprint } : null;
    },
    // No canonical: SSHFP RDATA holds no name.
    present: (w) => {
      const d = w as SshfpWire;
      return wellFormed(d) ? `${int(d.algorithm)} ${int(d.hash)} ${d.fingerprint}` : null;
    },
  },
  // {"name":"<253>","algorithm":255,"fptype":2,"fingerprint":"<64 hex>"} + `,"ttl":2147483647`: a transfer may
  // hold any 8-bit algorithm, and only fingerprint types 1 and 2 (wellFormed).
  bound: '{"name":"'.length + 253 + '","algorithm":255,"fptype":2,"fingerprint":"'.length + 64 + '"}'.length + 17,
  display: '{name|@} → algorithm {algorithm}, fingerprint type {fptype}: {fingerprint}',
  parse: (f, zone) => {
    const name = ownerField(f.name, zone, 'syntaxInvalidHostname', { underscore: true });
    const algorithm = intField(f.algorithm, 1, 6, 'syntaxInvalidAlgorithm');
    if (!ALGORITHMS.has(algorithm)) fail('syntaxInvalidAlgorithm');
    const fptype = intField(f.fptype, 1, 2, 'syntaxInvalidFptype');
    const fingerprint = hexField(f.fingerprint, 'syntaxInvalidFingerprint', FINGERPRINT_BYTES[fptype]);
    return { name, algorithm, fptype, fingerprint };
  },
  reply: (d) => ({ name: d.name, algorithm: d.algorithm, fptype: d.fptype, fingerprint: d.fingerprint }),
  owner: (d) => d.name,
  // Hex stored as sent, written upper case: as present writes the wire (the signed text) and BIND does.
  rdata: (d) =>
    HEX.test(String(d.fingerprint))
      ? `${int(d.algorithm)} ${int(d.fptype)} ${String(d.fingerprint).toUpperCase()}`
      : null,
  // BIND and Knot take the fingerprint split by blanks, as DS's digest (RFC 4034 5.3): joined.
  fromText: (owner, rdata) => {
    if (rdata.length < 3) fail('syntaxInvalidAlgorithm');
    const [algorithm, fptype, ...fingerprint] = rdata.map(tokenText);
    return { name: owner, algorithm, fptype, fingerprint: fingerprint.join('') };
  },
} as const satisfies RecordType<SshfpData, 'SSHFP'>;
