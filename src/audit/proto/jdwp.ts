/**
 * The Java Debug Wire Protocol (JDWP, docs.oracle.com/en/java/javase/17/docs/specs/jdwp/jdwp-spec.html):
 * the client sends the 14 ASCII bytes "JDWP-Handshake" and the VM sends
 * them back; then packets of `length(4) id(4) flags(1)` and, for commands,
 * `command set(1) command(1)`, for replies `error code(2)` (flags 0x80).
 * VirtualMachine.Version (set 1, command 1) answers a description, the
 * JDWP version, the VM's version and its name: a read that changes nothing
 * and suspends no thread (nmap's jdwp-version sends the same). A VM
 * closes a connection whose handshake does not arrive within about 2 s.
 */
import type { Net } from '../engine/types.ts';
import { talk } from './talk.ts';

export const JDWP_HANDSHAKE = Buffer.from('JDWP-Handshake', 'latin1');

/** JDWP's usual ports: 5005 (Maven, IDEs), 8000 (jdb, Tomcat's jpda), 8453 (WebLogic), 8787 (WildFly), 9009. */
export const JDWP_PORTS: readonly number[] = [5005, 8000, 8453, 8787, 9009];

/** VirtualMachine.Version, packet id 1. */
export const JDWP_VERSION_REQUEST = Buffer.from([0, 0, 0, 11, 0, 0, 0, 1, 0, 1, 1]);

/** The whole of a packet has arrived (its length field counts its 11-byte header). */
export const jdwpPacketDone = (b: Buffer) => b.length >= 4 && b.length >= b.readUInt32BE(0);

export interface JdwpVersion {
  description: string;
  jdwp: string;
  vmVersion: string;
  vmName: string;
}

/** The handshake and VirtualMachine.Version's reply, or null (no JDWP, or it refused). */
export async function jdwpVersion(net: Net, port: number, ms = 4000): Promise<JdwpVersion | null> {
  return talk(
    net,
    port,
    async (conv) => {
      const hello = await conv.ask(JDWP_HANDSHAKE, ms, (b) => b.length >= JDWP_HANDSHAKE.length);
      if (!hello.subarray(0, JDWP_HANDSHAKE.length).equals(JDWP_HANDSHAKE)) return null;
      const rest = hello.subarray(JDWP_HANDSHAKE.length);
      const more = await conv.ask(JDWP_VERSION_REQUEST, ms, (b) => jdwpPacketDone(Buffer.concat([rest, b])));
      return parseVersionReply(Buffer.concat([rest, more]));
    },
    ms,
  );
}

/** A VirtualMachine.Version reply packet (id 1, flags 0x80, error 0): its four fields. */
export function parseVersionReply(b: Buffer): JdwpVersion | null {
  if (b.length < 11 || b.length < b.readUInt32BE(0)) return null;
  if (b.readUInt32BE(4) !== 1 || b[8] !== 0x80 || b.readUInt16BE(9) !== 0) return null;
  let off = 11;
  const str = (): string | null => {
    if (off + 4 > b.length) return null;
    const n = b.readUInt32BE(off);
    if (off + 4 + n > b.length) return null;
    off += 4 + n;
    return b.subarray(off - n, off).toString('utf8');
  };
  const int = (): number | null => {
    if (off + 4 > b.length) return null;
    off += 4;
    return b.readInt32BE(off - 4);
  };
  const description = str();
  const major = int();
  const minor = int();
  const vmVersion = str();
  const vmName = str();
  if (description === null || major === null || minor === null || vmVersion === null || vmName === null) return null;
  return { description, jdwp: `${major}.${minor}`, vmVersion, vmName };
}
