/**
 * NBD, the Network Block Device protocol (doc/proto.md of the nbd project,
 * "Fixed newstyle negotiation"), up to the option haggling and no further:
 * the server's greeting, NBD_OPT_LIST (the export names), NBD_OPT_GO (the
 * export opened for us, its size and flags), then NBD_OPT_ABORT or, after a
 * GO, NBD_CMD_DISC at once: no NBD_CMD_READ or NBD_CMD_WRITE is ever sent.
 */
import type { Net } from '../engine/types.ts';
import type { Conv } from './conv.ts';
import { talk } from './talk.ts';

const NBDMAGIC = Buffer.from('NBDMAGIC');
const IHAVEOPT = Buffer.from('IHAVEOPT');
/** The magic of every option reply: 0x3e889045565a9. */
const REPLY_MAGIC = Buffer.from([0x00, 0x03, 0xe8, 0x89, 0x04, 0x55, 0x65, 0xa9]);
const OPT_ABORT = 2;
const OPT_LIST = 3;
const OPT_GO = 7;
const CMD_DISC = 2;
const REP_ACK = 1;
const REP_SERVER = 2;
const REP_INFO = 3;
const INFO_EXPORT = 0;
const FLAG_FIXED_NEWSTYLE = 1;
const FLAG_NO_ZEROES = 2;
/** Option replies with the top bit set are errors; these are the ones a report names. */
const ERRORS: Readonly<Record<number, string>> = {
  1: 'UNSUP',
  2: 'POLICY',
  3: 'INVALID',
  4: 'PLATFORM',
  5: 'TLS_REQD',
  6: 'UNKNOWN',
  7: 'SHUTDOWN',
  8: 'BLOCK_SIZE_REQD',
  9: 'TOO_BIG',
};

export interface NbdReply {
  type: number;
  data: Buffer;
}

/** "ACK", "SERVER", "ERR_POLICY": how a finding quotes a reply. */
export function replyName(type: number): string {
  if (type >= 0x80000000) return `ERR_${ERRORS[type - 0x80000000] ?? type - 0x80000000}`;
  return ({ 1: 'ACK', 2: 'SERVER', 3: 'INFO' } as Record<number, string>)[type] ?? String(type);
}

/** One whole option reply from the front of `b` (magic, option, type, length, data), or null while incomplete. */
function parseReply(b: Buffer): { reply: NbdReply; rest: Buffer } | null {
  if (b.length < 20) return null;
  if (!b.subarray(0, 8).equals(REPLY_MAGIC)) return { reply: { type: 0x80000000 + 3, data: Buffer.alloc(0) }, rest: b };
  const len = b.readUInt32BE(16);
  if (b.length < 20 + len) return null;
  return { reply: { type: b.readUInt32BE(12), data: b.subarray(20, 20 + len) }, rest: b.subarray(20 + len) };
}

/** The replies to one option, up to the final one (ACK or an error); null on silence or garbage. */
async function option(c: Conv, opt: number, data: Buffer): Promise<NbdReply[] | null> {
  const head = Buffer.alloc(16);
  IHAVEOPT.copy(head, 0);
  head.writeUInt32BE(opt, 8);
  head.writeUInt32BE(data.length, 12);
  c.take();
  c.send(Buffer.concat([head, data]));
  const done = (b: Buffer) => {
    let rest = b;
    for (;;) {
      const r = parseReply(rest);
      if (!r) return false;
      if (r.rest === rest) return true; // not an option reply: stop reading
      if (r.reply.type === REP_ACK || r.reply.type >= 0x80000000) return true;
      rest = r.rest;
    }
  };
  let rest = await c.read(3000, done);
  const replies: NbdReply[] = [];
  for (;;) {
    const r = parseReply(rest);
    if (!r || r.rest === rest) return null;
    replies.push(r.reply);
    if (r.reply.type === REP_ACK || r.reply.type >= 0x80000000) return replies;
    rest = r.rest;
  }
}

