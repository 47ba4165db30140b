import { fail } from '../../errors.ts';
import { int } from '../text.ts';
import { hexField, intField, ownerField, type RecordType, type Stored, tokenText } from './kit.ts';

export type DsData = Stored & { name: string; keytag: number; algorithm: number; digesttype: number; digest: string };

/**
 * Key algorithms a DS may name (IANA "DNS Security Algorithm Numbers"). A DS
 * points at a DNSKEY of the child's apex with the Zone Key flag set (RFC
 * 4034 5.1, 5.2), so only the values the registry marks usable for zone
 * signing: 3 DSA, 5 RSASHA1, 6 DSA-NSEC3-SHA1, 7 RSASHA1-NSEC3-SHA1, 8
 * RSASHA256, 10 RSASHA512, 12 ECC-GOST, 13 ECDSAP256SHA256, 14
 * ECDSAP384SHA384, 15 ED25519, 16 ED448, 17 SM2SM3 (RFC 9563), 23
 * ECC-GOST12 (RFC 9558), 253 PRIVATEDNS, 254 PRIVATEOID (RFC 4034 A.1.1).
 * Refused: 0 (RFC 8078's "delete DS", for CDS only), 1 RSAMD5 (not for
 * zone signing; RFC 8624 3.1: MUST NOT), 2 DH and 252 INDIRECT (never zone keys), and the
 * reserved (4, 9, 11, 123-251, 255) and unassigned values. Algorithms RFC
 * 8624 3.1 retires for signing (3, 6, 12…) still describe a child's real
 * key; a validator that lacks one treats the child as insecure (RFC 4035
 * 5.2), so publishing its DS does no harm.
 */
const ZONE_SIGNING = new Set([3, 5, 6, 7, 8, 10, 12, 13, 14, 15, 16, 17, 23, 253, 254]);

/** Zone text may give the algorithm by its mnemonic (RFC 4034 5.3, A.1; the registry's names). */
const MNEMONIC = new Map(
  Object.entries({
    RSAMD5: 1,
    DH: 2,
    DSA: 3,
    RSASHA1: 5,
    'DSA-NSEC3-SHA1': 6,
    'RSASHA1-NSEC3-SHA1': 7,
    RSASHA256: 8,
    RSASHA512: 10,
    'ECC-GOST': 12,
    ECDSAP256SHA256: 13,
    ECDSAP384SHA384: 14,
    ED25519: 15,
    ED448: 16,
    SM2SM3: 17,
    'ECC-GOST12': 23,
    INDIRECT: 252,
    PRIVATEDNS: 253,
    PRIVATEOID: 254,
  }),
);

/**
 * Digest length by digest type (IANA "DS RR Type Digest Algorithms"): 1
 * SHA-1 (RFC 4034 5.1.4), 2 SHA-256 (RFC 4509), 3 GOST R 34.11-94 (RFC
 * 5933), 4 SHA-384 (RFC 6605). RFC 8624 3.3 bars creating SHA-1 and GOST
 * digests but has validators keep SHA-1: a DS made elsewhere is taken.
 * Types 5 (GOST R 34.11-2012, RFC 9558) and 6 (SM3, RFC 9563) are assigned
 * but refused: Knot's kzonecheck (3.2) calls them an "invalid algorithm in
 * DS", so a Knot secondary's checks would fail the zone (tried).
 */
const DIGEST_BYTES: Readonly<Record<number, number>> = { 1: 20, 2: 32, 3: 32, 4: 48 };
const MAX_DIGEST_BYTES = 48;

/** dns-packet's DS data (its rds codec): the digest is a Buffer, not hex. */
export interface DsWire {
  keyTag: number;
  algorithm: number;
  digestType: number;
  digest: Uint8Array;
}

const HEX = /^[0-9a-f]+$/i;
const hexOf = (b: Uint8Array) => Buffer.from(b).toString('hex').toUpperCase();

/**
 * DS (RFC 4034 5): `name` the delegated child, `keytag`, `algorithm`,
 * `digesttype` and `digest` (hex, any case, as sent) of one of its keys.
 */
