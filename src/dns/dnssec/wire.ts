import dnsPacket, { type Answer } from 'dns-packet';

/** dns-packet's per-record codec: in the package, missing from its type declarations. */
interface AnswerCodec {
  encodingLength(a: Answer): number;
  encode(a: Answer, buf: Buffer, offset: number): Buffer;
  decode: ((buf: Buffer, offset: number) => Answer) & { bytes: number };
}
const codec = (dnsPacket as unknown as { answer: AnswerCodec }).answer;

/**
 * The signed part of a zone version as the store keeps it: every record the
 * signer added (DNSKEY, RRSIG, NSEC or NSEC3, NSEC3PARAM, CDS, CDNSKEY) in
 * DNS wire form, base64. A version's snapshot is JSON; dns-packet's answers
 * hold Buffers, which JSON would spell out byte by byte (several times the
 * size), and wire form round-trips exactly, so what the signer signed is
 * what the name server serves. Names are written uncompressed.
 */
export interface SignedPart {
  denial: 'nsec' | 'nsec3';
  /** The signer's records, wire form, base64 (encodeSigned / decodeSigned). */
  wire: string;
  /** When the signatures must be made again (ms since 1970). */
  refreshAt: number;
}

export function encodeSigned(records: readonly Answer[]): string {
  const parts: Buffer[] = [];
  for (const r of records) {
    const buf = Buffer.alloc(codec.encodingLength(r));
    codec.encode(r, buf, 0);
    parts.push(buf);
  }
  return Buffer.concat(parts).toString('base64');
}

export function decodeSigned(wire: string): Answer[] {
  const steps = decodeSignedSteps(wire);
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/**
 * decodeSigned, yielding every `every` records: the name server decodes a large zone's signatures a slice at a
 * time between answers (src/dns/server/slices.ts).
 */
export function* decodeSignedSteps(wire: string, every = 256): Generator<void, Answer[], void> {
  const buf = Buffer.from(wire, 'base64');
  const out: Answer[] = [];
  for (let at = 0; at < buf.length; ) {
    out.push(codec.decode(buf, at));
    at += codec.decode.bytes;
    if (out.length % every === 0) yield;
  }
  return out;
}
