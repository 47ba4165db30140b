import { randomBytes } from 'node:crypto';
import { isIP, type Socket } from 'node:net';
import type { Net } from '../engine/types.ts';

/**
 * A hand-built ClientHello, so that we can OFFER what Node's OpenSSL will
 * not: SSLv3 (compiled out), RC4 / 3DES / EXPORT suites (not in its cipher
 * list at any SECLEVEL). We read only the ServerHello (version and suite)
 * and hang up: no key exchange, nothing a normal client would not send.
 */
export const SSL3 = 0x0300;
export const TLS10 = 0x0301;
export const TLS11 = 0x0302;
export const TLS12 = 0x0303;

/** Typical pre-TLS 1.3 suites (ECDHE/DHE/RSA with AES, CAMELLIA, 3DES, RC4) for version probes. */
export const COMMON_SUITES = [
  0xc02f, 0xc030, 0xc02b, 0xc02c, 0x009e, 0x009f, 0xc013, 0xc014, 0xc009, 0xc00a, 0x0033, 0x0039, 0x002f, 0x0035,
  0x009c, 0x009d, 0x003c, 0x003d, 0xc027, 0xc028, 0xc023, 0xc024, 0x0067, 0x006b, 0x0041, 0x0084, 0xc012, 0x0016,
  0x000a, 0x0005, 0x0004,
];

function u16(n: number): Buffer {
  const b = Buffer.alloc(2);
  b.writeUInt16BE(n);
  return b;
}
const vec16 = (b: Buffer) => Buffer.concat([u16(b.length), b]);
const ext = (type: number, body: Buffer) => Buffer.concat([u16(type), vec16(body)]);

export function clientHello(version: number, suites: readonly number[], servername?: string): Buffer {
  const exts: Buffer[] = [];
  if (version > SSL3) {
    if (servername && !isIP(servername)) {
      const name = Buffer.from(servername, 'ascii');
      exts.push(ext(0x0000, vec16(Buffer.concat([Buffer.from([0]), vec16(name)]))));
    }
    exts.push(ext(0x000a, vec16(Buffer.from([0, 0x1d, 0, 0x17, 0, 0x18, 0, 0x19])))); // x25519, P-256/384/521
    exts.push(ext(0x000b, Buffer.from([1, 0]))); // uncompressed points
    const sigalgs = [0x0401, 0x0403, 0x0804, 0x0501, 0x0503, 0x0805, 0x0601, 0x0603, 0x0806, 0x0201, 0x0203, 0x0202];
    if (version >= TLS12) exts.push(ext(0x000d, vec16(Buffer.concat(sigalgs.map(u16)))));
    exts.push(ext(0xff01, Buffer.from([0]))); // renegotiation_info: some servers insist
  }
  const body = Buffer.concat([
    u16(version),
    randomBytes(32),
    Buffer.from([0]), // no session id
    vec16(Buffer.concat(suites.map(u16))),
    Buffer.from([1, 0]), // null compression only
    ...(exts.length ? [vec16(Buffer.concat(exts))] : []),
  ]);
  const hs = Buffer.concat([Buffer.from([1, body.length >> 16, (body.length >> 8) & 0xff, body.length & 0xff]), body]);
  return Buffer.concat([Buffer.from([22]), u16(Math.min(version, TLS10)), u16(hs.length), hs]);
}

export interface ServerHello {
  version: number;
  suite: number;
}

/** ServerHello from the first bytes of a reply; null on an alert or anything else. */
export function parseServerHello(data: Buffer): ServerHello | 'more' | null {
  if (data.length < 5) return 'more';
  if (data[0] !== 22) return null; // alert (21) or not TLS
  const len = data.readUInt16BE(3);
  const complete = data.length >= 5 + len;
  const hs = data.subarray(5, 5 + len);
  if (hs.length >= 1 && hs[0] !== 2) return null;
  if (hs.length < 39) return complete ? null : 'more';
  const sidLen = hs[38]!;
  if (hs.length < 39 + sidLen + 2) return complete ? null : 'more';
  return { version: hs.readUInt16BE(4), suite: hs.readUInt16BE(39 + sidLen) };
}

/** Offer `suites` at `version`; the server's choice, or null when it refuses. Never throws. */
export async function probeHello(
  net: Net,
  port: number,
  version: number,
  suites: readonly number[],
  opts: { servername?: string; timeoutMs?: number; open?: () => Promise<Socket | null> } = {},
): Promise<ServerHello | null> {
  const timeoutMs = opts.timeoutMs ?? 4000;
  let opened: Socket | null;
  try {
    // `open` is a STARTTLS preamble (starttls.ts): the hello follows it on the same connection.
    opened = opts.open ? await opts.open() : await net.connect(port, { timeoutMs });
  } catch {
    return null;
  }
  if (!opened) return null;
  const socket = opened;
  return new Promise((resolve) => {
    let buf = Buffer.alloc(0);
    const done = (v: ServerHello | null) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(v);
    };
    const timer = setTimeout(() => done(null), timeoutMs);
    socket.on('data', (chunk: Buffer) => {
      buf = Buffer.concat([buf, chunk]).subarray(0, 16384);
      const r = parseServerHello(buf);
      if (r !== 'more') done(r);
      else if (buf.length >= 16384) done(null);
    });
    socket.on('error', () => done(null));
    socket.on('close', () => done(null));
    socket.write(clientHello(version, [...suites, 0x00ff], opts.servername));
  });
}
