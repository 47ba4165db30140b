/**
 * HashiCorp memberlist's TCP state exchange (github.com/hashicorp/memberlist
 * net.go), the gossip layer of Alertmanager's cluster (9094), Consul's and
 * Nomad's Serf (8301, 4648) and Serf itself (7946). A push-pull is one
 * message type byte (6) and a msgpack header {Nodes, UserStateLen, Join};
 * the peer answers with its own: every member (name, address, port) and
 * its delegate's state (Alertmanager's: its silences and notification
 * log). Sending zero nodes and no user state merges nothing (memberlist's
 * mergeRemoteState skips an empty list and a nil user buffer), so the
 * exchange is a read. A peer with a gossip key answers only encrypted
 * messages (type 10) and drops ours; one behind TLS never gets this far.
 *
 * Replies may come compressed (type 9: {Algo: 0, Buf}, Go's compress/lzw,
 * LSB order, 8-bit literals: memberlist's DefaultLANConfig compresses).
 */
import type { Net } from '../engine/types.ts';
import type { Conv } from './conv.ts';
import { talk } from './talk.ts';

/** Alertmanager's cluster 9094, Serf 7946, Consul's Serf LAN and WAN 8301-8302, Nomad 4648. */
export const MEMBERLIST_PORTS = [9094, 7946, 8301, 8302, 4648];

const PUSH_PULL = 6;
const COMPRESS = 9;

/** The push-pull request: type 6, then {Nodes: 0, UserStateLen: 0, Join: false} as msgpack. */
export function pushPullRequest(): Buffer {
  const str = (s: string) => Buffer.concat([Buffer.from([0xa0 | s.length]), Buffer.from(s, 'latin1')]);
  return Buffer.concat([
    Buffer.from([PUSH_PULL, 0x83]),
    str('Nodes'),
    Buffer.from([0]),
    str('UserStateLen'),
    Buffer.from([0]),
    str('Join'),
    Buffer.from([0xc2]),
  ]);
}

type Value = null | boolean | number | string | Buffer | Value[] | { [k: string]: Value };

/**
 * A msgpack reader for what go-msgpack writes (the old spec: raw bytes and
 * strings alike as raw, read here as bytes; map keys as text). Throws on
 * anything cut short.
 */
export class MsgpackReader {
  pos = 0;
  constructor(private readonly b: Buffer) {}
  private take(n: number): Buffer {
    if (this.pos + n > this.b.length) throw new Error('msgpack: short');
    const out = this.b.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }
  private uint(n: number): number {
    const t = this.take(n);
    return n === 8 ? Number(t.readBigUInt64BE()) : t.readUIntBE(0, n);
  }
  private map(n: number): { [k: string]: Value } {
    const out: { [k: string]: Value } = {};
    for (let i = 0; i < n; i++) {
      const k = this.read();
      out[Buffer.isBuffer(k) ? k.toString('latin1') : String(k)] = this.read();
    }
    return out;
  }
  read(): Value {
    const t = this.take(1)[0]!;
    if (t <= 0x7f) return t;
    if (t >= 0xe0) return t - 0x100;
    if ((t & 0xf0) === 0x80) return this.map(t & 0x0f);
    if ((t & 0xf0) === 0x90) return Array.from({ length: t & 0x0f }, () => this.read());
    if ((t & 0xe0) === 0xa0) return Buffer.from(this.take(t & 0x1f));
    switch (t) {
      case 0xc0:
        return null;
      case 0xc2:
        return false;
      case 0xc3:
        return true;
      case 0xc4:
      case 0xd9:
        return Buffer.from(this.take(this.uint(1)));
      case 0xc5:
      case 0xda:
        return Buffer.from(this.take(this.uint(2)));
      case 0xc6:
      case 0xdb:
        return Buffer.from(this.take(this.uint(4)));
      case 0xcc:
        return this.uint(1);
      case 0xcd:
        return this.uint(2);
      case 0xce:
        return this.uint(4);
      case 0xcf:
        return this.uint(8);
      case 0xd0:
        return this.take(1).readInt8();
      case 0xd1:
        return this.take(2).readInt16BE();
      case 0xd2:
        return this.take(4).readInt32BE();
      case 0xd3:
        return Number(this.take(8).readBigInt64BE());
      case 0xdc:
        return Array.from({ length: this.uint(2) }, () => this.read());
      case 0xde:
        return this.map(this.uint(2));
      case 0xdf:
        return this.map(this.uint(4));
    }
    throw new Error(`msgpack: type 0x${t.toString(16)}`);
  }
}

