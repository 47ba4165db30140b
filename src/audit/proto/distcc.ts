/**
 * distcc's wire protocol, version 1 (distcc's doc/protocol-1.txt; the
 * server side is distccd's src/serve.c): every item is a token of four
 * letters and eight hex digits, `DIST00000001`, `ARGC<n>`, `ARGV<len><arg>`
 * …, `DOTI<len><preprocessed source>`. distccd answers a job it ran with
 * `DONE00000001`, `STAT<wait status>`, `SERR<len><stderr>`,
 * `SOUT<len><stdout>` and `DOTO<len><object>`; every refusal (a client
 * outside --allow, a compiler outside its whitelist, a malformed request)
 * closes the connection without a byte (serve.c's out_cleanup), so only a
 * reply proves that a job was taken.
 */
import type { Net } from '../engine/types.ts';
import { talk } from './talk.ts';

const token = (name: string, n: number) => `${name}${n.toString(16).padStart(8, '0')}`;

/** One job of protocol version 1 (preprocessed on the client, no compression). */
export function distccRequest(argv: readonly string[], source: Buffer = Buffer.alloc(0)): Buffer {
  const parts: Buffer[] = [Buffer.from(token('DIST', 1) + token('ARGC', argv.length))];
  for (const a of argv) {
    const b = Buffer.from(a, 'utf8');
    parts.push(Buffer.from(token('ARGV', b.length)), b);
  }
  parts.push(Buffer.from(token('DOTI', source.length)), source);
  return Buffer.concat(parts);
}

export interface DistccReply {
  /** The wait status the compiler (or the failed exec) left, as STAT carries it. */
  status: number;
  serr: string;
  sout: string;
  /** Bytes of the object file (0 when the job failed). */
  objectBytes: number;
  /** The `GCC: (…) x.y` note of an object file, when it carries one (the compiler's version). */
  compiler: string | null;
  /** The reply's first tokens as sent, for a finding: `DONE00000001STAT00000000…`. */
  head: string;
}

/**
 * The reply so far: null until DONE, STAT, SERR, SOUT and DOTO have all
 * arrived whole (or when it is not distccd's reply at all).
 */
export function parseDistccReply(b: Buffer): DistccReply | null {
  let off = 0;
  const next = (name: string): number | null => {
    if (b.length < off + 12 || b.subarray(off, off + 4).toString('latin1') !== name) return null;
    const hex = b.subarray(off + 4, off + 12).toString('latin1');
    if (!/^[0-9a-f]{8}$/i.test(hex)) return null;
    off += 12;
    return parseInt(hex, 16);
  };
  const file = (name: string): Buffer | null => {
    const n = next(name);
    if (n === null || b.length < off + n) return null;
    off += n;
    return b.subarray(off - n, off);
  };
  if (next('DONE') === null) return null;
  const status = next('STAT');
  if (status === null) return null;
  const serr = file('SERR');
  const sout = serr && file('SOUT');
  const doto = sout && file('DOTO');
  if (!serr || !sout || !doto) return null;
  const gcc = /GCC: \(([^\0]{1,80})\) ([\w.+-]{1,40})/.exec(doto.toString('latin1'));
  return {
    status,
    serr: serr.toString('utf8'),
    sout: sout.toString('utf8'),
    objectBytes: doto.length,
    compiler: gcc ? `GCC (${gcc[1]}) ${gcc[2]}` : null,
    head: b.subarray(0, 48).toString('latin1'),
  };
}

/** A reply is whole, or the bytes cannot be distccd's (then reading stops at once). */
const replyDone = (b: Buffer) =>
  parseDistccReply(b) !== null || (b.length >= 4 && b.subarray(0, 4).toString('latin1') !== 'DONE');

/**
 * Sends one job and reads the reply. `replied: false` is a connection that
 * closed (or stayed silent) without a reply: refused, or a compiler the
 * server does not run; null when the port could not be reached.
 */
export async function distccJob(
  net: Net,
  port: number,
  argv: readonly string[],
  ms = 8000,
): Promise<{ replied: false } | { replied: true; reply: DistccReply } | null> {
  return talk(
    net,
    port,
    async (conv) => {
      const r = await conv.ask(distccRequest(argv), ms, replyDone);
      const reply = parseDistccReply(r);
      return reply ? { replied: true as const, reply } : { replied: false as const };
    },
    ms,
  );
}

/** The exit code in a wait status (W_EXITCODE: code << 8), or the signal's number when it was killed. */
export const exitCode = (status: number) => (status & 0x7f ? -(status & 0x7f) : (status >> 8) & 0xff);
