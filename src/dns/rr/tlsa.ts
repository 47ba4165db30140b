import { fail } from '../../errors.ts';
import { int } from '../text.ts';
import { hexField, intField, MAX_HEX_BYTES, ownerField, type RecordType, type Stored, tokenText } from './kit.ts';

export type TlsaData = Stored & { name: string; usage: number; selector: number; matchingtype: number; data: string };

/**
 * The owner a client asks for is `_port._protocol.host` (RFC 6698 3): a
 * decimal port with no leading zero, then one of the three protocols RFC
 * 6698 3 names. A TLSA anywhere else is still a valid record (BIND and Knot
 * load it), so it is added and publish warns: nobody will ask for it.
 */
const OWNER = /^_([1-9]\d{0,4})\._(?:tcp|udp|sctp)(?:\.|$)/;

/** Matching type 1 is SHA2-256, 2 SHA2-512 (RFC 6698 2.1.3, RFC 7218 2.3): the data is that digest. */
const DIGEST_BYTES: Readonly<Record<number, number>> = { 1: 32, 2: 64 };

/**
 * Matching type 0 is the selected content itself (RFC 6698 2.1.3): the whole
 * certificate (selector 0) or its SubjectPublicKeyInfo (selector 1), both
 * one DER SEQUENCE (RFC 5280 4.1). Checked as such: tag 0x30 and a
 * minimal definite length (X.690 8.1.3, 10.1) that covers the data exactly,
 * so a digest pasted with matching type 0 is refused.
 */
function derSequence(b: Buffer): boolean {
  if (b.length < 2 || b[0] !== 0x30) return false;
  const first = b[1]!;
  if (first < 0x80) return b.length === 2 + first;
  const n = first & 0x7f;
  // MAX_HEX_BYTES (4096) needs two length octets at most; 0x80 (indefinite) is BER, not DER.
  if (n === 0 || n > 2 || b.length < 2 + n) return false;
  const length = b.readUIntBE(2, n);
  return length >= (n === 1 ? 0x80 : 0x100) && b.length === 2 + n + length;
}

/** dns-packet's TLSA data (its rtlsa codec): `matchingType`, and the data as a Buffer named `certificate`. */
export interface TlsaWire {
  usage: number;
  selector: number;
  matchingType: number;
  certificate: Uint8Array;
}

const HEX = /^[0-9a-f]+$/i;
const hexOf = (b: Uint8Array) => Buffer.from(b).toString('hex').toUpperCase();

/**
 * TLSA (RFC 6698, mnemonics RFC 7218): `name` the `_port._proto.host`
 * owner, `usage` 0-3 (PKIX-TA, PKIX-EE, DANE-TA, DANE-EE), `selector` 0-1
 * (Cert, SPKI), `matchingtype` 0-2 (Full, SHA2-256, SHA2-512), `data` the
 * certificate association data in hex, any case, as sent. The private-use
 * value 255 of each (RFC 6698 7.2-7.4) is not taken.
 */
