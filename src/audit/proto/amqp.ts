/**
 * AMQP 0-9-1 (the protocol of RabbitMQ, LavinMQ, Qpid's 0-x brokers and
 * others; spec amqp0-9-1.pdf §4.2 framing, §1.4.2 the Connection class):
 * the protocol header, the server's Connection.Start (its properties and
 * SASL mechanisms), and a login through Start-Ok → Tune → Tune-Ok → Open →
 * Open-Ok on the default virtual host "/". Nothing is declared, published
 * or consumed; the client closes with Connection.Close (reply 200).
 */
import type { Net } from '../engine/types.ts';
import type { Conv } from './conv.ts';
import { talk } from './talk.ts';

/** "AMQP" 0 0-9-1 (§4.2.2). */
export const AMQP_HEADER = Buffer.from([0x41, 0x4d, 0x51, 0x50, 0, 0, 9, 1]);
const FRAME_METHOD = 1;
const FRAME_END = 0xce;

export interface AmqpStart {
  /** Protocol version the server speaks, "0-9". */
  version: string;
  /** Server properties that are strings (product, version, platform, cluster_name …). */
  properties: Record<string, string>;
  /** SASL mechanisms offered (PLAIN, AMQPLAIN, ANONYMOUS, EXTERNAL …). */
  mechanisms: string[];
}

interface Method {
  classId: number;
  methodId: number;
  args: Buffer;
}

/** One method frame off the front of `b` (type 1, channel, size, payload, 0xCE), or null while incomplete. */
function methodFrame(b: Buffer): Method | null {
  if (b.length < 7 || b[0] !== FRAME_METHOD) return null;
  const size = b.readUInt32BE(3);
  if (size < 4 || b.length < 8 + size || b[7 + size] !== FRAME_END) return null;
  return { classId: b.readUInt16BE(7), methodId: b.readUInt16BE(9), args: b.subarray(11, 7 + size) };
}

/** A whole frame has arrived (or what came is not AMQP framing at all). */
const frameDone = (b: Buffer) =>
  b.length >= 7 && (b[0] !== FRAME_METHOD || b.length >= 8 + b.readUInt32BE(3) || b.length >= 65536);

/** Top-level string fields of a field table (§4.2.5.5); other types are skipped by their size. */
function stringFields(table: Buffer): Record<string, string> {
  const out: Record<string, string> = {};
  const fixed: Record<string, number> = {
    t: 1,
    b: 1,
    B: 1,
    s: 2,
    u: 2,
    I: 4,
    i: 4,
    l: 8,
    L: 8,
    f: 4,
    d: 8,
    D: 5,
    T: 8,
    V: 0,
  };
  let at = 0;
  while (at < table.length) {
    const nameLen = table[at]!;
    const name = table.toString('utf8', at + 1, at + 1 + nameLen);
    const type = String.fromCharCode(table[at + 1 + nameLen]!);
    at += 2 + nameLen;
    if (type in fixed) at += fixed[type]!;
    else if (type === 'S' || type === 'x' || type === 'A' || type === 'F') {
      const len = table.readUInt32BE(at);
      if (type === 'S') out[name] = table.toString('utf8', at + 4, at + 4 + len);
      at += 4 + len;
    } else break; // a type this reader does not know: the rest cannot be walked
  }
  return out;
}

/** Connection.Start (class 10, method 10): version, server-properties table, mechanisms, locales. */
export function parseStart(b: Buffer): AmqpStart | null {
  const m = methodFrame(b);
  if (!m || m.classId !== 10 || m.methodId !== 10) return null;
  const a = m.args;
  const tableLen = a.readUInt32BE(2);
  const properties = stringFields(a.subarray(6, 6 + tableLen));
  const mechLen = a.readUInt32BE(6 + tableLen);
  const mechanisms = a
    .toString('latin1', 10 + tableLen, 10 + tableLen + mechLen)
    .split(' ')
    .filter(Boolean);
  return { version: `${a[0]}-${a[1]}`, properties, mechanisms };
}

