/**
 * The share list, as `smbclient -L` gets it: the srvsvc pipe on IPC$ and
 * NetrShareEnum level 1 ([MS-SRVS] §3.1.4.8, opnum 15) in DCE/RPC
 * ([C706] connection-oriented PDUs), sent through FSCTL_PIPE_TRANSCEIVE.
 * The guest check then knows the real share names instead of guessing.
 */
import { treeConnect, type Negotiated } from './smb.ts';

const uuid = (s: string) => {
  const h = s.replace(/-/g, '');
  const b = Buffer.from(h, 'hex');
  // The first three fields are little-endian on the wire.
  return Buffer.concat([
    Buffer.from(b.subarray(0, 4)).reverse(),
    Buffer.from(b.subarray(4, 6)).reverse(),
    Buffer.from(b.subarray(6, 8)).reverse(),
    b.subarray(8),
  ]);
};
const SRVSVC = Buffer.concat([uuid('4b324fc8-1670-01d3-1278-5a47bf6ee188'), Buffer.from([3, 0, 0, 0])]);
const NDR = Buffer.concat([uuid('8a885d04-1ceb-11c9-9fe8-08002b104860'), Buffer.from([2, 0, 0, 0])]);

function pdu(type: number, callId: number, body: Buffer): Buffer {
  const h = Buffer.from([5, 0, type, 3, 0x10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
  h.writeUInt16LE(16 + body.length, 8);
  h.writeUInt32LE(callId, 12);
  return Buffer.concat([h, body]);
}

function bind(): Buffer {
  const b = Buffer.alloc(12);
  b.writeUInt16LE(4280, 0);
  b.writeUInt16LE(4280, 2);
  b[8] = 1; // one context
  const ctx = Buffer.concat([Buffer.from([0, 0, 1, 0]), SRVSVC, NDR]);
  return pdu(11, 1, Buffer.concat([b, ctx]));
}

const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n >>> 0);
  return b;
};
/** A conformant varying UTF-16 string with its terminating NUL, padded to 4. */
function ndrString(s: string): Buffer {
  const chars = Buffer.from(`${s}\0`, 'utf16le');
  const n = chars.length / 2;
  return Buffer.concat([u32(n), u32(0), u32(n), chars, Buffer.alloc((4 - (chars.length % 4)) % 4)]);
}

function netShareEnum(server: string): Buffer {
  const stub = Buffer.concat([
    u32(0x20000),
    ndrString(`\\\\${server}`),
    u32(1),
    u32(1),
    u32(0x20004),
    u32(0),
    u32(0),
    u32(0xffffffff),
    u32(0x20008),
    u32(0),
  ]);
  const head = Buffer.alloc(8);
  head.writeUInt32LE(stub.length, 0);
  head.writeUInt16LE(15, 6); // opnum NetrShareEnum
  return pdu(0, 2, Buffer.concat([head, stub]));
}

/** Shares from a NetrShareEnum level-1 response stub: name and type (0 disk, 1 printer, 3 IPC; high bits special). */
export function parseShares(stub: Buffer): { name: string; type: number }[] {
  let at = 0;
  const r32 = () => {
    const v = stub.readUInt32LE(at);
    at += 4;
    return v;
  };
  const str = () => {
    const max = r32();
    r32();
    const actual = r32();
    if (actual > max || actual > 1024) throw new Error('bad string');
    const s = stub
      .subarray(at, at + actual * 2)
      .toString('utf16le')
      .replace(/\0+$/, '');
    at += actual * 2;
    at += (4 - (at % 4)) % 4;
    return s;
  };
  r32(); // level
  r32(); // switch
  if (!r32()) return [];
  const count = r32();
  if (!r32() || count > 256) return [];
  r32(); // conformance
  const entries = Array.from({ length: count }, () => ({ name: r32(), type: r32(), remark: r32() }));
  return entries.map((e) => {
    const name = e.name ? str() : '';
    if (e.remark) str();
    return { name, type: e.type };
  });
}

/** FSCTL_PIPE_TRANSCEIVE on an open pipe: one PDU in, one out. */
async function transceive(n: Negotiated, fileId: Buffer, input: Buffer): Promise<Buffer | null> {
  const b = Buffer.alloc(56);
  b.writeUInt16LE(57, 0);
  b.writeUInt32LE(0x0011c017, 4);
  fileId.copy(b, 8);
  b.writeUInt32LE(64 + 56, 24);
  b.writeUInt32LE(input.length, 28);
  b.writeUInt32LE(65536, 44);
  b.writeUInt32LE(1, 48); // SMB2_0_IOCTL_IS_FSCTL
  const r = await n.session.request(11, Buffer.concat([b, input]));
  if (!r || (r.status !== 0 && r.status !== 0x80000005) || r.body.length < 40) return null;
  const off = r.body.readUInt32LE(32) - 64;
  return r.body.subarray(off, off + r.body.readUInt32LE(36));
}

/** The disk shares a logged-in session can list through IPC$, or null if it may not. */
export async function listShares(n: Negotiated, host: string): Promise<string[] | null> {
  const ipc = await treeConnect(n, host, 'IPC$');
  if (!ipc || ipc.status !== 0) return null;
  const name = Buffer.from('srvsvc', 'utf16le');
  const create = Buffer.alloc(56);
  create.writeUInt16LE(57, 0);
  create.writeUInt32LE(2, 4); // impersonation
  create.writeUInt32LE(0x0012019f, 24); // read/write data and attributes
  create.writeUInt32LE(7, 32); // share read, write, delete
  create.writeUInt32LE(1, 36); // FILE_OPEN
  create.writeUInt16LE(64 + 56, 44);
  create.writeUInt16LE(name.length, 46);
  const opened = await n.session.request(5, Buffer.concat([create, name]));
  if (!opened || opened.status !== 0 || opened.body.length < 80) return null;
  const fileId = Buffer.from(opened.body.subarray(64, 80));
  const ack = await transceive(n, fileId, bind());
  if (!ack || ack[2] !== 12) return null; // bind_ack
  const resp = await transceive(n, fileId, netShareEnum(host));
  if (!resp || resp[2] !== 2 || resp.length < 24) return null;
  try {
    return parseShares(resp.subarray(24))
      .filter((s) => (s.type & 0xffff) === 0 && s.name)
      .map((s) => s.name);
  } catch {
    return null;
  }
}