const last = (rs: NbdReply[]) => rs[rs.length - 1]!;

/** The server's greeting and our client flags; the handshake flags, or null when the port is not fixed newstyle NBD. */
async function handshake(c: Conv): Promise<number | null> {
  const hello = await c.read(3000, (b) => b.length >= 18);
  if (hello.length < 18 || !isNbdGreeting(hello)) return null;
  const flags = hello.readUInt16BE(16);
  if (!(flags & FLAG_FIXED_NEWSTYLE)) return null;
  const ours = Buffer.alloc(4);
  ours.writeUInt32BE(FLAG_FIXED_NEWSTYLE | (flags & FLAG_NO_ZEROES));
  c.take();
  c.send(ours);
  return flags;
}

function abort(c: Conv): void {
  const head = Buffer.alloc(16);
  IHAVEOPT.copy(head, 0);
  head.writeUInt32BE(OPT_ABORT, 8);
  c.send(head);
}

/** NBD_OPT_LIST: the export names, or the reply that refused the list; null when the port is not NBD. */
export function nbdList(net: Net, port: number): Promise<{ names: string[] } | { refused: string } | null> {
  return talk(net, port, async (c) => {
    if ((await handshake(c)) === null) return null;
    const rs = await option(c, OPT_LIST, Buffer.alloc(0));
    if (!rs) return null;
    abort(c);
    if (last(rs).type !== REP_ACK) return { refused: replyName(last(rs).type) };
    return {
      names: rs
        .filter((r) => r.type === REP_SERVER && r.data.length >= 4)
        .map((r) => r.data.subarray(4, 4 + r.data.readUInt32BE(0)).toString('utf8')),
    };
  });
}

/**
 * NBD_OPT_GO on one export: the export (size and transmission flags from
 * NBD_INFO_EXPORT) when the server let us into the transmission phase, then
 * at once NBD_CMD_DISC, the protocol's clean goodbye, with no read or write
 * before it; or the reply that refused. nbd-server answers NBD_OPT_INFO for
 * an export its authfile closes to us (measured: 3.24, `authfile` without
 * our address), and checks the authfile only when the export is opened: only
 * GO proves access.
 */
export function nbdOpen(net: Net, port: number, name: string): Promise<NbdOpen | null> {
  return talk(net, port, async (c) => {
    if ((await handshake(c)) === null) return null;
    const n = Buffer.from(name, 'utf8');
    const req = Buffer.alloc(4 + n.length + 2);
    req.writeUInt32BE(n.length, 0);
    n.copy(req, 4);
    req.writeUInt16BE(0, 4 + n.length); // no information requests: NBD_INFO_EXPORT comes regardless
    const rs = await option(c, OPT_GO, req);
    if (!rs) return null;
    const ex = rs.find((r) => r.type === REP_INFO && r.data.length >= 12 && r.data.readUInt16BE(0) === INFO_EXPORT);
    if (last(rs).type !== REP_ACK || !ex) {
      abort(c);
      return { name, export: null, refused: replyName(last(rs).type) };
    }
    // Transmission phase: request magic, flags 0, NBD_CMD_DISC (2), a handle, offset 0, length 0.
    const disc = Buffer.alloc(28);
    disc.writeUInt32BE(0x25609513, 0);
    disc.writeUInt16BE(CMD_DISC, 6);
    c.send(disc);
    return { name, export: { size: ex.data.readBigUInt64BE(2), flags: ex.data.readUInt16BE(10) }, refused: null };
  });
}

export interface NbdOpen {
  name: string;
  export: { size: bigint; flags: number } | null;
  refused: string | null;
}

/** The greeting alone, for detection: true when the port speaks newstyle NBD. */
export const isNbdGreeting = (b: Buffer) =>
  b.length >= 16 && b.subarray(0, 8).equals(NBDMAGIC) && b.subarray(8, 16).equals(IHAVEOPT);
