/**
 * Java RMI over JRMP (Java RMI specification, chapter 10 "RMI Wire
 * Protocol"; object streams: Java Object Serialization specification §6.4):
 * the transport of every JVM's RMI registry and of JMX remote
 * (-Dcom.sun.management.jmxremote.port, ActiveMQ's and Cassandra's JMX
 * connectors). One StreamProtocol connection per call: the header "JRMI"
 * 0002 4B, the server's ProtocolAck (4E, its view of our address), our
 * endpoint, then one Call (50) and its Return (51). Return values are
 * serialized Java objects; this reads only what the checks need (a String[]
 * from Registry.list(), the UnicastRef of a remote stub, the class and
 * message of an exception), never deserializes classes, and sends no object
 * but a String or null.
 */
import { createHash } from 'node:crypto';
import type { Net } from '../engine/types.ts';
import type { Conv } from './conv.ts';
import { talk } from './talk.ts';

export const JRMI_HEADER = Buffer.from([0x4a, 0x52, 0x4d, 0x49, 0x00, 0x02, 0x4b]);
const PROTOCOL_ACK = 0x4e;
const CALL = 0x50;
const RETURN = 0x51;
const DGC_ACK = 0x54;
/** ObjectOutputStream's stream header (STREAM_MAGIC, STREAM_VERSION), and the type codes read here. */
const STREAM = Buffer.from([0xac, 0xed, 0x00, 0x05]);
const TC_NULL = 0x70;
const TC_STRING = 0x74;
const TC_BLOCKDATA = 0x77;

/**
 * The registry's well-known object (ObjID 0) and the interface hash of
 * RegistryImpl_Stub (JDK sun.rmi.registry): operations list = 1, lookup = 2.
 */
const REGISTRY_ID = Buffer.alloc(22);
const REGISTRY_HASH = 4905912898345647071n;

/**
 * A method hash of the 1.2 stub protocol (RMI specification §8.3): the first
 * 8 bytes, little-endian, of the SHA-1 of the method name and descriptor as
 * DataOutput.writeUTF writes it. Gives -1089742558549201240 for
 * RMIServer.newClient, the value Metasploit's and remote-method-guesser's
 * JMX clients hard-code.
 */
export function methodHash(nameAndDescriptor: string): bigint {
  return createHash('sha1').update(utf(nameAndDescriptor)).digest().readBigInt64LE(0);
}

function utf(s: string): Buffer {
  const b = Buffer.from(s, 'utf8');
  const len = Buffer.alloc(2);
  len.writeUInt16BE(b.length);
  return Buffer.concat([len, b]);
}

/** A remote object's address as its stub carries it (LiveRef: TCPEndpoint and ObjID). */
export interface RmiRef {
  /** The host and port the stub names (the checks connect to the audited address, never to this host). */
  host: string;
  port: number;
  /** ObjID as written: objNum (8), UID unique (4), time (8), count (2). */
  objId: Buffer;
  /** UnicastRef2 with a client socket factory (SslRMIClientSocketFactory): calls need TLS. */
  factory: boolean;
}

export interface RmiReturn {
  /** NormalReturn (1) or ExceptionalReturn (2). */
  normal: boolean;
  /** First class named in the value (the stub's class, the exception's). */
  className: string | null;
  /** An exception's message (its first string that is not a type descriptor). */
  message: string | null;
  ref: RmiRef | null;
  raw: Buffer;
}

/** Header, ProtocolAck, our endpoint: true when the peer speaks JRMP. */
async function handshake(c: Conv): Promise<boolean> {
  const ack = await c.ask(JRMI_HEADER, 3000, (b) => b.length >= 3 && b.length >= 7 + b.readUInt16BE(1));
  if (!isProtocolAck(ack)) return false;
  // The endpoint a client would accept callbacks on; port 0: none.
  c.send(Buffer.concat([utf('0.0.0.0'), Buffer.alloc(4)]));
  return true;
}

/** ProtocolAck: 4E, the client's host as the server saw it (UTF), and its port. */
export function isProtocolAck(b: Buffer): boolean {
  if (b.length < 7 || b[0] !== PROTOCOL_ACK) return false;
  const n = b.readUInt16BE(1);
  return n > 0 && n < 256 && b.length >= 7 + n && /^[\w.:%-]+$/.test(b.subarray(3, 3 + n).toString('latin1'));
}

