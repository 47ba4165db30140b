/**
 * ONC RPC (RFC 5531) calls with AUTH_NONE over UDP (one datagram each way)
 * and TCP (record marking, §11), XDR (RFC 4506) for what the checks read,
 * and the portmapper's version 2 (RFC 1833 §3: GETPORT, DUMP), which every
 * rpcbind and every older portmap answers.
 */
import { randomBytes } from 'node:crypto';
import type { Net } from '../engine/types.ts';
import { talk, udpAsk } from './talk.ts';

export const PORTMAP = 100000;
export const IPPROTO_TCP = 6;
export const IPPROTO_UDP = 17;

/** Why a call was not answered with results (RFC 5531 §9 accept_stat / reject_stat). */
export type RpcStatus =
  | 'success'
  | 'prog-unavail'
  | 'prog-mismatch'
  | 'proc-unavail'
  | 'garbage-args'
  | 'system-err'
  | 'denied';
const ACCEPT: readonly RpcStatus[] = [
  'success',
  'prog-unavail',
  'prog-mismatch',
  'proc-unavail',
  'garbage-args',
  'system-err',
];

export interface RpcReply {
  status: RpcStatus;
  /** The procedure's results (XDR) when status is success. */
  body: Buffer;
  /** Size of the whole reply as it came (a UDP datagram or the TCP records' payload). */
  size: number;
  /** Size of the call we sent. */
  sent: number;
}

/** The call message: xid, CALL, RPC version 2, program, version, procedure, AUTH_NONE credential and verifier. */
export function callMessage(xid: Buffer, prog: number, vers: number, proc: number, args: Buffer = Buffer.alloc(0)) {
  const head = Buffer.alloc(40);
  xid.copy(head, 0);
  [0, 2, prog, vers, proc, 0, 0, 0, 0].forEach((v, i) => head.writeUInt32BE(v, 4 + 4 * i));
  return Buffer.concat([head, args]);
}

/** A reply to `xid`, or null when it is not one (another xid, a CALL, too short). */
export function parseReply(xid: Buffer, msg: Buffer): Omit<RpcReply, 'size' | 'sent'> | null {
  if (msg.length < 12 || !msg.subarray(0, 4).equals(xid) || msg.readUInt32BE(4) !== 1) return null;
  if (msg.readUInt32BE(8) === 1) return { status: 'denied', body: Buffer.alloc(0) };
  // MSG_ACCEPTED: verifier (flavor, opaque<400>), then accept_stat.
  if (msg.length < 24) return null;
  const at = 20 + pad4(msg.readUInt32BE(16));
  if (msg.length < at + 4) return null;
  const status = ACCEPT[msg.readUInt32BE(at)];
  return status ? { status, body: msg.subarray(at + 4) } : null;
}

const pad4 = (n: number) => (n + 3) & ~3;
/** XDR string<> / opaque<> (RFC 4506 §4.10-4.11): length, bytes, zero padding. */
export function xdrString(s: string): Buffer {
  const b = Buffer.from(s, 'latin1');
  const out = Buffer.alloc(4 + pad4(b.length));
  out.writeUInt32BE(b.length, 0);
  b.copy(out, 4);
  return out;
}
const u32 = (...v: number[]) =>
  Buffer.concat(v.map((x) => Buffer.from([x >>> 24, (x >>> 16) & 255, (x >>> 8) & 255, x & 255])));

/** One call over UDP; null on silence or anything that is not its reply. */
export async function rpcUdp(net: Net, port: number, prog: number, vers: number, proc: number, args?: Buffer) {
  const xid = randomBytes(4);
  const call = callMessage(xid, prog, vers, proc, args);
  const reply = await udpAsk(net, port, call, { timeoutMs: 2000 });
  const r = reply && parseReply(xid, reply);
  return r ? { ...r, size: reply.length, sent: call.length } : null;
}

/** One call over TCP, the reply's record fragments joined (at most 64 KB). */
export function rpcTcp(net: Net, port: number, prog: number, vers: number, proc: number, args?: Buffer) {
  const xid = randomBytes(4);
  const call = callMessage(xid, prog, vers, proc, args);
  return talk(net, port, async (c) => {
    const mark = Buffer.alloc(4);
    mark.writeUInt32BE((0x80000000 | call.length) >>> 0);
    const raw = await c.ask(Buffer.concat([mark, call]), 3000, (b) => records(b) !== null);
    const msg = records(raw);
    const r = msg && parseReply(xid, msg);
    return r ? { ...r, size: msg.length, sent: call.length } : null;
  });
}