export const DS = {
  type: 'DS',
  role: 'delegationSigner',
  add: {
    script: 'dnsAddDS.php',
    summary: 'add a DS record (a signed delegation)',
    extension: true,
    // The delegation of `lab` (NS's example) signed with an ECDSA key; RFC 4509's SHA-256 digest.
    example: {
      name: 'lab',
      keytag: '60485',
      algorithm: '13',
      digesttype: '2',
      digest: 'D4B7D520E7BB5F0F67674A0CCEB1E3E0614B93C4F9E99B8383F6A1E4469DA50A',
    },
    fields: [
      {
        name: 'name',
        kind: 'owner',
        required: true,
        code: 'syntaxInvalidHostname',
        doc: "owner relative to the domain: the delegated subdomain (never blank: the domain's own DS is at its parent)",
        label: 'Name',
        hint: 'the delegated subdomain',
        blank: true,
      },
      {
        name: 'keytag',
        kind: 'integer',
        required: true,
        min: 0,
        max: 65535,
        code: 'syntaxInvalidKeytag',
        doc: "the key tag of the child's key (RFC 4034 5.1.1), 0 to 65535",
        label: 'Key tag',
      },
      {
        name: 'algorithm',
        kind: 'integer',
        required: true,
        min: 1,
        max: 255,
        code: 'syntaxInvalidAlgorithm',
        doc: "the key's DNSSEC algorithm number: 3, 5-8, 10, 12-17, 23, 253 or 254 (13 ECDSAP256SHA256 is usual)",
        label: 'Algorithm',
      },
      {
        name: 'digesttype',
        kind: 'integer',
        required: true,
        min: 1,
        max: 4,
        code: 'syntaxInvalidDigesttype',
        doc: '1 SHA-1, 2 SHA-256, 3 GOST R 34.11-94 or 4 SHA-384',
        label: 'Digest type',
      },
      {
        name: 'digest',
        kind: 'hex',
        required: true,
        code: 'syntaxInvalidDigest',
        doc: 'the digest in hex, any case: 40 digits for SHA-1, 64 for SHA-256 and GOST, 96 for SHA-384',
        label: 'Digest (hex)',
      },
    ],
  },
  wire: {
    type: 'DS',
    encode: (d): DsWire => ({
      keyTag: int(d.keytag),
      algorithm: int(d.algorithm),
      digestType: int(d.digesttype),
      digest: Buffer.from(String(d.digest), 'hex'),
    }),
    // Hex comes back upper case, as BIND writes it. A digest longer than any
    // type's is not held: the bound below could not cover it.
    decode: (w, name) => {
      const { keyTag, algorithm, digestType, digest } = w as DsWire;
      if (!(digest instanceof Uint8Array) || digest.length === 0 || digest.length > MAX_DIGEST_BYTES) return null;
      return { name, keytag: keyTag, algorithm, digesttype: digestType, digest: hexOf(digest) };
    },
    // No canonical: DS RDATA holds no name (RFC 4034 6.2's list has no DS).
    present: (w) => {
      const d = w as DsWire;
      if (!(d.digest instanceof Uint8Array) || d.digest.length === 0) return null;
      return `${int(d.keyTag)} ${int(d.algorithm)} ${int(d.digestType)} ${hexOf(d.digest)}`;
    },
  },
  // {"name":"<253>","keytag":65535,"algorithm":255,"digesttype":255,"digest":"<96 hex>"} + `,"ttl":2147483647`:
  // a transfer may hold any 8-bit algorithm and digest type.
  bound:
    '{"name":"'.length +
    253 +
    '","keytag":65535,"algorithm":255,"digesttype":255,"digest":"'.length +
    2 * MAX_DIGEST_BYTES +
    '"}'.length +
    17,
  display: '{name|@} → key {keytag}, algorithm {algorithm}, digest type {digesttype}: {digest}',
  parse: (f, zone) => {
    const name = ownerField(f.name, zone, 'syntaxInvalidHostname', { underscore: true });
    // The apex's own DS is the parent's to publish, at the zone cut (RFC 4034
    // 5; RFC 4035 2.4): here it would never be asked for, and BIND refuses
    // the zone ("DS record at top of zone").
    if (name === '') fail('syntaxInvalidHostname');
    const keytag = intField(f.keytag, 0, 65535, 'syntaxInvalidKeytag');
    const algorithm = intField(f.algorithm, 1, 255, 'syntaxInvalidAlgorithm');
    if (!ZONE_SIGNING.has(algorithm)) fail('syntaxInvalidAlgorithm');
    const digesttype = intField(f.digesttype, 1, 4, 'syntaxInvalidDigesttype');
    const digest = hexField(f.digest, 'syntaxInvalidDigest', DIGEST_BYTES[digesttype]);
    return { name, keytag, algorithm, digesttype, digest };
  },
  reply: (d) => ({
    name: d.name,
    keytag: d.keytag,
    algorithm: d.algorithm,
    digesttype: d.digesttype,
    digest: d.digest,
  }),
  owner: (d) => d.name,
  // Hex stored as sent, written upper case: as present writes the wire (the signed text) and BIND does.
  rdata: (d) =>
    HEX.test(String(d.digest))
      ? `${int(d.keytag)} ${int(d.algorithm)} ${int(d.digesttype)} ${String(d.digest).toUpperCase()}`
      : null,
  // The digest may be split by blanks (RFC 4034 5.3): its tokens are joined.
  fromText: (owner, rdata) => {
    if (rdata.length < 4) fail('syntaxInvalidKeytag');
    const [keytag, algorithm, digesttype, ...digest] = rdata.map(tokenText);
    const mnemonic = MNEMONIC.get(algorithm!.toUpperCase());
    return {
      name: owner,
      keytag,
      algorithm: mnemonic === undefined ? algorithm : String(mnemonic),
      digesttype,
      digest: digest.join(''),
    };
  },
} as const satisfies RecordType<DsData, 'DS'>;