function call(objId: Buffer, op: number, hash: bigint, args: Buffer): Buffer {
  const block = Buffer.alloc(34);
  objId.copy(block, 0);
  block.writeInt32BE(op, 22);
  block.writeBigInt64BE(hash, 26);
  return Buffer.concat([Buffer.from([CALL]), STREAM, Buffer.from([TC_BLOCKDATA, 34]), block, args]);
}

/** Reads until the peer pauses (a Return has no length; the connection stays open for the next call). */
async function settled(c: Conv, first: Buffer): Promise<Buffer> {
  let reply = first;
  for (let i = 0; i < 20 && reply.length && !c.closed; i++) {
    const n = reply.length;
    reply = await c.read(250, (b) => b.length > n);
    if (reply.length === n) break;
  }
  return reply;
}

/** Return header: 51, the stream header, a block of 15 bytes: return type and the UID to acknowledge. */
const RETURN_HEAD = 1 + 4 + 2 + 15;
const returnOf = (b: Buffer) =>
  b.length >= RETURN_HEAD && b[0] === RETURN && b.subarray(1, 5).equals(STREAM) && b[5] === TC_BLOCKDATA;

/** One call on its own connection: the Return read, the DGC acknowledged. Null when not JRMP. */
export function rmiCall(
  net: Net,
  port: number,
  objId: Buffer,
  op: number,
  hash: bigint,
  args: Buffer = Buffer.alloc(0),
) {
  return talk<RmiReturn>(
    net,
    port,
    async (c) => {
      if (!(await handshake(c))) return null;
      const raw = await settled(c, await c.ask(call(objId, op, hash, args), 4000, (b) => b.length >= RETURN_HEAD));
      if (!returnOf(raw)) return null;
      // DGCAck: the server may let go of the objects this return handed out (RMI spec §10.2.2).
      c.send(Buffer.concat([Buffer.from([DGC_ACK]), raw.subarray(8, 22)]));
      return parseReturn(raw);
    },
    6000,
  );
}