export const TLSA = {
  type: 'TLSA',
  add: {
    script: 'dnsAddTLSA.php',
    summary: 'add a TLSA record (DANE)',
    extension: true,
    // DANE-EE for HTTPS on www: the SHA-256 of the server's public key (RFC 7671 5.1).
    example: {
      name: '_443._tcp.www',
      usage: '3',
      selector: '1',
      matchingtype: '1',
      data: '0C72AC70B745AC19998811B131D662C9AC69DBDBE7CB23E5B514B56664C5D3D6',
    },
    fields: [
      {
        name: 'name',
        kind: 'owner',
        required: true,
        code: 'syntaxInvalidHostname',
        doc: 'owner relative to the domain: `_port._protocol` then the host, e.g. `_443._tcp.www`, `_25._tcp.mail`, `_443._tcp` for the domain itself',
        label: 'Name',
        hint: '_443._tcp.www',
        blank: true,
      },
      {
        name: 'usage',
        kind: 'integer',
        required: true,
        min: 0,
        max: 3,
        code: 'syntaxInvalidUsage',
        doc: 'certificate usage: 0 PKIX-TA, 1 PKIX-EE, 2 DANE-TA, 3 DANE-EE',
        label: 'Usage',
      },
      {
        name: 'selector',
        kind: 'integer',
        required: true,
        min: 0,
        max: 1,
        code: 'syntaxInvalidSelector',
        doc: 'selector: 0 the full certificate, 1 its SubjectPublicKeyInfo',
        label: 'Selector',
      },
      {
        name: 'matchingtype',
        kind: 'integer',
        required: true,
        min: 0,
        max: 2,
        code: 'syntaxInvalidMatchingtype',
        doc: 'matching type: 0 the selected content itself, 1 its SHA-256, 2 its SHA-512',
        label: 'Matching type',
      },
      {
        name: 'data',
        kind: 'hex',
        required: true,
        code: 'syntaxInvalidData',
        doc: `certificate association data in hex, any case: 64 digits for SHA-256, 128 for SHA-512, the DER (at most ${MAX_HEX_BYTES} bytes) for matching type 0`,
        label: 'Association data (hex)',
      },
    ],
  },
  wire: {
    type: 'TLSA',
    encode: (d): TlsaWire => ({
      usage: int(d.usage),
      selector: int(d.selector),
      matchingType: int(d.matchingtype),
      certificate: Buffer.from(String(d.data), 'hex'),
    }),
    // Hex comes back upper case, as BIND writes it; data beyond MAX_HEX_BYTES is not held (the bound).
    decode: (w, name) => {
      const { usage, selector, matchingType, certificate } = w as TlsaWire;
      if (!(certificate instanceof Uint8Array) || certificate.length === 0 || certificate.length > MAX_HEX_BYTES)
        return null;
      return { name, usage, selector, matchingtype: matchingType, data: hexOf(certificate) };
    },
    // No canonical: TLSA RDATA holds no name.
    present: (w) => {
      const d = w as TlsaWire;
      if (!(d.certificate instanceof Uint8Array) || d.certificate.length === 0) return null;
      return `${int(d.usage)} ${int(d.selector)} ${int(d.matchingType)} ${hexOf(d.certificate)}`;
    },
  },
  // {"name":"<253>","usage":255,"selector":255,"matchingtype":255,"data":"<8192 hex>"} + `,"ttl":2147483647`:
  // a transfer may hold any 8-bit usage, selector and matching type.
  bound:
    '{"name":"'.length +
    253 +
    '","usage":255,"selector":255,"matchingtype":255,"data":"'.length +
    2 * MAX_HEX_BYTES +
    '"}'.length +
    17,
  display: '{name|@} → usage {usage}, selector {selector}, matching type {matchingtype}: {data}',
  parse: (f, zone) => {
    const name = ownerField(f.name, zone, 'syntaxInvalidHostname', { underscore: true });
    const usage = intField(f.usage, 0, 3, 'syntaxInvalidUsage');
    const selector = intField(f.selector, 0, 1, 'syntaxInvalidSelector');
    const matchingtype = intField(f.matchingtype, 0, 2, 'syntaxInvalidMatchingtype');
    const data = hexField(f.data, 'syntaxInvalidData', DIGEST_BYTES[matchingtype]);
    if (matchingtype === 0 && !derSequence(Buffer.from(data, 'hex'))) fail('syntaxInvalidData');
    return { name, usage, selector, matchingtype, data };
  },
  reply: (d) => ({ name: d.name, usage: d.usage, selector: d.selector, matchingtype: d.matchingtype, data: d.data }),
  owner: (d) => d.name,
  lint: (d) => {
    const port = OWNER.exec(d.name)?.[1];
    return port !== undefined && Number(port) <= 65535
      ? null
      : 'a TLSA record belongs at _port._tcp, _udp or _sctp before the host (RFC 6698 3); no client asks for it here';
  },
  // Hex stored as sent, written upper case: as present writes the wire (the signed text) and BIND does.
  rdata: (d) =>
    HEX.test(String(d.data))
      ? `${int(d.usage)} ${int(d.selector)} ${int(d.matchingtype)} ${String(d.data).toUpperCase()}`
      : null,
  // The data may be split by blanks (RFC 6698 2.2): its tokens are joined.
  fromText: (owner, rdata) => {
    if (rdata.length < 4) fail('syntaxInvalidUsage');
    const [usage, selector, matchingtype, ...data] = rdata.map(tokenText);
    return { name: owner, usage, selector, matchingtype, data: data.join('') };
  },
} as const satisfies RecordType<TlsaData, 'TLSA'>;
