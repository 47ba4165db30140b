/**
 * RADIUS (RFC 2865) as a NAS speaks it: one Access-Request, and the
 * reply's Response Authenticator checked against candidate shared secrets.
 * Code, Identifier, Length, a 16-byte authenticator, then attributes as
 * type-length-value (§3, §5).
 */
import { createHash, randomBytes } from 'node:crypto';

export const RADIUS_CODES: Record<number, string> = {
  1: 'Access-Request',
  2: 'Access-Accept',
  3: 'Access-Reject',
  11: 'Access-Challenge',
};

const attr = (type: number, value: Buffer) => Buffer.concat([Buffer.from([type, value.length + 2]), value]);
const md5 = (...parts: Buffer[]) => createHash('md5').update(Buffer.concat(parts)).digest();

/**
 * User-Password hidden as §5.2 says: the password padded to 16-byte
 * blocks, each XORed with MD5(secret + the previous cipher block), the
 * first with MD5(secret + Request Authenticator).
 */
function hidePassword(password: string, secret: string, authenticator: Buffer): Buffer {
  const p = Buffer.from(password, 'utf8');
  const padded = Buffer.alloc(Math.max(16, Math.ceil(p.length / 16) * 16));
  p.copy(padded);
  const out = Buffer.alloc(padded.length);
  let prev = authenticator;
  for (let i = 0; i < padded.length; i += 16) {
    const key = md5(Buffer.from(secret, 'utf8'), prev);
    for (let j = 0; j < 16; j++) out[i + j] = padded[i + j]! ^ key[j]!;
    prev = out.subarray(i, i + 16);
  }
  return out;
}

export interface RadiusRequest {
  packet: Buffer;
  id: number;
  authenticator: Buffer;
  user: string;
}

/**
 * An Access-Request (§4.1) for a made-up user with a random password,
 * hidden under `secret` (a server with another secret reads garbage and
 * rejects it all the same), with the NAS-Identifier §4.1 requires and no
 * Message-Authenticator: that attribute is keyed with the secret, and a
 * server whose secret differs would drop the request instead of answering.
 */
export function accessRequest(secret: string): RadiusRequest {
  const id = randomBytes(1)[0]!;
  const authenticator = randomBytes(16);
  const user = `vigil-probe-${randomBytes(4).toString('hex')}`;
  const attrs = Buffer.concat([
    attr(1, Buffer.from(user)),
    attr(2, hidePassword(randomBytes(12).toString('hex'), secret, authenticator)),
    attr(32, Buffer.from('vigil-audit')),
  ]);
  const head = Buffer.from([1, id, 0, 0]);
  head.writeUInt16BE(20 + attrs.length, 2);
  return { packet: Buffer.concat([head, authenticator, attrs]), id, authenticator, user };
}

/** A reply to `req`: a response code, its Identifier, a Length that fits the datagram; null otherwise. */
export function radiusReply(reply: Buffer, req: RadiusRequest): { code: number; length: number } | null {
  if (reply.length < 20 || !RADIUS_CODES[reply[0]!] || reply[0] === 1 || reply[1] !== req.id) return null;
  const length = reply.readUInt16BE(2);
  return length >= 20 && length <= reply.length ? { code: reply[0]!, length } : null;
}

/**
 * §3: Response Authenticator = MD5(Code + ID + Length + Request
 * Authenticator + Attributes + Secret). Only a server that holds `secret`
 * can have computed it.
 */
export function replySignedWith(reply: Buffer, req: RadiusRequest, secret: string): boolean {
  const r = radiusReply(reply, req);
  if (!r) return false;
  const expected = md5(
    reply.subarray(0, 4),
    req.authenticator,
    reply.subarray(20, r.length),
    Buffer.from(secret, 'utf8'),
  );
  return expected.equals(reply.subarray(4, 20));
}
