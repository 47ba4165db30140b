/**
 * AMQP 1.0 (OASIS AMQP 1.0, part 5.3 SASL, part 2.4-2.7 connection open):
 * the brokers of that protocol (ActiveMQ Artemis and Classic's AMQP
 * connector, Qpid, RabbitMQ's amqp1_0 plugin, Azure Service Bus …). The SASL
 * header, sasl-mechanisms, and when ANONYMOUS is offered, sasl-init
 * ANONYMOUS, sasl-outcome, then the AMQP header and an `open` performative
 * answered by the broker's own `open`. Nothing is attached, sent or
 * received; the client closes with `close`.
 */
import type { Net } from '../engine/types.ts';
import { talk } from './talk.ts';

export const AMQP10_SASL_HEADER = Buffer.from([0x41, 0x4d, 0x51, 0x50, 3, 1, 0, 0]);
const AMQP10_HEADER = Buffer.from([0x41, 0x4d, 0x51, 0x50, 0, 1, 0, 0]);
/** Performative descriptors (smallulong codes, §2.7 and §5.3.3). */
const OPEN = 0x10;
const CLOSE = 0x18;
const SASL_MECHANISMS = 0x40;
const SASL_INIT = 0x41;
const SASL_OUTCOME = 0x44;

/** A frame of `type` (0 AMQP, 1 SASL): size, doff 2, type, channel 0, then a described list. */
function frame(type: number, descriptor: number, fields: Buffer[]): Buffer {
  const items = Buffer.concat(fields);
  const list = Buffer.concat([Buffer.from([0xc0, items.length + 1, fields.length]), items]);
  const body = Buffer.concat([Buffer.from([0x00, 0x53, descriptor]), list]);
  const head = Buffer.alloc(8);
  head.writeUInt32BE(8 + body.length);
  head[4] = 2;
  head[5] = type;
  return Buffer.concat([head, body]);
}
const sym = (s: string) => Buffer.concat([Buffer.from([0xa3, s.length]), Buffer.from(s, 'latin1')]);
const str = (s: string) => Buffer.concat([Buffer.from([0xa1, s.length]), Buffer.from(s, 'utf8')]);

interface Frame {
  descriptor: number;
  body: Buffer;
}

/** The frames in `b` from `at` (8: after a protocol header), while whole. */
function frames(b: Buffer, at = 8): Frame[] {
  const out: Frame[] = [];
  while (b.length >= at + 8) {
    const size = b.readUInt32BE(at);
    if (size < 8 || b.length < at + size) break;
    const body = b.subarray(at + b[at + 4]! * 4, at + size);
    // A described performative starts 0x00, then smallulong 0x53 code (or ulong 0x80 with eight bytes).
    const descriptor = body[0] === 0 && body[1] === 0x53 ? body[2]! : body[0] === 0 && body[1] === 0x80 ? body[9]! : -1;
    out.push({ descriptor, body });
    at += size;
  }
  return out;
}

/** Every symbol in a body (sym8, sym32, and the elements of symbol arrays): the mechanisms offered. */
function symbols(b: Buffer): string[] {
  const out: string[] = [];
  // One symbol at `at` without its constructor: len8 (0xa3) or len32 (0xb3); returns where the next one starts.
  const one = (wide: boolean, at: number) => {
    const len = wide ? b.readUInt32BE(at) : b[at]!;
    const from = at + (wide ? 4 : 1);
    out.push(b.toString('latin1', from, from + len));
    return from + len;
  };
  let i = 0;
  while (i < b.length) {
    const c = b[i]!;
    if (c === 0xa3 || c === 0xb3) i = one(c === 0xb3, i + 1);
    else if (c === 0xe0 || c === 0xf0) {
      // array8: size8, count8, element constructor, elements (array32: size32, count32).
      const wide = c === 0xf0;
      const count = wide ? b.readUInt32BE(i + 5) : b[i + 2]!;
      const ctor = b[i + (wide ? 9 : 3)];
      if (ctor !== 0xa3 && ctor !== 0xb3) return out;
      let at = i + (wide ? 10 : 4);
      for (let n = 0; n < count && at < b.length; n++) at = one(ctor === 0xb3, at);
      i = at;
    } else i++;
  }
  return out;
}

const has =
  (descriptor: number, at = 8) =>
  (b: Buffer) =>
    frames(b, at).some((f) => f.descriptor === descriptor);

/** Where a described list's first field starts: list8 (0xc0 size count) or list32 (0xd0, four-byte size and count). */
const firstField = (body: Buffer) => (body[3] === 0xd0 ? 12 : 6);

export interface Amqp10Anonymous {
  mechanisms: string[];
  /** The broker's `open` came back (its container-id when it gave one); null: SASL or open refused. */
  opened: { containerId: string } | null;
  /** What refused: the sasl-outcome code, or a `close`. */
  refusal?: string;
}

/** Null when the port does not speak AMQP 1.0 SASL. */
export function amqp10Anonymous(net: Net, port: number): Promise<Amqp10Anonymous | null> {
  return talk(net, port, async (c) => {
    const r = await c.ask(AMQP10_SASL_HEADER, 3000, has(SASL_MECHANISMS));
    if (!r.subarray(0, 8).equals(AMQP10_SASL_HEADER)) return null;
    const offered = frames(r).find((f) => f.descriptor === SASL_MECHANISMS);
    if (!offered) return null;
    const mechanisms = symbols(offered.body.subarray(3));
    if (!mechanisms.includes('ANONYMOUS')) return { mechanisms, opened: null };
    const init = await c.ask(frame(1, SASL_INIT, [sym('ANONYMOUS')]), 3000, has(SASL_OUTCOME, 0));
    const outcome = frames(init, 0).find((f) => f.descriptor === SASL_OUTCOME);
    // sasl-outcome's first field, the code: ubyte 0x50 (0 ok, 1 auth, 2 sys, 3 sys-perm, 4 sys-temp).
    const at = outcome ? firstField(outcome.body) : 0;
    const code = outcome && outcome.body[at] === 0x50 ? outcome.body[at + 1]! : -1;
    if (code !== 0) return { mechanisms, opened: null, refusal: `sasl-outcome code ${code}` };
    const open = await c.ask(
      Buffer.concat([AMQP10_HEADER, frame(0, OPEN, [str(`vigil-${process.pid}`)])]),
      3000,
      (b) => b.length >= 8 && (has(OPEN)(b) || has(CLOSE)(b)),
    );
    const performative = frames(open).find((f) => f.descriptor === OPEN || f.descriptor === CLOSE);
    if (!open.subarray(0, 8).equals(AMQP10_HEADER) || performative?.descriptor !== OPEN)
      return { mechanisms, opened: null, refusal: performative ? 'close' : 'no open' };
    c.send(frame(0, CLOSE, []));
    // open's first field, container-id: str8 (0xa1 len) in practice.
    const b = performative.body;
    const f = firstField(b);
    const containerId = b[f] === 0xa1 ? b.toString('utf8', f + 2, f + 2 + b[f + 1]!) : '';
    return { mechanisms, opened: { containerId } };
  });
}
