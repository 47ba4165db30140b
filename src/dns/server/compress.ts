/**
 * DNS name compression (RFC 1035 4.1.4) of an encoded message.
 *
 * dns-packet writes every name in full. This pass rewrites a message it
 * made: each owner name, and each name inside the RDATA of the types
 * RFC 1035 defines with names (NS, CNAME, SOA, PTR, MX, and the obsolete
 * MB, MD, MF, MG, MR, MINFO), becomes a pointer to the longest suffix
 * already written. Names inside any other type's RDATA (SRV, NAPTR, RRSIG's
 * signer, NSEC's next name, SVCB's target …) are copied as they are: RFC
 * 3597 section 4 forbids compressing them, as Knot, NSD and BIND do.
 *
 * Suffixes match byte for byte, case included, so a decompressed name is
 * exactly the name before; the message means the same to any reader,
 * only shorter. The question's name is written first and so is never a
 * pointer: the rate limiter's "slip" (rrl.ts, native/rrl.c) relies on
 * that to find the question's end.
 *
 * dnsperf's average reply on the 10,000-record signed zone went from 101
 * to 69 bytes without DO and from 335 to 261 with it (Knot: 72 and 263;
 * docs/performance.md, "Signed serving"); 20 A records under a long owner
 * need over three times 512 bytes written whole and fit 512 compressed
 * (test/dns-compression.test.ts).
 */

/** RDATA layout of the types whose names may be compressed: [bytes before the first name, names]. */
const COMPRESSIBLE: ReadonlyMap<number, readonly [number, number]> = new Map([
  [2, [0, 1]], // NS
  [3, [0, 1]], // MD
  [4, [0, 1]], // MF
  [5, [0, 1]], // CNAME
  [6, [0, 2]], // SOA: MNAME, RNAME, then 20 bytes
  [7, [0, 1]], // MB
  [8, [0, 1]], // MG
  [9, [0, 1]], // MR
  [12, [0, 1]], // PTR
  [14, [0, 2]], // MINFO
  [15, [2, 1]], // MX: preference, then the exchange
]);

/**
 * Types whose RDATA names must stay whole but may be pointed at: SRV's
 * target, SVCB's and HTTPS's target name, [bytes before the name]. Their
 * addresses follow in the additional section, whose owners then shrink to
 * a pointer, as Knot writes them (a 4-byte difference dig showed).
 */
const POINTED_AT: ReadonlyMap<number, number> = new Map([
  [33, 6], // SRV: priority, weight, port
  [64, 2], // SVCB: priority
  [65, 2], // HTTPS: priority
]);

/** A pointer's offset has 14 bits. */
const MAX_POINTER = 0x3fff;

class Malformed extends Error {}

/**
 * The labels of the uncompressed name at `pos` and where it ends. A pointer
 * is refused: the input is dns-packet's output, which has none, and a name
 * expanded from one could outgrow the output buffer.
 */
function readName(msg: Buffer, pos: number): { labels: Buffer[]; end: number } {
  const labels: Buffer[] = [];
  let p = pos;
  for (;;) {
    if (p >= msg.length) throw new Malformed();
    const len = msg[p]!;
    if (len === 0) return { labels, end: p + 1 };
    if (len > 63 || p + 1 + len > msg.length || labels.length >= 127) throw new Malformed();
    labels.push(msg.subarray(p + 1, p + 1 + len));
    p += 1 + len;
  }
}

/** Writes names and bytes into `out`, remembering where each written suffix starts. */
class Writer {
  pos = 0;
  private readonly suffixes = new Map<string, number>();
  constructor(readonly out: Buffer) {}

  /** Writes a name, a pointer where a suffix was written before unless `whole`; remembers its own suffixes. */
  name(labels: Buffer[], whole = false): void {
    const keys: string[] = [];
    // Suffix keys from the root up, in wire form (length, label …): the key of labels[i..] is labels[i]'s then labels[i+1..]'s.
    let key = '';
    for (let i = labels.length - 1; i >= 0; i--) {
      key = `${String.fromCharCode(labels[i]!.length)}${labels[i]!.toString('latin1')}${key}`;
      keys[i] = key;
    }
    for (let i = 0; i < labels.length; i++) {
      const at = this.suffixes.get(keys[i]!);
      if (at !== undefined && !whole) {
        this.out.writeUInt16BE(0xc000 | at, this.pos);
        this.pos += 2;
        return;
      }
      if (this.pos <= MAX_POINTER && at === undefined) this.suffixes.set(keys[i]!, this.pos);
      const l = labels[i]!;
      this.out[this.pos++] = l.length;
      l.copy(this.out, this.pos);
      this.pos += l.length;
    }
    this.out[this.pos++] = 0;
  }

  bytes(src: Buffer, start: number, end: number): void {
    src.copy(this.out, this.pos, start, end);
    this.pos += end - start;
  }
}

/**
 * The message with its names compressed; the message itself when it cannot
 * be read (a reply dns-packet made always can: no pointers) or is no shorter.
 */
export function compressMessage(msg: Buffer): Buffer {
  if (msg.length < 12) return msg;
  try {
    return compressOrThrow(msg);
  } catch (err) {
    if (err instanceof Malformed) return msg;
    throw err;
  }
}

function compressOrThrow(msg: Buffer): Buffer {
  // Compression never lengthens a name, so the input's size bounds the output.
  const w = new Writer(Buffer.allocUnsafe(msg.length));
  w.bytes(msg, 0, 12);
  const qd = msg.readUInt16BE(4);
  const rr = msg.readUInt16BE(6) + msg.readUInt16BE(8) + msg.readUInt16BE(10);
  let p = 12;
  for (let i = 0; i < qd; i++) {
    const name = readName(msg, p);
    w.name(name.labels);
    if (name.end + 4 > msg.length) throw new Malformed();
    w.bytes(msg, name.end, name.end + 4);
    p = name.end + 4;
  }
  for (let i = 0; i < rr; i++) {
    const owner = readName(msg, p);
    w.name(owner.labels);
    p = owner.end;
    if (p + 10 > msg.length) throw new Malformed();
    const type = msg.readUInt16BE(p);
    const rdlen = msg.readUInt16BE(p + 8);
    const rdata = p + 10;
    if (rdata + rdlen > msg.length) throw new Malformed();
    w.bytes(msg, p, p + 8); // type, class, TTL
    const lengthAt = w.pos;
    w.pos += 2;
    const layout = COMPRESSIBLE.get(type);
    const before = POINTED_AT.get(type);
    if (before !== undefined && rdlen > before) {
      w.bytes(msg, rdata, rdata + before);
      const name = readName(msg, rdata + before);
      if (name.end > rdata + rdlen) throw new Malformed();
      w.name(name.labels, true);
      w.bytes(msg, name.end, rdata + rdlen); // SVCB's parameters
    } else if (!layout) w.bytes(msg, rdata, rdata + rdlen);
    else {
      const [fixed, names] = layout;
      let q = rdata;
      w.bytes(msg, q, q + fixed);
      q += fixed;
      for (let n = 0; n < names; n++) {
        const name = readName(msg, q);
        if (name.end > rdata + rdlen) throw new Malformed();
        w.name(name.labels);
        q = name.end;
      }
      w.bytes(msg, q, rdata + rdlen); // SOA's numbers; nothing for the others
    }
    w.out.writeUInt16BE(w.pos - lengthAt - 2, lengthAt);
    p = rdata + rdlen;
  }
  w.bytes(msg, p, msg.length); // nothing, in a well-formed message
  return w.pos < msg.length ? w.out.subarray(0, w.pos) : msg;
}
