/**
 * IKEv1 (ISAKMP, RFC 2408; IKE, RFC 2409) over UDP 500: the first message
 * of an Aggressive Mode exchange (RFC 2409 §5: SA, KE, Ni, IDii in one
 * datagram) offering pre-shared-key authentication, and a parse of the
 * reply's payloads. What ike-scan --aggressive sends; what the IKE checks
 * share. Never a second message: the exchange is abandoned after the reply.
 */
import { randomBytes } from 'node:crypto';
import type { Net } from '../engine/types.ts';
import { udpAsk } from './talk.ts';

/** Payload types (RFC 2408 §3.1, RFC 3947 for NAT-D). */
export const PAYLOAD = {
  SA: 1,
  PROPOSAL: 2,
  TRANSFORM: 3,
  KE: 4,
  ID: 5,
  CERT: 6,
  CERTREQ: 7,
  HASH: 8,
  SIG: 9,
  NONCE: 10,
  NOTIFY: 11,
  DELETE: 12,
  VID: 13,
  NATD: 20,
} as const;

/** Exchange types (RFC 2408 §4.1): 2 Identity Protection (Main Mode), 4 Aggressive, 5 Informational. */
export const EXCHANGE = { MAIN: 2, AGGRESSIVE: 4, INFORMATIONAL: 5 } as const;

/** Phase 1 attribute values (RFC 2409 Appendix A; 65001 XAUTHInitPreShared, draft-beaulieu-ike-xauth-02 §4). */
const ENC: Record<number, string> = { 1: 'DES-CBC', 5: '3DES-CBC', 7: 'AES-CBC' };
const HASH: Record<number, string> = { 1: 'MD5', 2: 'SHA1', 4: 'SHA2-256', 5: 'SHA2-384', 6: 'SHA2-512' };
const AUTH: Record<number, string> = {
  1: 'PSK',
  3: 'RSA signatures',
  65001: 'XAUTH with PSK',
  65002: 'XAUTH with PSK',
};
/** Authentication methods that rest on a pre-shared key: the ones whose HASH_R can be cracked offline. */
export const PSK_METHODS = new Set([1, 65001, 65002]);

/**
 * MODP groups and their public value sizes (RFC 2409 §6.2, RFC 3526 §3): 2 is what legacy VPN
 * concentrators and ike-scan's default transforms use; 14 what current defaults (strongSwan,
 * Libreswan, Cisco IOS 15+) accept.
 */
export const GROUP_BYTES: Record<number, number> = { 2: 128, 5: 192, 14: 256 };

const attr = (type: number, value: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt16BE(0x8000 | type, 0); // TV format: the value fits 16 bits
  b.writeUInt16BE(value, 2);
  return b;
};

const payload = (next: number, body: Buffer) => {
  const h = Buffer.alloc(4);
  h[0] = next;
  h.writeUInt16BE(body.length + 4, 2);
  return Buffer.concat([h, body]);
};

/** The transforms offered: AES-256, AES-128 and 3DES with SHA2-256, SHA1 and MD5, each with PSK and XAUTH-PSK. */
function transforms(group: number): Buffer[] {
  const out: Buffer[] = [];
  const ciphers: [number, number | null][] = [
    [7, 256],
    [7, 128],
    [5, null],
  ];
  for (const auth of [1, 65001])
    for (const [enc, keyLen] of ciphers)
      for (const hash of [4, 2, 1]) {
        const attrs = [
          attr(1, enc),
          ...(keyLen ? [attr(14, keyLen)] : []),
          attr(2, hash),
          attr(3, auth),
          attr(4, group),
          attr(11, 1), // life type: seconds
          attr(12, 28800),
        ];
        out.push(Buffer.concat([Buffer.from([out.length + 1, 1, 0, 0]), ...attrs])); // transform #, KEY_IKE
      }
  return out;
}

/**
 * Aggressive Mode message 1 for one MODP group: SA (one ISAKMP proposal), KE (a random public value below the
 * prime: every MODP prime starts with 64 one-bits), Ni and IDii (ID_USER_FQDN `id`).
 */
