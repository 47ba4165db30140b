/**
 * The SANE network protocol (saned, TCP 6566; sane-backends doc/net.tex,
 * sanei/sanei_wire.c): big-endian 32-bit words, strings as a word length
 * (terminating NUL included, 0 for a null pointer) and the bytes.
 * SANE_NET_INIT (0: version code, user name) is answered with a status and
 * the server's version code; saned applies its host list (saned.conf) to
 * it, and to a host not listed answers SANE_STATUS_ACCESS_DENIED (older
 * saned) or closes the connection without a reply (saned 1.2, measured).
 * SANE_NET_GET_DEVICES (1) lists the scanners: a status, then an array of
 * device pointers (the terminating null one counted), each a null flag and
 * four strings (name, vendor, model, type). Nothing here opens a device or
 * scans.
 */
import type { Net } from '../engine/types.ts';
import type { Conv } from './conv.ts';
import { talk } from './talk.ts';

export const SANE_PORT = 6566;

/** SANE_Status (sane.h). */
export const SANE_STATUS = [
  'GOOD',
  'UNSUPPORTED',
  'CANCELLED',
  'DEVICE_BUSY',
  'INVAL',
  'EOF',
  'JAMMED',
  'NO_DOCS',
  'COVER_OPEN',
  'IO_ERROR',
  'NO_MEM',
  'ACCESS_DENIED',
] as const;

const word = (...v: number[]) =>
  Buffer.concat(v.map((n) => Buffer.from([n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255])));
function string(s: string): Buffer {
  const b = Buffer.from(`${s}\0`, 'latin1');
  return Buffer.concat([word(b.length), b]);
}

/** SANE_VERSION_CODE(1, 0, 3): SANE 1.0, network protocol 3 (SANEI_NET_PROTOCOL_VERSION), what scanimage sends. */
const CLIENT_VERSION = (1 << 24) | 3;

/** SANE_NET_INIT from user `user`. */
export const initRequest = (user: string) => Buffer.concat([word(0, CLIENT_VERSION), string(user)]);
export const GET_DEVICES = word(1);

export interface SaneInit {
  status: number;
  statusName: string;
  /** The server's version code as major.minor.build; null on a refusal (saned sends 0 then). */
  version: string | null;
}

/**
 * The INIT reply: exactly a status of sane.h's list and a version code of
 * major 1, or 0 beside a refusal (saned's init() zeroes it unless GOOD);
 * null otherwise.
 */
export function parseInit(b: Buffer): SaneInit | null {
  if (b.length !== 8) return null;
  const status = b.readUInt32BE(0);
  const v = b.readUInt32BE(4);
  if (status >= SANE_STATUS.length || (v >>> 24 !== 1 && (status === 0 || v !== 0))) return null;
  const version = v ? `${v >>> 24}.${(v >>> 16) & 255}.${v & 0xffff}` : null;
  return { status, statusName: SANE_STATUS[status]!, version };
}

export interface SaneDevice {
  name: string;
  vendor: string;
  model: string;
  type: string;
}

class Reader {
  at = 0;
  constructor(readonly b: Buffer) {}
  word(): number {
    if (this.at + 4 > this.b.length) throw new RangeError('short');
    const v = this.b.readUInt32BE(this.at);
    this.at += 4;
    return v;
  }
  string(): string {
    const n = this.word();
    if (n > 4096 || this.at + n > this.b.length) throw new RangeError('string');
    const s = this.b.toString('latin1', this.at, this.at + n).replace(/\0$/, '');
    this.at += n;
    return s;
  }
}

/** The GET_DEVICES reply once complete: status and devices; undefined while bytes are missing, null when malformed. */
export function parseDevices(b: Buffer): { status: number; devices: SaneDevice[] } | null | undefined {
  try {
    const r = new Reader(b);
    const status = r.word();
    if (status >= SANE_STATUS.length) return null;
    if (status !== 0) return { status, devices: [] };
    const len = r.word();
    if (len > 256) return null;
    const devices: SaneDevice[] = [];
    for (let i = 0; i < len; i++) {
      if (r.word() === 1) continue; // the null pointer that ends the list
      devices.push({ name: r.string(), vendor: r.string(), model: r.string(), type: r.string() });
    }
    return { status, devices };
  } catch {
    return undefined;
  }
}

/** INIT, then (when granted) GET_DEVICES, on one connection. */
async function initAndList(conv: Conv, user: string): Promise<{ init: SaneInit; devices: SaneDevice[] | null } | null> {
  const init = parseInit(await conv.ask(initRequest(user), 3000, (b) => b.length >= 8));
  if (!init) return null;
  if (init.status !== 0) return { init, devices: null };
  const reply = parseDevices(await conv.ask(GET_DEVICES, 8000, (b) => parseDevices(b) !== undefined));
  return { init, devices: reply && reply.status === 0 ? reply.devices : null };
}

/** saned on `port`: what INIT answered and, when granted, the devices; null when it is not SANE. */
export const saneDevices = (net: Net, port: number, user = 'vigil') =>
  talk(net, port, (conv) => initAndList(conv, user), 10_000);