export function parseReturn(raw: Buffer): RmiReturn {
  const body = raw.subarray(RETURN_HEAD);
  const text = body.toString('latin1');
  // TC_CLASSDESC, the name's length (UTF), the name.
  const at = /\x72\x00[\x01-\xff][\w$.[]/.exec(text)?.index;
  const className = at === undefined ? null : text.slice(at + 3, at + 3 + body.readUInt16BE(at + 1));
  const normal = raw[7] === 1;
  return { normal, className, message: normal ? null : messageOf(body), ref: refOf(body), raw };
}

/** The first TC_STRING that is not a field's type descriptor (Throwable.detailMessage comes first). */
function messageOf(b: Buffer): string | null {
  for (let i = b.indexOf(TC_STRING); i >= 0 && i + 3 <= b.length; i = b.indexOf(TC_STRING, i + 1)) {
    const n = b.readUInt16BE(i + 1);
    const s = b.subarray(i + 3, i + 3 + n).toString('utf8');
    if (n > 0 && i + 3 + n <= b.length && /^[\x20-\x7e]+$/.test(s) && !/^(L[\w/$]+;|\[+[\w/$;[]+)$/.test(s)) return s;
  }
  return null;
}

/** The UnicastRef a stub writes (RemoteObject.writeObject: ref class name, then LiveRef.write). */
function refOf(b: Buffer): RmiRef | null {
  const at = b.indexOf('UnicastRef', 0, 'latin1');
  if (at < 2) return null;
  let i = at - 2;
  const nameLen = b.readUInt16BE(i);
  i += 2 + nameLen;
  let factory = false;
  if (nameLen === 11) {
    // UnicastRef2: a format byte first; 1 means a client socket factory object follows host and port.
    factory = b[i] === 1;
    i += 1;
  }
  if (i + 2 > b.length) return null;
  const hostLen = b.readUInt16BE(i);
  const host = b.subarray(i + 2, i + 2 + hostLen).toString('utf8');
  i += 2 + hostLen;
  if (i + 4 > b.length) return null;
  const port = b.readInt32BE(i);
  i += 4;
  if (factory) return { host, port, objId: Buffer.alloc(0), factory };
  if (i + 22 > b.length) return null;
  return { host, port, objId: Buffer.from(b.subarray(i, i + 22)), factory };
}

/**
 * The String[] of Registry.list(): TC_ARRAY, its class "[Ljava.lang.String;",
 * the count, then each name (TC_STRING, or TC_NULL).
 */
export function parseNames(raw: Buffer): string[] | null {
  if (!returnOf(raw) || raw[7] !== 1) return null;
  const at = raw.indexOf('[Ljava.lang.String;', RETURN_HEAD, 'latin1');
  if (at < 0) return null;
  // Name, serialVersionUID (8), flags (1), field count (2), class annotation up to TC_ENDBLOCKDATA, TC_NULL super.
  let i = raw.indexOf(0x78, at + 19 + 11);
  if (i < 0 || raw[i + 1] !== TC_NULL) return null;
  i += 2;
  if (i + 4 > raw.length) return null;
  const count = raw.readInt32BE(i);
  i += 4;
  if (count < 0 || count > 10_000) return null;
  const names: string[] = [];
  for (let k = 0; k < count; k++) {
    if (raw[i] === TC_NULL) {
      i += 1;
      continue;
    }
    if (raw[i] !== TC_STRING || i + 3 > raw.length) return null;
    const n = raw.readUInt16BE(i + 1);
    if (i + 3 + n > raw.length) return null;
    names.push(raw.subarray(i + 3, i + 3 + n).toString('utf8'));
    i += 3 + n;
  }
  return names;
}

/** Registry.list() on the registry at `port`: the bound names, or null. */
export async function registryList(net: Net, port: number): Promise<string[] | null> {
  const r = await rmiCall(net, port, REGISTRY_ID, 1, REGISTRY_HASH);
  return r ? parseNames(r.raw) : null;
}

/** Registry.lookup(name): the stub bound there (its class and UnicastRef), or null. */
export function registryLookup(net: Net, port: number, name: string): Promise<RmiReturn | null> {
  return rmiCall(net, port, REGISTRY_ID, 2, REGISTRY_HASH, Buffer.concat([Buffer.from([TC_STRING]), utf(name)]));
}

/** javax.management.remote.rmi.RMIServer.newClient(Object credentials) and RMIConnection.close(). */
const NEW_CLIENT = methodHash('newClient(Ljava/lang/Object;)Ljavax/management/remote/rmi/RMIConnection;');
const CLOSE = methodHash('close()V');

/**
 * A String[] as RMI's MarshalOutputStream writes it (the credentials JMX's
 * authenticators take: user, password): TC_ARRAY, the class descriptor of
 * "[Ljava.lang.String;" (its serialVersionUID, SC_SERIALIZABLE, no fields,
 * the codebase annotation, no superclass), the length, each TC_STRING.
 */
export function stringArray(values: readonly string[]): Buffer {
  const head = Buffer.alloc(8 + 1 + 2);
  head.writeBigInt64BE(-5921575005990323385n); // 0xadd256e7e91d7b47
  head[8] = 0x02;
  const count = Buffer.alloc(4);
  count.writeInt32BE(values.length);
  return Buffer.concat([
    Buffer.from([0x75, 0x72]),
    utf('[Ljava.lang.String;'),
    head,
    // The class annotation RMI's MarshalOutputStream writes (the codebase: none), its end, no superclass.
    Buffer.from([TC_NULL, 0x78, TC_NULL]),
    count,
    ...values.map((v) => Buffer.concat([Buffer.from([TC_STRING]), utf(v)])),
  ]);
}

const isJmx = (stub: RmiReturn) =>
  /RMIServer/.test(stub.className ?? '') || stub.raw.includes('javax.management.remote.rmi.RMIServer');

/** The JMX connectors bound in the registry at `port` (at most `max` names looked up): name and stub. */
export async function jmxConnectors(net: Net, port: number, max = 8): Promise<{ name: string; stub: RmiReturn }[]> {
  const out: { name: string; stub: RmiReturn }[] = [];
  for (const name of ((await registryList(net, port)) ?? []).slice(0, max)) {
    const stub = await registryLookup(net, port, name);
    if (stub?.normal && stub.ref && isJmx(stub)) out.push({ name, stub });
  }
  return out;
}

/**
 * RMIServer.newClient(credentials: null or a String[]) on the stub's port of
 * the audited address: the class of the RMIConnection it returned, closed
 * again at once (RMIConnection.close), or null (refused, or not JMX).
 */
export async function jmxNewClient(
  net: Net,
  ref: RmiRef,
  credentials: readonly string[] | null,
): Promise<string | null> {
  const arg = credentials ? stringArray(credentials) : Buffer.from([TC_NULL]);
  const r = await rmiCall(net, ref.port, ref.objId, -1, NEW_CLIENT, arg);
  if (!r?.normal || !r.ref || !/RMIConnection/.test(`${r.className} ${r.raw.toString('latin1')}`)) return null;
  if (!r.ref.factory) await rmiCall(net, r.ref.port, r.ref.objId, -1, CLOSE);
  return r.className ?? 'an RMIConnection stub';
}
