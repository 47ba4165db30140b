/**
 * A Node imitation of MongoDB's wire protocol (Debian has no MongoDB
 * since 2019): OP_QUERY and OP_MSG, answered like mongod with or without
 * authentication required.
 */
import { createServer, type Server } from 'node:net';

/** Minimal BSON: strings, numbers (int32 or double), booleans, nested documents and arrays. */
function bson(doc: Record<string, unknown>): Buffer {
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(doc)) {
    const key = Buffer.from(`${k}\0`);
    if (typeof v === 'string') {
      const s = Buffer.from(`${v}\0`);
      const len = Buffer.alloc(4);
      len.writeInt32LE(s.length);
      parts.push(Buffer.from([0x02]), key, len, s);
    } else if (typeof v === 'boolean') parts.push(Buffer.from([0x08]), key, Buffer.from([v ? 1 : 0]));
    else if (typeof v === 'number' && Number.isInteger(v) && Math.abs(v) < 2 ** 31) {
      const n = Buffer.alloc(4);
      n.writeInt32LE(v);
      parts.push(Buffer.from([0x10]), key, n);
    } else if (typeof v === 'number') {
      const n = Buffer.alloc(8);
      n.writeDoubleLE(v);
      parts.push(Buffer.from([0x01]), key, n);
    } else if (Array.isArray(v))
      parts.push(Buffer.from([0x04]), key, bson(Object.fromEntries(v.map((x, i) => [String(i), x]))));
    else if (v && typeof v === 'object') parts.push(Buffer.from([0x03]), key, bson(v as Record<string, unknown>));
  }
  const body = Buffer.concat(parts);
  const head = Buffer.alloc(4);
  head.writeInt32LE(body.length + 5);
  return Buffer.concat([head, body, Buffer.from([0])]);
}

/** The first key of a BSON document (the command name). */
const firstKey = (b: Buffer, off: number) => b.toString('latin1', off + 5, b.indexOf(0, off + 5));

function mongoReply(cmd: string, auth: boolean): Record<string, unknown> {
  const c = cmd.toLowerCase();
  if (c === 'ismaster' || c === 'hello')
    return {
      ismaster: true,
      helloOk: true,
      maxBsonObjectSize: 16777216,
      maxMessageSizeBytes: 48000000,
      maxWriteBatchSize: 100000,
      localTime: Date.now(),
      maxWireVersion: 21,
      minWireVersion: 0,
      readOnly: false,
      ok: 1,
    };
  if (c === 'buildinfo')
    return {
      version: '7.0.14',
      gitVersion: 'ce59cfc6a3c5e5c067dca0d30697edd68d4f5188',
      versionArray: [7, 0, 14, 0],
      bits: 64,
      maxBsonObjectSize: 16777216,
      ok: 1,
    };
  if (auth) return { ok: 0, errmsg: `command ${cmd} requires authentication`, code: 13, codeName: 'Unauthorized' };
  if (c === 'listdatabases')
    return {
      databases: [
        { name: 'admin', sizeOnDisk: 40960, empty: false },
        { name: 'customers', sizeOnDisk: 73728, empty: false },
      ],
      totalSize: 114688,
      totalSizeMb: 0,
      ok: 1,
    };
  return { ok: 1 };
}

/** MongoDB wire protocol: OP_QUERY (answered with OP_REPLY) and OP_MSG. */
export function mongoTarget(o: { auth: boolean }): Server {
  return createServer((s) => {
    s.setTimeout(15_000, () => s.destroy());
    let buf = Buffer.alloc(0);
    s.on('data', (d) => {
      buf = Buffer.concat([buf, d as Buffer]);
      while (buf.length >= 16 && buf.length >= buf.readInt32LE(0)) {
        const len = buf.readInt32LE(0);
        if (len < 16 || len > 1 << 20) return void s.destroy();
        const msg = buf.subarray(0, len);
        buf = buf.subarray(len);
        const reqId = msg.readInt32LE(4);
        const op = msg.readInt32LE(12);
        const head = (bodyLen: number, opCode: number) => {
          const h = Buffer.alloc(16);
          h.writeInt32LE(16 + bodyLen, 0);
          h.writeInt32LE(Math.floor(Math.random() * 1e9), 4);
          h.writeInt32LE(reqId, 8);
          h.writeInt32LE(opCode, 12);
          return h;
        };
        if (op === 2004) {
          const docAt = msg.indexOf(0, 20) + 1 + 8;
          const doc = bson(mongoReply(firstKey(msg, docAt), o.auth));
          const pre = Buffer.alloc(20);
          pre.writeInt32LE(1, 16);
          s.write(Buffer.concat([head(20 + doc.length, 1), pre, doc]));
        } else if (op === 2013) {
          const doc = bson(mongoReply(firstKey(msg, 21), o.auth));
          s.write(Buffer.concat([head(5 + doc.length, 2013), Buffer.alloc(5), doc]));
        } else return void s.destroy();
      }
    });
  });
}
