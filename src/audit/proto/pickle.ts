/**
 * Python pickles, data only (https://github.com/python/cpython/blob/main/Lib/pickletools.py
 * documents every opcode): Graphite's carbon frames its pickle receiver and
 * its cache query protocol as pickles. We write only plain containers,
 * strings and numbers (no GLOBAL, REDUCE or BUILD: nothing a server could
 * run), and read replies with a decoder that refuses any opcode that would
 * import or call something.
 */

const str = (s: string) => {
  const b = Buffer.from(s, 'utf8');
  const len = Buffer.alloc(4);
  len.writeUInt32LE(b.length);
  return Buffer.concat([Buffer.from('X'), len, b]); // BINUNICODE
};
const int = (n: number) => {
  const b = Buffer.alloc(5);
  b[0] = 0x4a; // BININT, signed 32-bit little endian
  b.writeInt32LE(n, 1);
  return b;
};

/** PROTO 2, the body, STOP. */
const pickle = (...parts: Buffer[]) => Buffer.concat([Buffer.from([0x80, 2]), ...parts, Buffer.from('.')]);

/** A dict of strings: EMPTY_DICT MARK k v … SETITEMS. */
export const pickleDict = (d: Record<string, string>) =>
  pickle(Buffer.from('}('), ...Object.entries(d).flatMap(([k, v]) => [str(k), str(v)]), Buffer.from('u'));

/** Carbon's pickle receiver format: a list of (metric, (timestamp, value)) (EMPTY_LIST MARK … APPENDS). */
export const pickleDatapoints = (points: readonly [string, number, number][]) =>
  pickle(
    Buffer.from(']'),
    ...(points.length
      ? [
          Buffer.from('('),
          ...points.flatMap(([m, t, v]) => [str(m), int(t), int(v), Buffer.from([0x86, 0x86])]),
          Buffer.from('e'),
        ]
      : []),
  );

/** A 4-byte big-endian length, then the payload: Twisted's Int32StringReceiver framing, which carbon uses. */
export const int32Frame = (payload: Buffer) => {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(payload.length);
  return Buffer.concat([len, payload]);
};

/** A whole frame read (length prefix and as many bytes). */
export const int32Done = (b: Buffer) => b.length >= 4 && b.length >= 4 + b.readUInt32BE(0);

export type PickleValue = null | boolean | number | bigint | string | Buffer | PickleValue[] | PickleDict;
export interface PickleDict {
  [key: string]: PickleValue;
}

const MARK = Symbol('mark');
type Item = PickleValue | typeof MARK;

/**
 * Decodes the data opcodes of protocols 0-5 that a server sends for dicts,
 * lists, tuples, strings and numbers; null on anything else (GLOBAL,
 * REDUCE, …) or a malformed stream. Tuples come back as arrays.
 */
