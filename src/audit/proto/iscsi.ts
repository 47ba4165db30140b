/**
 * iSCSI (RFC 7143) login without credentials and SendTargets discovery:
 * Login Request PDUs (§11.12) with AuthMethod=None from the security stage
 * to full feature phase, then one Text Request "SendTargets=All" (§11.10,
 * Appendix C) on a discovery session. Nothing beyond: no SCSI command is
 * ever sent, and the connection is closed after the answer.
 */
import { randomBytes } from 'node:crypto';
import type { Net } from '../engine/types.ts';
import type { Conv } from './conv.ts';
import { talk } from './talk.ts';

const OP_LOGIN = 0x03;
const OP_TEXT = 0x04;
const IMMEDIATE = 0x40;
const INITIATOR = 'iqn.2026-11.org.vigil:scanner';

/** key=value pairs, each NUL-terminated, padded to 4 bytes (§6.1). */
export function keys(pairs: Record<string, string>): Buffer {
  const text = Buffer.from(
    Object.entries(pairs)
      .map(([k, v]) => `${k}=${v}\0`)
      .join(''),
    'latin1',
  );
  return Buffer.concat([text, Buffer.alloc((4 - (text.length % 4)) % 4)]);
}

export const parseKeys = (data: Buffer): [string, string][] =>
  data
    .toString('latin1')
    .split('\0')
    .filter((kv) => kv.includes('='))
    .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]);

/** A 48-byte Basic Header Segment with the data segment after it. */
function pdu(op: number, flags: number, fill: (bhs: Buffer) => void, data: Buffer): Buffer {
  const bhs = Buffer.alloc(48);
  bhs[0] = op;
  bhs[1] = flags;
  bhs.writeUIntBE(data.length, 5, 3);
  fill(bhs);
  return Buffer.concat([bhs, data]);
}

export interface Pdu {
  op: number;
  flags: number;
  bhs: Buffer;
  data: Buffer;
}

/** One whole PDU from the front of `b` (no digests: none are negotiated), or null while incomplete. */
export function readPdu(b: Buffer): Pdu | null {
  if (b.length < 48) return null;
  const ahs = b[4]! * 4;
  const len = b.readUIntBE(5, 3);
  const end = 48 + ahs + len + ((4 - (len % 4)) % 4);
  if (b.length < end) return null;
  return { op: b[0]! & 0x3f, flags: b[1]!, bhs: b.subarray(0, 48), data: b.subarray(48 + ahs, 48 + ahs + len) };
}

export interface LoginResult {
  /** Status-Class and Status-Detail of the last Login Response (0/0: success; 2/1: authentication failure). */
  status: [number, number];
  /** Reached full feature phase without credentials. */
  accepted: boolean;
  /** Keys the target answered in the security stage (AuthMethod=…). */
  answered: [string, string][];
  statSN: number;
  expCmdSN: number;
}

/**
 * Logs in with AuthMethod=None: the security stage (CSG 0) asking to go on
 * to operational negotiation (NSG 1), then that stage to full feature phase
 * (NSG 3). A target that wants CHAP answers AuthMethod=CHAP (and no
 * transit) or status 2/1: not accepted.
 */
async function login(c: Conv, session: Record<string, string>): Promise<LoginResult | null> {
  const isid = Buffer.concat([Buffer.from([0x80]), randomBytes(3), Buffer.alloc(2)]);
  const itt = randomBytes(4);
  const stages: [number, Record<string, string>][] = [
    [0x81, { InitiatorName: INITIATOR, ...session, AuthMethod: 'None' }],
    [0x87, { HeaderDigest: 'None', DataDigest: 'None', MaxRecvDataSegmentLength: '8192' }],
  ];
  let last: LoginResult | null = null;
  for (const [flags, pairs] of stages) {
    const prev = last as LoginResult | null;
    const req = pdu(
      OP_LOGIN | IMMEDIATE,
      flags,
      (b) => {
        isid.copy(b, 8);
        itt.copy(b, 16);
        b.writeUInt32BE(1, 24); // CmdSN
        b.writeUInt32BE(prev ? (prev.statSN + 1) >>> 0 : 0, 28); // ExpStatSN
      },
      keys(pairs),
    );
    const r = readPdu(await c.ask(req, 3000, (b) => readPdu(b) !== null));
    if (!r || r.op !== 0x23) return last;
    const status: [number, number] = [r.bhs[36]!, r.bhs[37]!];
    const transit = (r.flags & 0x80) !== 0;
    last = {
      status,
      accepted: false,
      answered: prev ? prev.answered : parseKeys(r.data),
      statSN: r.bhs.readUInt32BE(24),
      expCmdSN: r.bhs.readUInt32BE(28),
    };
    // Refused, or kept in the security stage (it wants CHAP and said so in AuthMethod).
    if (status[0] !== 0 || !transit || (flags === 0x81 && (r.flags & 0x03) !== 1)) return last;
  }
  return last && { ...last, accepted: true };
}

export interface Discovery {
  login: LoginResult;
  /** SendTargets=All's answer: TargetName and TargetAddress pairs, in order; null when not asked (login refused). */
  targets: [string, string][] | null;
}

/** A discovery session with no credentials and, once in, SendTargets=All. Null when nothing iSCSI answered. */
export function discover(net: Net, port: number): Promise<Discovery | null> {
  return talk(net, port, async (c) => {
    const l = await login(c, { SessionType: 'Discovery' });
    if (!l) return null;
    if (!l.accepted) return { login: l, targets: null };
    const text = pdu(
      OP_TEXT | IMMEDIATE,
      0x80,
      (b) => {
        b.writeUInt32BE(0xffffffff, 20); // Target Transfer Tag: none
        randomBytes(4).copy(b, 16);
        b.writeUInt32BE(l.expCmdSN, 24);
        b.writeUInt32BE((l.statSN + 1) >>> 0, 28);
      },
      keys({ SendTargets: 'All' }),
    );
    const r = readPdu(await c.ask(text, 3000, (b) => readPdu(b) !== null));
    return { login: l, targets: r && r.op === 0x24 ? parseKeys(r.data) : [] };
  });
}

/** A normal session to `target` with no credentials: accepted or not (the connection closes right after). */
export function normalLogin(net: Net, port: number, target: string): Promise<LoginResult | null> {
  return talk(net, port, (c) => login(c, { SessionType: 'Normal', TargetName: target }));
}

/** Detection: the first discovery login PDU on `c`; the target's Login Response (any status) or null. */
export async function loginResponse(c: Conv): Promise<LoginResult | null> {
  return login(c, { SessionType: 'Discovery' });
}

/** The TargetNames a discovery without credentials listed (empty when refused or hidden). */
export const targetNames = (d: Discovery | null): string[] =>
  d?.targets?.filter(([k]) => k === 'TargetName').map(([, v]) => v) ?? [];
