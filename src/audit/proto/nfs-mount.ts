/**
 * The NFS MOUNT protocol (RPC program 100005: version 3 in RFC 1813
 * Appendix I, version 1 in RFC 1094 Appendix A), which every NFSv2/v3
 * server runs beside NFS (Linux rpc.mountd, NFS-Ganesha, the BSDs', NAS
 * appliances'): the export list (EXPORT, procedure 5), a mount (MNT, 1)
 * that hands out an export's root file handle, and UMNT (3), which takes
 * the mount off the server's list again (`showmount -a`). MNT reads and
 * changes no file. mountd has no well-known port: the portmapper names it.
 *
 * The calls share one TCP connection from a privileged source port when
 * one can be bound, as mount(8) does: rpc.mountd refuses MNT from other
 * ports on `secure` exports, the default of exports(5). Without root the
 * connection comes from any port, and such a refusal is then all we see.
 */
import { randomBytes } from 'node:crypto';
import type { Net } from '../engine/types.ts';
import { Conv } from './conv.ts';
import { callMessage, parseReply, pmapGetPort, records, type RpcStatus, Xdr, xdrString } from './rpc.ts';
import { privilegedConnect } from './rsh.ts';

export const MOUNTPROG = 100005;
/** mountd's usual port where it is pinned (Debian's nfs-kernel-server, Ganesha's MNT_Port examples): IANA "mountd". */
export const MOUNTD_PORT = 20048;

export interface Mountd {
  port: number;
  vers: 1 | 3;
}

/** mountd's TCP port and version as the portmapper on `pmapPort` has them (v3 first, as mount(8) asks). */
export async function findMountd(net: Net, pmapPort: number): Promise<Mountd | null> {
  for (const vers of [3, 1] as const) {
    const port = await pmapGetPort(net, pmapPort, MOUNTPROG, vers, 'tcp');
    if (port === null) return null; // refused (MSG_DENIED) or silent
    if (port) return { port, vers };
  }
  return null;
}

/** mountstat3 (RFC 1813 Appendix I; version 1's fhstatus uses the same numbers, errno values). */
export const MOUNT_STATUS: Readonly<Record<number, string>> = {
  0: 'MNT3_OK',
  1: 'MNT3ERR_PERM',
  2: 'MNT3ERR_NOENT',
  5: 'MNT3ERR_IO',
  13: 'MNT3ERR_ACCES',
  20: 'MNT3ERR_NOTDIR',
  22: 'MNT3ERR_INVAL',
  63: 'MNT3ERR_NAMETOOLONG',
  10004: 'MNT3ERR_NOTSUPP',
  10006: 'MNT3ERR_SERVERFAULT',
};

export interface Export {
  dir: string;
  /** The hosts, netgroups or networks it is exported to; empty: to everyone. */
  groups: string[];
}

export interface Mounted {
  dir: string;
  /** mountstat3 / fhstatus: 0 is a mount. */
  status: number;
  /** The root file handle handed out (status 0). */
  handle: Buffer | null;
}

export interface MountdAnswers {
  /** Whether the connection came from a privileged source port (512-1023). */
  privileged: boolean;
  exportStatus: RpcStatus;
  /** EXPORT's list; null when it was not answered with success. */
  exports: Export[] | null;
  /** One MNT per export tried (at most `maxMounts`), each undone by UMNT when it succeeded. */
  mounts: Mounted[];
}

/** `exports`: an XDR optional-data chain of {ex_dir, ex_groups (a chain of names)}; null when malformed. */
export function parseExports(body: Buffer): Export[] | null {
  try {
    const x = new Xdr(body);
    const out: Export[] = [];
    while (x.u32() === 1 && out.length < 200) {
      const dir = x.string(1024);
      const groups: string[] = [];
      while (x.u32() === 1 && groups.length < 100) groups.push(x.string(255));
      out.push({ dir, groups });
    }
    return out;
  } catch {
    return null;
  }
}

/** MNT's result: v3 mountres3 (status, fhandle3 opaque<64>, auth flavors), v1 fhstatus (status, fhandle[32]). */
export function parseMnt(body: Buffer, vers: 1 | 3): { status: number; handle: Buffer | null } | null {
  try {
    const x = new Xdr(body);
    const status = x.u32();
    if (status !== 0) return { status, handle: null };
    const len = vers === 3 ? x.u32() : 32;
    if (len > 64 || x.at + len > body.length) return null;
    return { status, handle: body.subarray(x.at, x.at + len) };
  } catch {
    return null;
  }
}

/** One connection for a few calls, from a privileged port when one can be bound. */
async function open(net: Net, port: number): Promise<{ conv: Conv; privileged: boolean } | null> {
  const privileged = await privilegedConnect(net, port, 4000);
  if (privileged) return { conv: privileged, privileged: true };
  try {
    return { conv: new Conv(await net.connect(port, { timeoutMs: 3000 }), 4000), privileged: false };
  } catch {
    return null;
  }
}

/** One call on the connection (record marking, RFC 5531 §11); null when no reply came. */
async function call(conv: Conv, vers: number, proc: number, args?: Buffer) {
  const xid = randomBytes(4);
  const msg = callMessage(xid, MOUNTPROG, vers, proc, args);
  const mark = Buffer.alloc(4);
  mark.writeUInt32BE((0x80000000 | msg.length) >>> 0);
  const raw = await conv.ask(Buffer.concat([mark, msg]), 4000, (b) => records(b) !== null);
  const rec = records(raw);
  return rec ? parseReply(xid, rec) : null;
}

/**
 * EXPORT, then MNT of each listed export (at most `maxMounts`), UMNT after
 * each mount that succeeded. Null when mountd does not answer EXPORT at all.
 */
export async function askMountd(net: Net, mountd: Mountd, maxMounts = 4): Promise<MountdAnswers | null> {
  const c = await open(net, mountd.port);
  if (!c) return null;
  const { conv, privileged } = c;
  try {
    const listed = await call(conv, mountd.vers, 5);
    if (!listed) return null;
    const exports = listed.status === 'success' ? parseExports(listed.body) : null;
    const mounts: Mounted[] = [];
    for (const e of (exports ?? []).slice(0, maxMounts)) {
      const r = await call(conv, mountd.vers, 1, xdrString(e.dir));
      const m = r?.status === 'success' ? parseMnt(r.body, mountd.vers) : null;
      if (!m) continue;
      mounts.push({ dir: e.dir, ...m });
      // The server's list of mounts (showmount -a) is all a MNT changed: take ours off it.
      if (m.status === 0) await call(conv, mountd.vers, 3, xdrString(e.dir));
    }
    return { privileged, exportStatus: listed.status, exports, mounts };
  } catch {
    return null;
  } finally {
    conv.close();
  }
}
