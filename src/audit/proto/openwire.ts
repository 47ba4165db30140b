/**
 * OpenWire, ActiveMQ Classic's native protocol (port 61616; also spoken by
 * brokers embedding its transport): the broker's WireFormatInfo greeting,
 * ours (loose encoding, no cache, so that commands are plain fields), and
 * one ConnectionInfo with no user name and no password, answered Response
 * (accepted) or ExceptionResponse (refused, e.g. "User name [null] or
 * password is invalid"). Field lists follow activemq-client's
 * openwire v12 marshallers (ConnectionInfoMarshaller.looseMarshal). Nothing
 * is produced or consumed; the client sends ShutdownInfo and closes.
 */
import type { Net } from '../engine/types.ts';
import { talk } from './talk.ts';

const MAGIC = Buffer.from('ActiveMQ', 'latin1');
const WIREFORMAT_INFO = 1;
const CONNECTION_INFO = 3;
const SHUTDOWN_INFO = 11;
const RESPONSE = 30;
const EXCEPTION_RESPONSE = 31;
const CONNECTION_ID = 120;

export interface OpenWireGreeting {
  version: number;
  /** String properties of the broker's WireFormatInfo (ProviderName, ProviderVersion, PlatformDetails). */
  properties: Record<string, string>;
}

/** The broker's WireFormatInfo (size-prefixed, type 1, "ActiveMQ", version, marshalled properties), or null. */
export function parseGreeting(b: Buffer): OpenWireGreeting | null {
  if (b.length < 17 || b[4] !== WIREFORMAT_INFO || !b.subarray(5, 13).equals(MAGIC)) return null;
  const version = b.readInt32BE(13);
  const properties: Record<string, string> = {};
  if (b[17] === 1 && b.length >= 26) {
    const count = b.readInt32BE(22);
    let at = 26;
    // Primitive map: UTF key, type byte, value; strings (type 9) kept, other types skipped by size.
    const sizes: Record<number, number> = { 1: 1, 2: 1, 3: 2, 4: 2, 5: 4, 6: 8, 7: 4, 8: 8 };
    for (let i = 0; i < count && at + 3 <= b.length; i++) {
      const keyLen = b.readUInt16BE(at);
      const key = b.toString('utf8', at + 2, at + 2 + keyLen);
      const type = b[at + 2 + keyLen]!;
      at += 3 + keyLen;
      if (type === 9) {
        const len = b.readUInt16BE(at);
        properties[key] = b.toString('utf8', at + 2, at + 2 + len);
        at += 2 + len;
      } else if (type in sizes) at += sizes[type]!;
      else break;
    }
  }
  return { version, properties };
}

const utf = (s: string) => {
  const b = Buffer.from(s, 'utf8');
  return Buffer.concat([Buffer.from([b.length >> 8, b.length & 255]), b]);
};
const int = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeInt32BE(n);
  return b;
};
const bool = (v: boolean) => Buffer.from([v ? 1 : 0]);
/** A loosely marshalled string: present flag, then modified UTF-8. */
const str = (s: string | null) => (s === null ? bool(false) : Buffer.concat([bool(true), utf(s)]));
const sized = (type: number, body: Buffer) => Buffer.concat([int(body.length + 1), Buffer.from([type]), body]);

/** Our WireFormatInfo: version 12, loose encoding, no cache, size prefix on. */
function wireFormatInfo(): Buffer {
  const props: [string, boolean][] = [
    ['TightEncodingEnabled', false],
    ['CacheEnabled', false],
    ['SizePrefixDisabled', false],
    ['StackTraceEnabled', false],
    ['TcpNoDelayEnabled', true],
  ];
  const map = Buffer.concat([
    int(props.length),
    ...props.map(([k, v]) => Buffer.concat([utf(k), Buffer.from([1]), bool(v)])),
  ]);
  return sized(WIREFORMAT_INFO, Buffer.concat([MAGIC, int(12), bool(true), int(map.length), map]));
}

/** ConnectionInfo, commandId 1, response required, no user name, no password. */
function connectionInfo(connectionId: string): Buffer {
  return sized(
    CONNECTION_INFO,
    Buffer.concat([
      int(1), // commandId
      bool(true), // responseRequired
      bool(true), // connectionId present (nested object, cache off)
      Buffer.from([CONNECTION_ID]),
      str(connectionId),
      str(connectionId), // clientId
      str(null), // password
      str(null), // userName
      bool(false), // brokerPath: null array
      bool(false), // brokerMasterConnector
      bool(false), // manageable
      bool(false), // clientMaster
      bool(false), // faultTolerant
      bool(false), // failoverReconnect
      str(null), // clientIp
    ]),
  );
}

/** The first Response or ExceptionResponse after `from`, among whole size-prefixed commands. */
function answer(b: Buffer, from: number): { type: number; text: string } | null {
  let at = from;
  while (b.length >= at + 5) {
    const size = b.readInt32BE(at);
    if (size < 1 || b.length < at + 4 + size) return null;
    const type = b[at + 4]!;
    if (type === RESPONSE || type === EXCEPTION_RESPONSE) {
      const body = b.subarray(at + 5, at + 4 + size);
      return {
        type,
        text: body
          .toString('latin1')
          .replace(/[^\x20-\x7e]+/g, ' ')
          .trim(),
      };
    }
    at += 4 + size;
  }
  return null;
}

export interface OpenWireConnect {
  greeting: OpenWireGreeting;
  /** True: Response; false: ExceptionResponse (its printable text in `refusal`). */
  accepted: boolean;
  refusal?: string;
}

/** Greeting, then ConnectionInfo without credentials; null when the port is not OpenWire or nothing answered. */
export function openWireConnect(net: Net, port: number): Promise<OpenWireConnect | null> {
  return talk(net, port, async (c) => {
    const hello = await c.read(3000, (b) => b.length >= 4 && b.length >= 4 + b.readInt32BE(0));
    const greeting = parseGreeting(hello);
    if (!greeting) return null;
    c.take();
    c.send(wireFormatInfo());
    const r = await c.ask(connectionInfo(`ID:vigil-${process.pid}-1`), 3000, (b) => answer(b, 0) !== null);
    const a = answer(r, 0);
    if (!a) return null;
    if (a.type === RESPONSE) c.send(sized(SHUTDOWN_INFO, Buffer.concat([int(2), bool(false)])));
    return a.type === RESPONSE ? { greeting, accepted: true } : { greeting, accepted: false, refusal: a.text };
  });
}