const u16 = (n: number) => Buffer.from([n >> 8, n & 255]);
const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
};
const shortstr = (s: string) => Buffer.concat([Buffer.from([Buffer.byteLength(s)]), Buffer.from(s)]);
const longstr = (s: string | Buffer) => {
  const b = Buffer.from(s);
  return Buffer.concat([u32(b.length), b]);
};

function frame(classId: number, methodId: number, args: Buffer): Buffer {
  const payload = Buffer.concat([u16(classId), u16(methodId), args]);
  return Buffer.concat([Buffer.from([FRAME_METHOD, 0, 0]), u32(payload.length), payload, Buffer.from([FRAME_END])]);
}

/** Client properties: product only, so that the broker's connection list names the scanner. */
const CLIENT_PROPERTIES = (() => {
  const entry = Buffer.concat([shortstr('product'), Buffer.from('S'), longstr('vigil')]);
  return Buffer.concat([u32(entry.length), entry]);
})();

export type AmqpLogin =
  /** Open-Ok came back: the login was accepted and the virtual host opened. */
  | { ok: true; tune: { channelMax: number; frameMax: number; heartbeat: number } }
  /** Refused: Connection.Close (reply code and text, §1.4.2.9) or the connection closed. */
  | { ok: false; reply: string };

/** The protocol header and Connection.Start, or null (not AMQP 0-9-1). */
export const amqpStart = (net: Net, port: number): Promise<AmqpStart | null> =>
  talk(net, port, async (c) => parseStart(await c.ask(AMQP_HEADER, 3000, frameDone)));

/**
 * Start, then one login with `mechanism` (PLAIN: "\0user\0password", RFC
 * 4616; ANONYMOUS: an empty response, RFC 4505). Null when the port is not
 * AMQP 0-9-1 or the mechanism is not offered.
 */
export function amqpLogin(
  net: Net,
  port: number,
  mechanism: 'PLAIN' | 'ANONYMOUS',
  user = '',
  password = '',
): Promise<{ start: AmqpStart; login: AmqpLogin } | null> {
  return talk(net, port, async (c) => {
    const start = parseStart(await c.ask(AMQP_HEADER, 3000, frameDone));
    if (!start || !start.mechanisms.includes(mechanism)) return null;
    const response = mechanism === 'PLAIN' ? `\0${user}\0${password}` : '';
    const startOk = Buffer.concat([CLIENT_PROPERTIES, shortstr(mechanism), longstr(response), shortstr('en_US')]);
    const tune = methodFrame(await c.ask(frame(10, 11, startOk), 3000, frameDone));
    if (!tune || tune.classId !== 10 || tune.methodId !== 30) return { start, login: refusal(tune, c) };
    const channelMax = tune.args.readUInt16BE(0);
    const frameMax = tune.args.readUInt32BE(2);
    const heartbeat = tune.args.readUInt16BE(6);
    c.send(frame(10, 31, Buffer.concat([u16(channelMax), u32(frameMax), u16(heartbeat)])));
    const open = methodFrame(
      await c.ask(frame(10, 40, Buffer.concat([shortstr('/'), shortstr(''), Buffer.from([0])])), 3000, frameDone),
    );
    if (!open || open.classId !== 10 || open.methodId !== 41) return { start, login: refusal(open, c) };
    // Connection.Close, reply-success 200, then a short wait for Close-Ok (§1.4.2.9).
    await c.ask(frame(10, 50, Buffer.concat([u16(200), shortstr('vigil done'), u16(0), u16(0)])), 1000, frameDone);
    return { start, login: { ok: true, tune: { channelMax, frameMax, heartbeat } } };
  });
}

/** What a refusal said: Connection.Close's reply code and text, or that the connection closed. */
function refusal(m: Method | null, c: Conv): AmqpLogin {
  if (m && m.classId === 10 && m.methodId === 50) {
    const code = m.args.readUInt16BE(0);
    const text = m.args.toString('utf8', 3, 3 + m.args[2]!);
    return { ok: false, reply: `Connection.Close ${code} ${text}` };
  }
  return { ok: false, reply: c.closed ? 'connection closed' : 'no answer' };
}
