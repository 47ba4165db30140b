/** VNC (RFB, RFC 6143): the security types a server offers. */
import type { Net } from '../engine/types.ts';
import { talk } from './talk.ts';

/** RFB security types and VeNCrypt sub-types by name (RFC 6143 §8.1.2; VeNCrypt as TigerVNC, QEMU and libvncserver number them). */
export const VNC_TYPE_NAMES: Readonly<Record<number, string>> = {
  1: 'None',
  2: 'VncAuth',
  5: 'RA2',
  16: 'Tight',
  18: 'TLS',
  19: 'VeNCrypt',
  256: 'Plain',
  257: 'TLSNone',
  258: 'TLSVnc',
  259: 'TLSPlain',
  260: 'X509None',
  261: 'X509Vnc',
  262: 'X509Plain',
  263: 'TLSSASL',
  264: 'X509SASL',
};

/** What a VNC server offers: its security types and, where VeNCrypt (19) is one, VeNCrypt's sub-types. */
export interface VncOffer {
  types: number[];
  /** Null when VeNCrypt is not offered or its sub-type list could not be read. */
  vencrypt: number[] | null;
  /**
   * None chosen: true when the SecurityResult said OK (RFB 3.8), false when it said failed, null when not
   * asked or unread. Undefined when None was not offered.
   */
  noneAccepted?: boolean | null;
}

/**
 * The security types, and behind VeNCrypt (19) the sub-types it offers: a
 * server that offers VeNCrypt alone (TigerVNC's `-SecurityTypes TLSNone`)
 * hides there whether it asks for anything at all. Reading the list is the
 * step every VeNCrypt client takes before its TLS handshake: select 19, agree
 * on version 0.2, read the server's ack and sub-types (VeNCrypt as
 * documented in rfbproto's "VeNCrypt" section); nothing is authenticated and
 * the connection is closed before any TLS handshake or sub-type choice.
 * Where None (1) is offered it is chosen instead and the SecurityResult
 * read: OK proves the desktop is open, and nothing follows (no ClientInit,
 * so no viewer is disconnected by a non-shared session).
 */
export function vncOffer(net: Net, port: number): Promise<VncOffer | null> {
  return talk(net, port, async (c) => {
    const hello = (await c.read(3000, (b) => b.length >= 12)).toString('latin1');
    const m = /^RFB (\d{3})\.(\d{3})\n/.exec(hello);
    if (!m) return null;
    const minor = Number(m[2]);
    if (minor < 7) {
      const r = await c.ask('RFB 003.003\n', 3000, (b) => b.length >= 4);
      return r.length >= 4 ? { types: [r.readUInt32BE(0)], vencrypt: null } : null;
    }
    const version = minor >= 8 ? 'RFB 003.008\n' : 'RFB 003.007\n';
    const r = await c.ask(version, 3000, (b) => b.length >= 1 && b.length >= 1 + b[0]!);
    if (r.length < 1 || r[0] === 0 || r.length < 1 + r[0]!) return null;
    const types = [...r.subarray(1, 1 + r[0]!)];
    if (types.includes(1)) {
      // None offered: choose it and read the SecurityResult (RFB 3.8 sends one for None too, §7.1.3), then
      // close before ClientInit, so that no shared-session decision is made and no viewer is disconnected.
      if (minor < 8) return { types, vencrypt: null, noneAccepted: null };
      const res = await c.ask(Buffer.from([1]), 3000, (b) => b.length >= 4);
      return { types, vencrypt: null, noneAccepted: res.length >= 4 ? res.readUInt32BE(0) === 0 : null };
    }
    if (!types.includes(19)) return { types, vencrypt: null };
    const v = await c.ask(Buffer.from([19]), 3000, (b) => b.length >= 2);
    if (v.length < 2 || v[0] !== 0 || v[1]! < 2) return { types, vencrypt: null };
    // Ack (0 = version accepted), a count, then that many U32 sub-types.
    const list = await c.ask(Buffer.from([0, 2]), 3000, (b) => b.length >= 2 && b.length >= 2 + 4 * b[1]!);
    if (list.length < 2 || list[0] !== 0 || list.length < 2 + 4 * list[1]!) return { types, vencrypt: null };
    return { types, vencrypt: Array.from({ length: list[1]! }, (_, i) => list.readUInt32BE(2 + 4 * i)) };
  });
}

const offers = new WeakMap<Net, Map<number, Promise<VncOffer | null>>>();

/**
 * vncOffer, asked once per port of an audit (its Net) and shared by the
 * checks that read it. TigerVNC counts every connection closed during the
 * security handshake as a failure and refuses the address after five
 * from the same address (Xvnc 1.12, measured: the sixth connection from
 * 127.0.0.1 was closed with "blacklisted"; detection's greeting, read and
 * closed, counts too). A handshake finished through None clears the count
 * (measured: three rounds of four greetings and one None handshake, never
 * blacklisted), which is one more reason vncOffer finishes it.
 */
export function sharedVncOffer(net: Net, port: number): Promise<VncOffer | null> {
  let byPort = offers.get(net);
  if (!byPort) offers.set(net, (byPort = new Map()));
  let offer = byPort.get(port);
  if (!offer) byPort.set(port, (offer = vncOffer(net, port)));
  return offer;
}

/** "19 (VeNCrypt: 257 TLSNone, 258 TLSVnc)": an offer as a finding quotes it. */
export function describeOffer(o: VncOffer): string {
  const named = (t: number) => `${t} ${VNC_TYPE_NAMES[t] ?? '?'}`;
  return o.types
    .map((t) => (t === 19 && o.vencrypt ? `${named(t)} (sub-types ${o.vencrypt.map(named).join(', ')})` : named(t)))
    .join(', ');
}
