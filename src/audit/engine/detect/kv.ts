/** Key-value and document stores: Redis (PING, INFO), Memcached (version), MongoDB (isMaster). */
import type { Family } from './family.ts';

const crlf = (b: Buffer) => b.includes('\r\n');

export const redis: Family = {
  id: 'redis',
  ports: [6379, 6380],
  async probe(conv, s) {
    const r = (await conv.ask('PING\r\n', 1500, crlf)).toString('latin1');
    if (/^ERROR\r\n/.test(r)) return memcachedVersion(conv, s);
    if (!/^\+PONG\r\n|^-NOAUTH|^-(ERR|DENIED).*(auth|protected mode)/i.test(r)) return false;
    Object.assign(s, { name: 'redis', product: 'Redis' });
    if (!r.startsWith('+PONG')) {
      s.extra.auth = 'required';
      return true;
    }
    s.extra.auth = 'none';
    // Bulk reply: "$<len>\r\n<text>\r\n".
    const info = (
      await conv.ask('INFO server\r\n', 1500, (b) => {
        const m = /^\$(\d+)\r\n/.exec(b.toString('latin1'));
        return b.length > 0 && (!m || b.length >= m[0].length + Number(m[1]));
      })
    ).toString('latin1');
    const v = /redis_version:([\w.]+)/.exec(info);
    if (v) s.version = v[1]!;
    const mode = /redis_mode:(\w+)/.exec(info);
    if (mode) s.extra.mode = mode[1]!;
    return true;
  },
};

async function memcachedVersion(
  conv: import('../../proto/conv.ts').Conv,
  s: import('../types.ts').Service,
): Promise<boolean> {
  const r = (await conv.ask('version\r\n', 1500, crlf)).toString('latin1');
  const m = /^VERSION (\S+)/.exec(r);
  if (!m) return false;
  Object.assign(s, { name: 'memcached', product: 'Memcached', version: m[1]! });
  return true;
}

export const memcached: Family = {
  id: 'memcached',
  ports: [11211],
  probe: (conv, s) => memcachedVersion(conv, s),
};

/** OP_QUERY admin.$cmd {isMaster: 1}: still answered by MongoDB 6+ for handshakes. */
function isMasterQuery(): Buffer {
  const doc = Buffer.concat([
    Buffer.from([0x13, 0, 0, 0, 0x10]),
    Buffer.from('isMaster\0'),
    Buffer.from([1, 0, 0, 0, 0]),
  ]);
  const coll = Buffer.from('admin.$cmd\0');
  const body = Buffer.concat([Buffer.alloc(4), coll, Buffer.from([0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff]), doc]);
  const head = Buffer.alloc(16);
  head.writeInt32LE(16 + body.length, 0);
  head.writeInt32LE(0x5667, 4);
  head.writeInt32LE(2004, 12);
  return Buffer.concat([head, body]);
}

export const mongodb: Family = {
  id: 'mongodb',
  ports: [27017, 27018],
  async probe(conv, s) {
    const r = await conv.ask(isMasterQuery(), 1500, (b) => b.length >= 4 && b.length >= b.readInt32LE(0));
    if (r.length < 36) return false;
    const op = r.readInt32LE(12);
    if ((op !== 1 && op !== 2013) || !/ismaster|maxWireVersion|isWritablePrimary/i.test(r.toString('latin1')))
      return false;
    Object.assign(s, { name: 'mongodb', product: 'MongoDB' });
    const i = r.indexOf('maxWireVersion\0');
    if (i > 0 && r[i - 1] === 0x10 && i + 19 <= r.length) s.extra.maxWireVersion = String(r.readInt32LE(i + 15));
    return true;
  },
};