/** The record's payload once its last fragment is in (RFC 5531 §11), else null. */
export function records(b: Buffer): Buffer | null {
  const parts: Buffer[] = [];
  for (let at = 0; at + 4 <= b.length; ) {
    const head = b.readUInt32BE(at);
    const len = head & 0x7fffffff;
    if (at + 4 + len > b.length) return null;
    parts.push(b.subarray(at + 4, at + 4 + len));
    at += 4 + len;
    if (head & 0x80000000) return Buffer.concat(parts);
  }
  return null;
}

export const rpcCall = (
  net: Net,
  port: number,
  proto: 'tcp' | 'udp',
  prog: number,
  vers: number,
  proc: number,
  args?: Buffer,
) => (proto === 'tcp' ? rpcTcp(net, port, prog, vers, proc, args) : rpcUdp(net, port, prog, vers, proc, args));

export interface Mapping {
  prog: number;
  vers: number;
  proto: 'tcp' | 'udp' | string;
  port: number;
}

/** PMAPPROC_DUMP's pmaplist: (more: bool, {prog, vers, prot, port})…, at most 500 entries. */
export function parseDump(body: Buffer): Mapping[] | null {
  const out: Mapping[] = [];
  let at = 0;
  for (let i = 0; i < 500; i++) {
    if (at + 4 > body.length) return null;
    if (body.readUInt32BE(at) === 0) return out;
    if (at + 20 > body.length) return null;
    const [prog, vers, prot, port] = [4, 8, 12, 16].map((o) => body.readUInt32BE(at + o)) as [
      number,
      number,
      number,
      number,
    ];
    out.push({ prog, vers, proto: prot === IPPROTO_TCP ? 'tcp' : prot === IPPROTO_UDP ? 'udp' : String(prot), port });
    at += 20;
  }
  return out;
}

/** The portmapper's list of registered programs (PMAPPROC_DUMP, v2 procedure 4) with the call's sizes. */
export async function pmapDump(net: Net, port: number, proto: 'tcp' | 'udp') {
  const r = await rpcCall(net, port, proto, PORTMAP, 2, 4);
  if (!r || r.status !== 'success') return r ? { status: r.status, list: null, size: r.size, sent: r.sent } : null;
  return { status: r.status, list: parseDump(r.body), size: r.size, sent: r.sent };
}

/** PMAPPROC_GETPORT (v2 procedure 3): the port of prog/vers over proto, 0 when not registered, null on no answer. */
export async function pmapGetPort(net: Net, port: number, prog: number, vers: number, proto: 'tcp' | 'udp') {
  const args = u32(prog, vers, proto === 'tcp' ? IPPROTO_TCP : IPPROTO_UDP, 0);
  const r = await rpcTcp(net, port, PORTMAP, 2, 3, args);
  return r?.status === 'success' && r.body.length >= 4 ? r.body.readUInt32BE(0) : null;
}

/** Program names for the evidence (rpc(5), /etc/rpc). */
export const PROGRAMS: Readonly<Record<number, string>> = {
  100000: 'portmapper',
  100001: 'rstatd',
  100002: 'rusersd',
  100003: 'nfs',
  100004: 'ypserv',
  100005: 'mountd',
  100007: 'ypbind',
  100008: 'walld',
  100009: 'yppasswdd',
  100011: 'rquotad',
  100012: 'sprayd',
  100021: 'nlockmgr',
  100024: 'status',
  100083: 'ttdbserverd',
  100227: 'nfs_acl',
  150001: 'pcnfsd',
  391002: 'sgi_fam',
};

/** XDR readers for the results of the RPC services checks read. */
export class Xdr {
  at = 0;
  constructor(readonly b: Buffer) {}
  u32(): number {
    if (this.at + 4 > this.b.length) throw new RangeError('xdr: short');
    const v = this.b.readUInt32BE(this.at);
    this.at += 4;
    return v;
  }
  /** opaque<> / string<> (length, bytes, padding), at most `max` bytes. */
  string(max = 1024): string {
    const n = this.u32();
    if (n > max || this.at + n > this.b.length) throw new RangeError('xdr: string');
    const s = this.b.toString('latin1', this.at, this.at + n);
    this.at += pad4(n);
    return s;
  }
  /** opaque[n]: fixed length, NUL-padded text. */
  fixed(n: number): string {
    if (this.at + n > this.b.length) throw new RangeError('xdr: fixed');
    const s = this.b.toString('latin1', this.at, this.at + n).replace(/\0.*$/s, '');
    this.at += pad4(n);
    return s;
  }
}
