/**
 * Just enough SMB2 ([MS-SMB2]) and NTLMSSP ([MS-NLMP]) for the SMB checks:
 * NEGOTIATE (dialects 2.0.2–3.0.2, no 3.1.1 contexts needed), an anonymous
 * or guest SESSION_SETUP with raw NTLMSSP, and TREE_CONNECT. Our own
 * encoder rather than an npm SMB2 client (@marsaud/smb2, smb2): those open
 * their own sockets and log in with real credentials; every contact here
 * goes through the fence's Net with bounded reads, and no credential is
 * ever sent.
 */
import { randomBytes } from 'node:crypto';
import type { Net } from '../engine/types.ts';
import type { Conv } from './conv.ts';
import { talk } from './talk.ts';

export const STATUS = {
  SUCCESS: 0,
  MORE_PROCESSING: 0xc0000016,
  ACCESS_DENIED: 0xc0000022,
  LOGON_FAILURE: 0xc000006d,
  BAD_NETWORK_NAME: 0xc00000cc,
};
/** SecurityMode bits of the NEGOTIATE response (§2.2.4). */
export const SIGNING_ENABLED = 1;
export const SIGNING_REQUIRED = 2;

export interface Smb2Reply {
  status: number;
  command: number;
  sessionId: Buffer;
  treeId: number;
  /** The body after the 64-byte header; offsets in the body are from the header start (subtract 64). */
  body: Buffer;
}

export class Session {
  private messageId = 0n;
  sessionId: Buffer = Buffer.alloc(8);
  treeId = 0;
  constructor(private readonly conv: Conv) {}

  async request(command: number, body: Buffer): Promise<Smb2Reply | null> {
    const h = Buffer.alloc(64);
    h.write('\xfeSMB', 0, 'latin1');
    h.writeUInt16LE(64, 4);
    h.writeUInt16LE(1, 6); // CreditCharge
    h.writeUInt16LE(command, 12);
    h.writeUInt16LE(32, 14); // CreditRequest
    h.writeBigUInt64LE(this.messageId++, 24);
    h.writeUInt32LE(this.treeId, 36);
    this.sessionId.copy(h, 40);
    const msg = Buffer.concat([h, body]);
    const nb = Buffer.alloc(4);
    nb.writeUInt32BE(msg.length);
    // An interim STATUS_PENDING (0x103, e.g. for a pipe transceive) is followed by the final reply (§3.3.4.2).
    const final = (b: Buffer): number => {
      for (let at = 0; at + 4 <= b.length; ) {
        const end = at + 4 + (b.readUInt32BE(at) & 0xffffff);
        if (end > b.length) return -1;
        if (end - at < 4 + 16 || b.readUInt32LE(at + 12) !== 0x103) return at;
        at = end;
      }
      return -1;
    };
    const all = await this.conv.ask(Buffer.concat([nb, msg]), 3000, (b) => final(b) >= 0);
    const at = final(all);
    if (at < 0) return null;
    const r = all.subarray(at);
    if (r.length < 4 + 64 + 2 || r.subarray(4, 8).toString('latin1') !== '\xfeSMB') return null;
    return {
      status: r.readUInt32LE(12),
      command: r.readUInt16LE(16),
      treeId: r.readUInt32LE(40),
      sessionId: Buffer.from(r.subarray(44, 52)),
      body: r.subarray(68, 4 + (r.readUInt32BE(0) & 0xffffff)),
    };
  }
}

export interface Negotiated {
  dialect: number;
  securityMode: number;
  session: Session;
}

/** SMB2 NEGOTIATE with dialects 2.0.2, 2.1, 3.0, 3.0.2 and signing enabled (not required) on our side. */
export async function negotiate(conv: Conv): Promise<Negotiated | null> {
  const dialects = [0x0202, 0x0210, 0x0300, 0x0302];
  const body = Buffer.alloc(36 + 2 * dialects.length);
  body.writeUInt16LE(36, 0);
  body.writeUInt16LE(dialects.length, 2);
  body.writeUInt16LE(SIGNING_ENABLED, 4);
  randomBytes(16).copy(body, 12);
  dialects.forEach((d, i) => body.writeUInt16LE(d, 36 + 2 * i));
  const session = new Session(conv);
  const r = await session.request(0, body);
  if (!r || r.status !== 0 || r.body.length < 8 || r.body.readUInt16LE(0) !== 65) return null;
  return { securityMode: r.body.readUInt16LE(2), dialect: r.body.readUInt16LE(4), session };
}

const NTLM_FLAGS =
  (0x00000001 | 0x00000004 | 0x00000200 | 0x00008000 | 0x00080000 | 0x02000000 | 0x20000000 | 0x80000000) >>> 0;
const ANONYMOUS = 0x00000800;

function ntlmNegotiate(): Buffer {
  const b = Buffer.alloc(40);
  b.write('NTLMSSP\0', 0, 'latin1');
  b.writeUInt32LE(1, 8);
  b.writeUInt32LE(NTLM_FLAGS, 12);
  return b;
}

/**
 * AUTHENTICATE: anonymous (no user, LM = one zero byte, NT empty; MS-NLMP §3.2.5.1.2) or an unknown user with
 * a random response.
 */
