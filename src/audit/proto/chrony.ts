/**
 * chronyd's command and monitoring protocol (cmdmon, UDP 323; chrony's
 * candm.h, protocol version 6). A request is a 20-byte header (version 6,
 * type 1 request, command, sequence) padded to the length of its reply:
 * chronyd answers nothing larger than the request ("padding to prevent
 * amplification", candm.h), so the service is no amplifier. Over the
 * network only monitoring commands are open (the rest need the Unix
 * socket), and only to addresses a `cmdallow` line admits besides
 * 127.0.0.1 and ::1; others are dropped unanswered (cmdmon.c
 * read_from_cmd_socket). REQ_TRACKING (33) is `chronyc tracking`: a read.
 */
import type { Net } from '../engine/types.ts';
import { udpAsk } from './talk.ts';

const PROTO_VERSION = 6;
const REQUEST = 1;
const REPLY = 2;
const REQ_TRACKING = 33;
const RPY_TRACKING = 5;
/** Header 28 bytes + RPY_Tracking up to its EOR field (76): the reply's length, and so the request's. */
export const TRACKING_LENGTH = 104;

/** `chronyc tracking`'s request: header and zero padding up to the reply's length. */
export function trackingRequest(sequence: number): Buffer {
  const b = Buffer.alloc(TRACKING_LENGTH);
  b[0] = PROTO_VERSION;
  b[1] = REQUEST;
  b.writeUInt16BE(REQ_TRACKING, 4);
  b.writeUInt32BE(sequence >>> 0, 8);
  return b;
}

const LEAP = ['normal', 'insert second', 'delete second', 'not synchronised'];
/** Status codes of candm.h a remote client may get. */
const STATUS: Record<number, string> = {
  0: 'success',
  1: 'failed',
  2: 'unauthorised',
  3: 'invalid',
  18: 'bad packet version',
  19: 'bad packet length',
};

export interface ChronyTracking {
  status: number;
  statusText: string;
  /** Reference ID as chronyc prints it (8 hex digits), with its ASCII form when printable (a refclock's name). */
  refId: string;
  stratum: number;
  leap: string;
  /** Bytes of the request and of the reply. */
  sent: number;
  received: number;
}

/** A cmdmon reply to `request` of our sequence number; null for anything else. */
export function parseTracking(r: Buffer, sequence: number, sent: number): ChronyTracking | null {
  if (r.length < 28 || r[0] !== PROTO_VERSION || r[1] !== REPLY || r.readUInt16BE(4) !== REQ_TRACKING) return null;
  if (r.readUInt32BE(16) !== sequence >>> 0) return null;
  const status = r.readUInt16BE(8);
  const base = { status, statusText: STATUS[status] ?? `status ${status}`, sent, received: r.length };
  if (status !== 0 || r.readUInt16BE(6) !== RPY_TRACKING || r.length < 56)
    return { ...base, refId: '', stratum: 0, leap: '' };
  const id = r.subarray(28, 32);
  const ascii = /^[\x20-\x7e]{1,4}$/.test(id.toString('latin1').replace(/\0+$/, ''))
    ? ` (${id.toString('latin1').replace(/\0+$/, '')})`
    : '';
  return {
    ...base,
    refId: `${id.toString('hex').toUpperCase()}${ascii}`,
    stratum: r.readUInt16BE(52),
    leap: LEAP[r.readUInt16BE(54)] ?? `leap ${r.readUInt16BE(54)}`,
  };
}

/** One `tracking` request to cmdmon on `port`; null when nothing (or not chronyd) answered. */
export async function chronyTracking(net: Net, port: number): Promise<ChronyTracking | null> {
  const sequence = (Math.random() * 0xffffffff) >>> 0;
  const request = trackingRequest(sequence);
  const reply = await udpAsk(net, port, request, { timeoutMs: 1500 });
  return reply ? parseTracking(reply, sequence, request.length) : null;
}
