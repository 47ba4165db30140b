/**
 * RDP's first exchange ([MS-RDPBCGR] 2.2.1.1 and 2.2.1.2): a TPKT (RFC
 * 1006) carrying an X.224 Connection Request with an RDP Negotiation
 * Request naming the security protocols the client offers, answered by a
 * Connection Confirm carrying the server's choice (RDP_NEG_RSP) or its
 * refusal (RDP_NEG_FAILURE). Nothing beyond it is sent: no MCS, no
 * credentials.
 */
import type { Net } from '../engine/types.ts';
import { talk } from './talk.ts';

/** requestedProtocols / selectedProtocol flags (2.2.1.1.1). */
export const PROTOCOL = { RDP: 0, SSL: 1, HYBRID: 2, RDSTLS: 4, HYBRID_EX: 8 } as const;

/** RDP_NEG_FAILURE codes (2.2.1.2.2). */
export const FAILURES: Readonly<Record<number, string>> = {
  1: 'SSL_REQUIRED_BY_SERVER',
  2: 'SSL_NOT_ALLOWED_BY_SERVER',
  3: 'SSL_CERT_NOT_ON_SERVER',
  4: 'INCONSISTENT_FLAGS',
  5: 'HYBRID_REQUIRED_BY_SERVER',
  6: 'SSL_WITH_USER_AUTH_REQUIRED_BY_SERVER',
};

export type Negotiation =
  /** The server chose `selected` (a PROTOCOL value). */
  | { kind: 'selected'; selected: number }
  /** The server refused the offer. */
  | { kind: 'failure'; code: number }
  /** A Connection Confirm without negotiation data: a server older than RDP 5.2, Standard RDP Security only. */
  | { kind: 'legacy' };

/** The Connection Request offering `requested` (a PROTOCOL mask). */
export function connectionRequest(requested: number): Buffer {
  const neg = Buffer.alloc(8);
  neg.writeUInt8(0x01, 0); // TYPE_RDP_NEG_REQ
  neg.writeUInt16LE(8, 2);
  neg.writeUInt32LE(requested, 4);
  // X.224 CR TPDU (ITU-T X.224 13.3): length indicator, CR code 0xE0, DST-REF 0, SRC-REF 0, class 0.
  const x224 = Buffer.concat([Buffer.from([6 + neg.length, 0xe0, 0, 0, 0, 0, 0]), neg]);
  const tpkt = Buffer.from([3, 0, 0, 0]);
  tpkt.writeUInt16BE(4 + x224.length, 2);
  return Buffer.concat([tpkt, x224]);
}

/** A Connection Confirm's negotiation outcome, or null when `b` is not one. */
export function parseConfirm(b: Buffer): Negotiation | null {
  if (b.length < 11 || b[0] !== 3 || b.readUInt16BE(2) > b.length || (b[5]! & 0xf0) !== 0xd0) return null;
  const li = b[4]!;
  if (li <= 6) return { kind: 'legacy' };
  if (b.length < 19) return null;
  const type = b[11];
  const value = b.readUInt32LE(15);
  if (type === 0x02) return { kind: 'selected', selected: value };
  if (type === 0x03) return { kind: 'failure', code: value };
  return null;
}

const tpktDone = (b: Buffer) => b.length >= 4 && b[0] === 3 && b.length >= b.readUInt16BE(2);

/** Offers `requested` and reads the server's answer; null when it is not RDP or says nothing. */
export const negotiate = (net: Net, port: number, requested: number): Promise<Negotiation | null> =>
  talk(net, port, async (c) => parseConfirm(await c.ask(connectionRequest(requested), 3000, tpktDone)));