function ntlmAuthenticate(user: string | null): Buffer {
  const lm = user ? randomBytes(24) : Buffer.alloc(1);
  const nt = user ? randomBytes(24) : Buffer.alloc(0);
  const name = Buffer.from(user ?? '', 'utf16le');
  const payload = [lm, nt, Buffer.alloc(0), name, Buffer.alloc(0), Buffer.alloc(0)];
  const head = Buffer.alloc(64);
  head.write('NTLMSSP\0', 0, 'latin1');
  head.writeUInt32LE(3, 8);
  let off = 64;
  payload.forEach((p, i) => {
    head.writeUInt16LE(p.length, 12 + 8 * i);
    head.writeUInt16LE(p.length, 14 + 8 * i);
    head.writeUInt32LE(off, 16 + 8 * i);
    off += p.length;
  });
  head.writeUInt32LE(((NTLM_FLAGS & ~0x02000000) | (user ? 0 : ANONYMOUS)) >>> 0, 60);
  return Buffer.concat([head, ...payload]);
}

function sessionSetup(token: Buffer): Buffer {
  const b = Buffer.alloc(24);
  b.writeUInt16LE(25, 0);
  b[3] = SIGNING_ENABLED;
  b.writeUInt16LE(64 + 24, 12);
  b.writeUInt16LE(token.length, 14);
  return Buffer.concat([b, token]);
}

export interface Login {
  status: number;
  /** SessionFlags: 1 guest, 2 null (anonymous). */
  flags: number;
  /** The CHALLENGE's Version field: Samba sends 6.1 with build 0, Windows its real build. */
  osVersion: { major: number; minor: number; build: number } | null;
}

/** NTLMSSP NEGOTIATE → CHALLENGE → AUTHENTICATE as anonymous (user null) or as an unknown user. */
export async function login(n: Negotiated, user: string | null): Promise<Login | null> {
  const c = await n.session.request(1, sessionSetup(ntlmNegotiate()));
  if (!c || c.status !== STATUS.MORE_PROCESSING) return c ? { status: c.status, flags: 0, osVersion: null } : null;
  n.session.sessionId = Buffer.from(c.sessionId);
  const blob = c.body.subarray(c.body.readUInt16LE(4) - 64, c.body.readUInt16LE(4) - 64 + c.body.readUInt16LE(6));
  const at = blob.indexOf('NTLMSSP\0');
  const chal = at >= 0 ? blob.subarray(at) : Buffer.alloc(0);
  const osVersion =
    chal.length >= 56 && chal.readUInt32LE(20) & 0x02000000
      ? { major: chal[48]!, minor: chal[49]!, build: chal.readUInt16LE(50) }
      : null;
  const r = await n.session.request(1, sessionSetup(ntlmAuthenticate(user)));
  if (!r) return null;
  return { status: r.status, flags: r.status === 0 && r.body.length >= 4 ? r.body.readUInt16LE(2) : 0, osVersion };
}

/** TREE_CONNECT to \\host\share; the share type (1 disk, 2 pipe, 3 print) or the failure status. */
export async function treeConnect(
  n: Negotiated,
  host: string,
  share: string,
): Promise<{ status: number; type: number } | null> {
  const path = Buffer.from(`\\\\${host}\\${share}`, 'utf16le');
  const b = Buffer.alloc(8);
  b.writeUInt16LE(9, 0);
  b.writeUInt16LE(64 + 8, 4);
  b.writeUInt16LE(path.length, 6);
  const r = await n.session.request(3, Buffer.concat([b, path]));
  if (r?.status === 0) n.session.treeId = r.treeId;
  return r ? { status: r.status, type: r.status === 0 && r.body.length >= 3 ? r.body[2]! : 0 } : null;
}

/**
 * Samba's NTLMSSP CHALLENGE carries Version 6.1 build 0 (source3/auth: no real build); Windows sends its
 * build number.
 */
export async function isSamba(net: Net, port: number): Promise<boolean> {
  const l = await talk(net, port, async (c) => {
    const n = await negotiate(c);
    return n ? login(n, null) : null;
  });
  return !!l?.osVersion && l.osVersion.build === 0;
}

/** SMB1 NEGOTIATE offering only "NT LM 0.12": an SMB1 answer means SMBv1 is enabled. */
const SMB1_NEGOTIATE = (() => {
  const dialect = Buffer.concat([Buffer.from([0x02]), Buffer.from('NT LM 0.12\0')]);
  const header = Buffer.alloc(32);
  header.write('\xffSMB', 0, 'latin1');
  header[4] = 0x72; // SMB_COM_NEGOTIATE
  header[9] = 0x18; // flags: canonical paths, case-insensitive
  header.writeUInt16LE(0xc801, 10); // flags2: unicode, NT status, long names
  const body = Buffer.concat([Buffer.from([0x00]), Buffer.from([dialect.length & 0xff, dialect.length >> 8]), dialect]);
  const smb = Buffer.concat([header, body]);
  const nbss = Buffer.from([0x00, 0x00, smb.length >> 8, smb.length & 0xff]);
  return Buffer.concat([nbss, smb]);
})();

export function smb1Accepted(net: Net, port: number): Promise<boolean | null> {
  return talk(net, port, async (c) => {
    const r = await c.ask(SMB1_NEGOTIATE, 3000, (b) => b.length >= 4 && b.length >= 4 + b.readUInt16BE(2));
    if (r.length < 13) return null;
    // An SMB1 reply with status 0 and a dialect index other than 0xFFFF (none accepted).
    if (r.subarray(4, 8).toString('latin1') !== '\xffSMB') return false;
    const status = r.readUInt32LE(9);
    const dialect = r.length >= 39 ? r.readUInt16LE(37) : 0xffff;
    return status === 0 && dialect !== 0xffff;
  });
}
