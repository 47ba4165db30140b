/**
 * CoAP (RFC 7252) over UDP: one confirmable GET of /.well-known/core, the
 * resource directory every CoAP server serves (RFC 6690 §4), and its
 * answer: the response code and the link-format payload. What the CoAP
 * disclosure and amplification checks share.
 */
import type { Net } from '../engine/types.ts';
import { udpAsk } from './talk.ts';

const opt = (delta: number, value: Buffer) => {
  // Deltas and lengths below 13 fit the nibbles (§3.1); the two options here need no extension bytes.
  if (delta > 12 || value.length > 12) throw new Error('option too long for this encoder');
  return Buffer.concat([Buffer.from([(delta << 4) | value.length]), value]);
};

/** CON GET /.well-known/core: version 1, a 2-byte token, Uri-Path (option 11) ".well-known" then "core". */
export function wellKnownCoreRequest(messageId = 0x5647, token = Buffer.from('vg')): Buffer {
  const head = Buffer.from([0x40 | token.length, 0x01, messageId >> 8, messageId & 0xff]);
  return Buffer.concat([head, token, opt(11, Buffer.from('.well-known')), opt(0, Buffer.from('core'))]);
}

export interface CoapResponse {
  /** "2.05" and the like (§5.9). */
  code: string;
  type: 'CON' | 'NON' | 'ACK' | 'RST';
  payload: Buffer;
}

const TYPES = ['CON', 'NON', 'ACK', 'RST'] as const;

/** A CoAP message (§3), or null when the bytes are not one. */
export function parseCoap(b: Buffer): CoapResponse | null {
  if (b.length < 4 || b[0]! >> 6 !== 1) return null;
  const tkl = b[0]! & 0x0f;
  if (tkl > 8) return null;
  const code = `${b[1]! >> 5}.${String(b[1]! & 0x1f).padStart(2, '0')}`;
  let i = 4 + tkl;
  // Options: a delta and a length nibble, 13 → one more byte, 14 → two (§3.1); 0xFF starts the payload.
  while (i < b.length && b[i] !== 0xff) {
    const d = b[i]! >> 4;
    const l = b[i]! & 0x0f;
    if (d === 15 || l === 15) return null;
    i += 1 + (d === 13 ? 1 : d === 14 ? 2 : 0);
    let len = l;
    if (l === 13) len = b[i]! + 13;
    if (l === 14) len = b.readUInt16BE(i) + 269;
    i += (l === 13 ? 1 : l === 14 ? 2 : 0) + len;
  }
  if (i > b.length) return null;
  return { code, type: TYPES[(b[0]! >> 4) & 3]!, payload: b.subarray(Math.min(i + 1, b.length)) };
}

/** The first reply datagram to GET /.well-known/core and what it says; null on silence. */
export async function coapWellKnown(
  net: Net,
  port: number,
): Promise<{ request: Buffer; reply: Buffer; response: CoapResponse | null } | null> {
  const request = wellKnownCoreRequest();
  const reply = await udpAsk(net, port, request, { timeoutMs: 1500 });
  return reply ? { request, reply, response: parseCoap(reply) } : null;
}

/** Link-format targets (RFC 6690 §2): "</sensors/temp>;rt=…" → "/sensors/temp". */
export const linkTargets = (payload: string) => [...payload.matchAll(/<([^>]*)>/g)].map((m) => m[1]!);