export function unpickle(b: Buffer): PickleValue | null {
  const stack: Item[] = [];
  const memo: PickleValue[] = [];
  let i = 0;
  const need = (n: number) => {
    if (i + n > b.length) throw new Error('short');
  };
  const popMark = (): PickleValue[] => {
    const at = stack.lastIndexOf(MARK);
    if (at < 0) throw new Error('no mark');
    const items = stack.splice(at) as PickleValue[];
    items.shift();
    return items;
  };
  const top = (): PickleValue => {
    const v = stack[stack.length - 1];
    if (v === undefined || v === MARK) throw new Error('empty');
    return v;
  };
  const setItems = (d: PickleValue, kv: PickleValue[]) => {
    if (!d || typeof d !== 'object' || Array.isArray(d) || Buffer.isBuffer(d)) throw new Error('not a dict');
    for (let k = 0; k + 1 < kv.length; k += 2) (d as PickleDict)[String(kv[k])] = kv[k + 1]!;
  };
  const text = (n: number) => {
    need(n);
    return b.subarray(i, (i += n)).toString('utf8');
  };
  try {
    while (i < b.length) {
      const op = b[i++]!;
      switch (op) {
        case 0x80: // PROTO
          i += 1;
          break;
        case 0x95: // FRAME
          i += 8;
          break;
        case 0x2e: // STOP
          return top();
        case 0x7d: // EMPTY_DICT
          stack.push({});
          break;
        case 0x5d: // EMPTY_LIST
        case 0x29: // EMPTY_TUPLE
          stack.push([]);
          break;
        case 0x28: // MARK
          stack.push(MARK);
          break;
        case 0x4e: // NONE
          stack.push(null);
          break;
        case 0x88: // NEWTRUE
        case 0x89: // NEWFALSE
          stack.push(op === 0x88);
          break;
        case 0x4b: // BININT1
          need(1);
          stack.push(b[i++]!);
          break;
        case 0x4d: // BININT2
          need(2);
          stack.push(b.readUInt16LE(i));
          i += 2;
          break;
        case 0x4a: // BININT
          need(4);
          stack.push(b.readInt32LE(i));
          i += 4;
          break;
        case 0x47: // BINFLOAT
          need(8);
          stack.push(b.readDoubleBE(i));
          i += 8;
          break;
        case 0x8a: {
          // LONG1: little-endian two's complement
          need(1);
          const n = b[i++]!;
          need(n);
          let v = 0n;
          for (let k = n - 1; k >= 0; k--) v = (v << 8n) | BigInt(b[i + k]!);
          if (n && b[i + n - 1]! & 0x80) v -= 1n << BigInt(8 * n);
          i += n;
          stack.push(v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v);
          break;
        }
        case 0x8c: // SHORT_BINUNICODE
          need(1);
          stack.push(text(b[i++]!));
          break;
        case 0x58: // BINUNICODE
          need(4);
          i += 4;
          stack.push(text(b.readUInt32LE(i - 4)));
          break;
        case 0x43: // SHORT_BINBYTES
          need(1);
          i += 1;
          need(b[i - 1]!);
          stack.push(Buffer.from(b.subarray(i, (i += b[i - 1]!))));
          break;
        case 0x55: // SHORT_BINSTRING (protocol 2 str of Python 2)
          need(1);
          stack.push(text(b[i++]!));
          break;
        case 0x85: // TUPLE1
        case 0x86: // TUPLE2
        case 0x87: {
          // TUPLE3
          const n = op - 0x84;
          if (stack.length < n) throw new Error('short stack');
          stack.push(stack.splice(-n) as PickleValue[]);
          break;
        }
        case 0x74: // TUPLE
        case 0x6c: // LIST
          stack.push(popMark());
          break;
        case 0x64: {
          // DICT
          const d: PickleDict = {};
          setItems(d, popMark());
          stack.push(d);
          break;
        }
        case 0x61: {
          // APPEND
          const v = stack.pop() as PickleValue;
          const l = top();
          if (!Array.isArray(l)) throw new Error('not a list');
          l.push(v);
          break;
        }
        case 0x65: {
          // APPENDS
          const items = popMark();
          const l = top();
          if (!Array.isArray(l)) throw new Error('not a list');
          l.push(...items);
          break;
        }
        case 0x73: {
          // SETITEM
          const v = stack.pop() as PickleValue;
          const k = stack.pop() as PickleValue;
          setItems(top(), [k, v]);
          break;
        }
        case 0x75: // SETITEMS
          setItems(stack[stack.lastIndexOf(MARK) - 1] as PickleValue, popMark());
          break;
        case 0x94: // MEMOIZE
          memo.push(top());
          break;
        case 0x71: // BINPUT
          need(1);
          memo[b[i++]!] = top();
          break;
        case 0x72: // LONG_BINPUT
          need(4);
          memo[b.readUInt32LE(i)] = top();
          i += 4;
          break;
        case 0x68: // BINGET
          need(1);
          stack.push(memo[b[i++]!] ?? null);
          break;
        case 0x6a: // LONG_BINGET
          need(4);
          stack.push(memo[b.readUInt32LE(i)] ?? null);
          i += 4;
          break;
        default:
          return null; // GLOBAL, REDUCE, BUILD, … or not a pickle: never interpreted
      }
    }
  } catch {
    return null;
  }
  return null;
}
