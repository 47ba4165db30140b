/**
 * Node imitations of client-first services: Redis (RESP), DNS (UDP and
 * TCP, dns-packet), SMTP (smtp-server), MongoDB (OP_QUERY / OP_MSG with a
 * minimal BSON encoder). Each has an open (planted) and a locked form.
 */
import { createSocket } from 'node:dgram';
import { createServer, type Server } from 'node:net';
import dnsPacket from 'dns-packet';
import { SMTPServer } from 'smtp-server';

/** Redis: open answers PING/INFO; locked answers -NOAUTH to everything but AUTH/QUIT. */
export function redisTarget(o: { auth: boolean }): Server {
  return createServer((s) => {
    s.setTimeout(15_000, () => s.destroy());
    let buf = Buffer.alloc(0);
    const reply = (argv: string[]) => {
      const cmd = (argv[0] ?? '').toUpperCase();
      if (cmd === 'QUIT') return void s.end('+OK\r\n');
      if (o.auth) return void s.write(cmd === 'AUTH' ? '-WRONGPASS invalid username-password pair or user is disabled.\r\n' : '-NOAUTH Authentication required.\r\n');
      if (cmd === 'PING') return void s.write('+PONG\r\n');
      if (cmd === 'INFO') {
        const info = '# Server\r\nredis_version:8.2.2\r\nredis_mode:standalone\r\nos:Linux 6.1.0 x86_64\r\narch_bits:64\r\ntcp_port:6379\r\nuptime_in_seconds:3600\r\n';
        return void s.write(`$${Buffer.byteLength(info)}\r\n${info}\r\n`);
      }
      if (cmd === 'CONFIG') return void s.write('*2\r\n$3\r\ndir\r\n$14\r\n/var/lib/redis\r\n');
      if (cmd === 'GET') return void s.write('$-1\r\n');
      s.write(`-ERR unknown command '${(argv[0] ?? '').slice(0, 40)}'\r\n`);
    };
    s.on('data', (d) => {
      buf = Buffer.concat([buf, d as Buffer]);
      if (buf.length > 65536) return void s.destroy();
      for (;;) {
        const parsed = parseResp(buf);
        if (!parsed) return;
        buf = buf.subarray(parsed.used);
        reply(parsed.argv);
      }
    });
  });
}

/** One command: a RESP array of bulk strings, or an inline line. */
function parseResp(b: Buffer): { argv: string[]; used: number } | null {
  const text = b.toString('latin1');
  if (text[0] !== '*') {
    const i = text.indexOf('\n');
    return i < 0 ? null : { argv: text.slice(0, i).trim().split(/\s+/), used: i + 1 };
  }
  const lines = text.split('\r\n');
  const n = Number(lines[0]!.slice(1));
  const argv: string[] = [];
  let used = lines[0]!.length + 2;
  for (let i = 0; i < n; i++) {
    const len = lines[1 + 2 * i];
    const val = lines[2 + 2 * i];
    if (len === undefined || val === undefined || 3 + 2 * i > lines.length) return null;
    argv.push(val);
    used += len.length + 2 + val.length + 2;
  }
  return used <= b.length ? { argv, used } : null;
}

const RA = 1 << 7;
const AA = 1 << 10;
const REFUSED = 5;

/** A name server for bench.test; with `recursion` it also "resolves" any other name (RA=1, synthetic answer, no lookup leaves the host). */
function dnsAnswer(query: Buffer, recursion: boolean): Buffer | null {
  let q;
  try {
    q = dnsPacket.decode(query);
  } catch {
    return null;
  }
  const question = q.questions?.[0];
  const rd = (q.flags ?? 0) & dnsPacket.RECURSION_DESIRED;
  const base = { type: 'response' as const, id: q.id, questions: q.questions ?? [] };
  const refused = () => dnsPacket.encode({ ...base, flags: rd | REFUSED });
  if (!question || question.class !== 'IN') return refused(); // version.bind and other CHAOS queries: refused (version hidden)
  const ours = /(^|\.)bench\.test$/i.test(question.name);
  if (!ours && !recursion) return refused();
  const answers = question.type === 'A' ? [{ type: 'A' as const, name: question.name, ttl: 300, data: ours ? '127.0.0.72' : '198.51.100.7' }] : [];
  return dnsPacket.encode({ ...base, flags: rd | (ours ? AA : 0) | (recursion ? RA : 0), answers });
}

export function dnsUdpTarget(o: { recursion: boolean }) {
  const socket = createSocket('udp4');
  socket.on('message', (msg, peer) => {
    const out = dnsAnswer(msg, o.recursion);
    if (out) socket.send(out, peer.port, peer.address);
  });
  return socket;
}

export function dnsTcpTarget(o: { recursion: boolean }): Server {
  return createServer((s) => {
    s.setTimeout(15_000, () => s.destroy());
    let buf = Buffer.alloc(0);
    s.on('data', (d) => {
      buf = Buffer.concat([buf, d as Buffer]);
      while (buf.length >= 2 && buf.length >= 2 + buf.readUInt16BE(0)) {
        const msg = buf.subarray(2, 2 + buf.readUInt16BE(0));
        buf = buf.subarray(2 + msg.length);
        const out = dnsAnswer(msg, o.recursion);
        if (!out) return void s.destroy();
        const len = Buffer.alloc(2);
        len.writeUInt16BE(out.length);
        s.write(Buffer.concat([len, out]));
      }
    });
  });
}

/** SMTP with STARTTLS (a good certificate); `relay` accepts mail for any domain without authentication. */
export function smtpTarget(o: { banner: string; relay: boolean; key: string; cert: string }): SMTPServer {
  const server = new SMTPServer({
    name: 'mail.bench.test',
    banner: o.banner,
    key: o.key,
    cert: o.cert,
    authOptional: true,
    disabledCommands: ['AUTH'],
    logger: false,
    size: 1 << 20,
    socketTimeout: 15_000,
    onRcptTo(address, _session, callback) {
      if (o.relay || /@bench\.test$/i.test(address.address)) return callback();
      const err = Object.assign(new Error('5.7.1 Relay access denied'), { responseCode: 554 });
      callback(err);
    },
    onData(stream, _session, callback) {
      stream.on('end', () => callback());
      stream.resume();
    },
  });
  // A scanner's bad STARTTLS handshake surfaces here; unhandled it would stop every target.
  server.on('error', () => {});
  return server;
}

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
    } else if (Array.isArray(v)) parts.push(Buffer.from([0x04]), key, bson(Object.fromEntries(v.map((x, i) => [String(i), x]))));
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
    return { ismaster: true, helloOk: true, maxBsonObjectSize: 16777216, maxMessageSizeBytes: 48000000, maxWriteBatchSize: 100000, localTime: Date.now(), maxWireVersion: 21, minWireVersion: 0, readOnly: false, ok: 1 };
  if (c === 'buildinfo') return { version: '7.0.14', gitVersion: 'ce59cfc6a3c5e5c067dca0d30697edd68d4f5188', versionArray: [7, 0, 14, 0], bits: 64, maxBsonObjectSize: 16777216, ok: 1 };
  if (auth) return { ok: 0, errmsg: `command ${cmd} requires authentication`, code: 13, codeName: 'Unauthorized' };
  if (c === 'listdatabases')
    return { databases: [{ name: 'admin', sizeOnDisk: 40960, empty: false }, { name: 'customers', sizeOnDisk: 73728, empty: false }], totalSize: 114688, totalSizeMb: 0, ok: 1 };
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
