/**
 * JDWP (the Java debug port): silent until a client sends "JDWP-Handshake",
 * which the VM echoes, then answers commands. The probe sends the
 * handshake and VirtualMachine.Version at once, as nmap's jdwp-version
 * does, and waits for the whole reply packet: the handshake alone would
 * pass for an echo server's answer (detect.ts names a reply equal to the
 * probe `echo`). Tried on the usual debug ports only (the connection is
 * dropped at once elsewhere): a JVM closes a connection without a
 * handshake after ~2 s, and other ports should not pay for a rare service.
 */
import {
  JDWP_HANDSHAKE,
  JDWP_PORTS,
  JDWP_VERSION_REQUEST,
  jdwpPacketDone,
  parseVersionReply,
} from '../../proto/jdwp.ts';
import type { Family } from './family.ts';

const N = JDWP_HANDSHAKE.length;

export const jdwp: Family = {
  id: 'jdwp',
  ports: JDWP_PORTS,
  only: true,
  async probe(conv, s) {
    const r = await conv.ask(Buffer.concat([JDWP_HANDSHAKE, JDWP_VERSION_REQUEST]), 2000, (b) =>
      b.length >= N && !b.subarray(0, N).equals(JDWP_HANDSHAKE) ? true : jdwpPacketDone(b.subarray(N)),
    );
    if (!r.subarray(0, N).equals(JDWP_HANDSHAKE)) return false;
    const v = parseVersionReply(r.subarray(N));
    if (!v) return false;
    Object.assign(s, { name: 'jdwp', product: 'Java Debug Wire Protocol', version: v.vmVersion || null });
    s.extra.vm = v.vmName;
    return true;
  },
};