export function aggressiveRequest(group: number, id: string, cookie = randomBytes(8)): Buffer {
  const ts = transforms(group);
  const transformPayloads = ts.map((t, i) => payload(i === ts.length - 1 ? 0 : PAYLOAD.TRANSFORM, t));
  const proposal = payload(0, Buffer.concat([Buffer.from([1, 1, 0, ts.length]), ...transformPayloads]));
  const sa = payload(PAYLOAD.KE, Buffer.concat([Buffer.from([0, 0, 0, 1, 0, 0, 0, 1]), proposal])); // DOI IPsec, SIT_IDENTITY_ONLY
  const ke = randomBytes(GROUP_BYTES[group] ?? 128);
  ke[0] = 0x7f & ke[0]!;
  const kePayload = payload(PAYLOAD.NONCE, ke);
  const nonce = payload(PAYLOAD.ID, randomBytes(20));
  const idPayload = payload(0, Buffer.concat([Buffer.from([3, 17, 0x01, 0xf4]), Buffer.from(id, 'latin1')])); // USER_FQDN, UDP 500
  const body = Buffer.concat([sa, kePayload, nonce, idPayload]);
  const head = Buffer.alloc(28);
  cookie.copy(head, 0);
  head[16] = PAYLOAD.SA;
  head[17] = 0x10; // version 1.0
  head[18] = EXCHANGE.AGGRESSIVE;
  head.writeUInt32BE(28 + body.length, 24);
  return Buffer.concat([head, body]);
}

export interface IkeTransform {
  enc: string;
  hash: string;
  auth: string;
  authId: number;
  group: number;
}

export interface IkeReply {
  exchange: number;
  responderCookie: string;
  /** Payload types in order. */
  payloads: number[];
  /** The transform the responder chose (its SA payload). */
  chosen: IkeTransform | null;
  /** Length of the HASH payload's data (HASH_R), 0 when absent. */
  hashBytes: number;
  /** Notify message types (RFC 2408 §3.14.1) the reply carried. */
  notify: number[];
}

function parseTransform(t: Buffer): IkeTransform | null {
  const a = new Map<number, number>();
  for (let i = 4; i + 4 <= t.length; ) {
    const type = t.readUInt16BE(i);
    if (!(type & 0x8000)) {
      i += 4 + t.readUInt16BE(i + 2); // a TLV attribute: skipped
      continue;
    }
    a.set(type & 0x7fff, t.readUInt16BE(i + 2));
    i += 4;
  }
  if (!a.has(3)) return null;
  const enc = a.get(1) ?? 0;
  return {
    enc: `${ENC[enc] ?? `cipher ${enc}`}${a.has(14) ? `-${a.get(14)}` : ''}`,
    hash: HASH[a.get(2) ?? 0] ?? `hash ${a.get(2)}`,
    auth: AUTH[a.get(3)!] ?? `method ${a.get(3)}`,
    authId: a.get(3)!,
    group: a.get(4) ?? 0,
  };
}

/** The ISAKMP header and payload chain of a reply to `cookie`; null when the bytes are not one. */
export function parseIke(b: Buffer, cookie: Buffer): IkeReply | null {
  if (b.length < 28 || !b.subarray(0, 8).equals(cookie) || b[17]! >> 4 !== 1) return null;
  const r: IkeReply = {
    exchange: b[18]!,
    responderCookie: b.subarray(8, 16).toString('hex'),
    payloads: [],
    chosen: null,
    hashBytes: 0,
    notify: [],
  };
  // Flag bit 1 (RFC 2408 §3.1): the payloads are encrypted and cannot be read.
  if (b[19]! & 1) return r;
  let next = b[16]!;
  for (let i = 28; next !== 0 && i + 4 <= b.length; ) {
    const len = b.readUInt16BE(i + 2);
    if (len < 4 || i + len > b.length) break;
    const body = b.subarray(i + 4, i + len);
    r.payloads.push(next);
    if (next === PAYLOAD.SA && body.length >= 8 + 8) {
      // SA: DOI, situation, then one proposal payload (8-byte header after the generic one) and its transform.
      const prop = body.subarray(8);
      const spi = prop[6] ?? 0;
      const tr = prop.subarray(8 + spi);
      if (tr.length >= 8) r.chosen = parseTransform(tr.subarray(4, tr.readUInt16BE(2)));
    }
    if (next === PAYLOAD.HASH) r.hashBytes = body.length;
    if (next === PAYLOAD.NOTIFY && body.length >= 8) r.notify.push(body.readUInt16BE(6));
    next = b[i]!;
    i += len;
  }
  return r;
}

/** One Aggressive Mode proposal for `group`; the parsed reply, or null on silence or a stranger's bytes. */
export async function askAggressive(
  net: Net,
  port: number,
  group: number,
  id: string,
): Promise<{ request: Buffer; reply: IkeReply } | null> {
  const cookie = randomBytes(8);
  const request = aggressiveRequest(group, id, cookie);
  const raw = await udpAsk(net, port, request, { timeoutMs: 2000 });
  const reply = raw && parseIke(raw, cookie);
  return reply ? { request, reply } : null;
}
