/**
 * Apache ZooKeeper's client port (2181): the four-letter-word admin
 * commands (https://zookeeper.apache.org/doc/r3.8.0/zookeeperAdmin.html#sc_4lw:
 * four ASCII bytes instead of a length, answered in text, then the server
 * closes), and the client protocol (jute records, each framed by a 4-byte
 * length: ConnectRequest/Response, then RequestHeader {xid, type} and
 * ReplyHeader {xid, zxid, err}; zookeeper.jute in the ZooKeeper source).
 * Also spoken by servers that reimplement it (ClickHouse Keeper, etc.).
 */
import type { Net } from '../engine/types.ts';
import type { Conv } from './conv.ts';
import { talk } from './talk.ts';

/** One four-letter word on its own connection: the text answered (the server closes after it). */
export function fourLetter(net: Net, port: number, word: string): Promise<string | null> {
  return talk(net, port, async (c) => {
    const r = await c.ask(word, 3000, () => false); // read until the server closes (or the cap)
    return r.length ? r.toString('utf8') : null;
  });
}

/** The refusal 3.5+ sends for a word outside 4lw.commands.whitelist (and 3.4's for a disabled one). */
export const NOT_ALLOWED = /is not executed because it is not in the whitelist|not in the whitelist/;

const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeInt32BE(n);
  return b;
};
const ustring = (s: string) => Buffer.concat([u32(Buffer.byteLength(s)), Buffer.from(s, 'utf8')]);
const framed = (b: Buffer) => Buffer.concat([u32(b.length), b]);

/** ConnectRequest: protocolVersion 0, lastZxidSeen 0, timeOut, sessionId 0, passwd (16 zero bytes), readOnly. */
export function connectRequest(timeoutMs = 10_000): Buffer {
  const b = Buffer.alloc(4 + 8 + 4 + 8 + 4 + 16 + 1);
  b.writeInt32BE(timeoutMs, 12);
  b.writeInt32BE(16, 24);
  return framed(b);
}

/** The first whole frame of `b` (after its length), or null while it is incomplete. */
function frame(b: Buffer, at = 0): Buffer | null {
  if (b.length < at + 4) return null;
  const n = b.readInt32BE(at);
  if (n < 0 || n > 1 << 20) throw new Error('not a jute frame');
  return b.length >= at + 4 + n ? b.subarray(at + 4, at + 4 + n) : null;
}

export interface ZkSession {
  /** Negotiated session timeout and id (hex), from ConnectResponse. */
  timeoutMs: number;
  sessionId: string;
}

export interface ZkReply {
  /** ReplyHeader.err: 0 ok, -101 NONODE, -102 NOAUTH, -110 NODEEXISTS, -124 SESSIONCLOSEDREQUIRESASLAUTH … */
  err: number;
  body: Buffer;
}

/** Error codes (KeeperException.Code) named in reports. */
export const ERRORS: Record<number, string> = {
  [-101]: 'NONODE',
  [-102]: 'NOAUTH',
  [-110]: 'NODEEXISTS',
  [-111]: 'NOTEMPTY',
  [-112]: 'SESSIONEXPIRED',
  [-115]: 'AUTHFAILED',
  [-124]: 'SESSIONCLOSEDREQUIRESASLAUTH',
};

/** A session: connect, then `steps` with a request function; always closed (closeSession, type -11). */
export function zkSession<T>(
  net: Net,
  port: number,
  steps: (s: ZkSession, request: (type: number, body: Buffer) => Promise<ZkReply | null>) => Promise<T | null>,
): Promise<T | null> {
  return talk(
    net,
    port,
    async (c: Conv) => {
      const res = frame(await c.ask(connectRequest(), 3000, (b) => frame(b) !== null));
      if (!res || res.length < 16) return null;
      const session: ZkSession = { timeoutMs: res.readInt32BE(4), sessionId: res.subarray(8, 16).toString('hex') };
      // A server refusing the session answers timeOut 0 (ConnectResponse of a rejected connection).
      if (session.timeoutMs <= 0) return null;
      let xid = 0;
      const request = async (type: number, body: Buffer): Promise<ZkReply | null> => {
        const id = ++xid;
        const r = frame(await c.ask(framed(Buffer.concat([u32(id), u32(type), body])), 3000, (b) => frame(b) !== null));
        if (!r || r.length < 16 || r.readInt32BE(0) !== id) return null;
        return { err: r.readInt32BE(12), body: r.subarray(16) };
      };
      try {
        return await steps(session, request);
      } finally {
        c.send(framed(Buffer.concat([u32(++xid), u32(-11)])));
      }
    },
    5000,
  );
}

/** GetChildrenRequest (type 8): path, watch false. */
export const getChildren = (path: string) => [8, Buffer.concat([ustring(path), Buffer.from([0])])] as const;

/** GetChildrenResponse: vector<ustring>. */
export function parseChildren(body: Buffer): string[] | null {
  if (body.length < 4) return null;
  const n = body.readInt32BE(0);
  if (n < 0 || n > 100_000) return null;
  const out: string[] = [];
  let i = 4;
  for (let k = 0; k < n; k++) {
    if (i + 4 > body.length) return null;
    const len = body.readInt32BE(i);
    if (len < 0 || i + 4 + len > body.length) return null;
    out.push(body.subarray(i + 4, i + 4 + len).toString('utf8'));
    i += 4 + len;
  }
  return out;
}

/**
 * CreateRequest (type 1): path, data, the ACL world:anyone with every
 * permission (OPEN_ACL_UNSAFE, what an unauthenticated client can set),
 * flags 1 (EPHEMERAL: the node goes with the session even if the delete
 * is lost).
 */
export const create = (path: string, data: string) =>
  [
    1,
    Buffer.concat([ustring(path), ustring(data), u32(1), u32(31), ustring('world'), ustring('anyone'), u32(1)]),
  ] as const;

/** DeleteRequest (type 2): path, version -1 (any). */
export const remove = (path: string) => [2, Buffer.concat([ustring(path), u32(-1)])] as const;

export const errName = (err: number) => ERRORS[err] ?? String(err);