/** Go's compress/lzw reader, LSB order, 8-bit literals (clear 256, end 257, codes up to 12 bits); null when malformed. */
export function lzwDecode(input: Buffer, maxOut = 1 << 20): Buffer | null {
  const CLEAR = 256;
  const EOF = 257;
  const out: number[] = [];
  let table: number[][] = [];
  const reset = () => {
    table = Array.from({ length: 258 }, (_, i) => (i < 256 ? [i] : []));
  };
  reset();
  let width = 9;
  let bits = 0;
  let acc = 0;
  let pos = 0;
  let prev: number[] | null = null;
  for (;;) {
    while (bits < width) {
      if (pos >= input.length) return null; // no end code
      acc |= input[pos++]! << bits;
      bits += 8;
    }
    const code = acc & ((1 << width) - 1);
    acc >>>= width;
    bits -= width;
    if (code === EOF) return Buffer.from(out);
    if (code === CLEAR) {
      reset();
      width = 9;
      prev = null;
      continue;
    }
    let entry: number[];
    if (code < table.length && (code < 256 || table[code]!.length)) entry = table[code]!;
    else if (code === table.length && prev) entry = [...prev, prev[0]!];
    else return null;
    out.push(...entry);
    if (out.length > maxOut) return null;
    if (prev && table.length < 4096) table.push([...prev, entry[0]!]);
    prev = entry;
    // The writer widens once the next code to assign no longer fits (Go's hi >= overflow, max 12 bits).
    if (table.length >= 1 << width && width < 12) width++;
  }
}

export interface Member {
  name: string;
  address: string;
  port: number;
}

export interface PushPullReply {
  /** The members the peer listed, and how many in all. */
  members: Member[];
  nodes: number;
  /** Bytes of delegate state that followed (Alertmanager: silences and the notification log). */
  userState: number;
  /** The part keys of that state when it is Alertmanager's (clusterpb.FullState: `nfl`, `sil`), else []. */
  stateKeys: string[];
  compressed: boolean;
}

const ipOf = (v: Value) =>
  Buffer.isBuffer(v) && (v.length === 4 || v.length === 16)
    ? v.length === 4
      ? [...v].join('.')
      : (v.toString('hex').match(/.{4}/g) ?? []).join(':')
    : '?';

/**
 * Alertmanager's delegate state is protobuf clusterpb.FullState: repeated
 * field 1 (Part), each starting with its field 1 (key). The keys name what
 * the cluster shares (`sil` silences, `nfl` the notification log); [] for
 * any other delegate's format (Serf's starts with a message type byte).
 */
function partKeys(state: Buffer): string[] {
  const keys: string[] = [];
  let i = 0;
  const varint = () => {
    let v = 0;
    for (let shift = 0; shift < 28 && i < state.length; shift += 7) {
      const b = state[i++]!;
      v |= (b & 0x7f) << shift;
      if (!(b & 0x80)) return v;
    }
    return -1;
  };
  while (i < state.length && keys.length < 8) {
    if (state[i++] !== 0x0a) break;
    const len = varint();
    const end = i + len;
    if (len < 2 || end > state.length || state[i++] !== 0x0a) break;
    const klen = varint();
    if (klen < 0 || i + klen > end) break;
    keys.push(state.subarray(i, i + klen).toString('latin1'));
    i = end;
  }
  return keys;
}

/** Reads a push-pull reply (compressed or not): its header and nodes; null unless it is one. */
export function parsePushPull(data: Buffer): PushPullReply | null {
  try {
    let body = data;
    let compressed = false;
    if (body[0] === COMPRESS) {
      const c = new MsgpackReader(body.subarray(1)).read() as { [k: string]: Value };
      if (c?.Algo !== 0 || !Buffer.isBuffer(c.Buf)) return null;
      const plain = lzwDecode(c.Buf);
      if (!plain) return null;
      body = plain;
      compressed = true;
    }
    if (body[0] !== PUSH_PULL) return null;
    const r = new MsgpackReader(body.subarray(1));
    const head = r.read() as { [k: string]: Value };
    if (typeof head?.Nodes !== 'number' || typeof head.UserStateLen !== 'number') return null;
    const members: Member[] = [];
    for (let i = 0; i < Math.min(head.Nodes, 64); i++) {
      const n = r.read() as { [k: string]: Value };
      const name = Buffer.isBuffer(n?.Name) ? n.Name.toString('utf8') : String(n?.Name ?? '');
      members.push({ name, address: ipOf(n?.Addr ?? null), port: Number(n?.Port ?? 0) });
    }
    const rest = body.subarray(1 + r.pos, 1 + r.pos + head.UserStateLen);
    const stateKeys = head.Nodes <= 64 ? partKeys(rest) : [];
    return { members, nodes: head.Nodes, userState: head.UserStateLen, stateKeys, compressed };
  } catch {
    return null;
  }
}

/** One push-pull of nothing on an open conversation; the peer's reply, or null. */
export async function pushPullOn(conv: Conv): Promise<PushPullReply | null> {
  // A reply is whole when it parses; the peer keeps the stream open a while after it (its read timeout).
  // 3 s: Alertmanager answers in milliseconds; a gossip port behind TLS neither answers nor closes (measured:
  // still open after 10 s), so this bound is what a hardened port costs.
  const raw = await conv.ask(pushPullRequest(), 3000, (b) => parsePushPull(b) !== null);
  return parsePushPull(Buffer.from(raw));
}

/** One push-pull of nothing on `port`; the peer's reply, or null (silence, a close, an encrypted peer). */
export const memberlistPushPull = (net: Net, port: number): Promise<PushPullReply | null> =>
  talk(net, port, pushPullOn);
