import { defineCheck } from '../kit.ts';
import { describeOffer, VNC_TYPE_NAMES, sharedVncOffer } from '../../proto/vnc.ts';

/** RFB security types that encrypt the session: RA2 (5), TLS (18), VeNCrypt (19). */
const VNC_ENCRYPTED = new Set([5, 18, 19]);
/**
 * VeNCrypt sub-types without TLS: None (1), VncAuth (2) and Plain (256, a
 * user name and password in clear). Every other sub-type (TLS*, X509*)
 * starts with a TLS handshake: TigerVNC's TLSVnc and X509Vnc twins offer
 * [19] with [258] or [261] only, and are not reported.
 */
const VENCRYPT_CLEAR = new Set([1, 2, 256]);

/**
 * Information (LOG), as vigil.ssh.password-auth is: "VNC Authentication"
 * (type 2) behind a password is how VNC servers are hardened in practice
 * (x11vnc -rfbauth, TigerVNC's default VncAuth, RealVNC's password mode),
 * and a NOTE here was an alarm on every such hardened server. nmap's
 * vnc-info lists type 2 without a warning; it warns on None only, which
 * vigil.vnc.noauth reports as a HOLE. The finding still says the session
 * travels in clear, for who wants to move to VeNCrypt or a tunnel.
 */

export default defineCheck({
  id: 'vigil.vnc.unencrypted',
  shortid: 'VNC-UNENCRYPTED',
  title: 'VNC server allows unencrypted sessions',
  family: 'Remote Access',
  categories: ['safe', 'desktop', 'default'],
  risk: 'other',
  type: 'LOG',
  description:
    'The VNC server offers a security type without encryption (classic "VNC Authentication" uses an 8-character password and a DES challenge that can be cracked offline; the session itself travels in clear).',
  solution: 'Offer only VeNCrypt/TLS or RA2, or tunnel VNC over SSH or a VPN.',
  ports: { services: ['vnc'], ports: [5900, 5901] },
  run: async ({ net, port }) => {
    const offer = await sharedVncOffer(net, port);
    if (!offer) return null;
    const clear = [
      ...offer.types.filter((t) => !VNC_ENCRYPTED.has(t)),
      ...(offer.vencrypt ?? []).filter((t) => VENCRYPT_CLEAR.has(t)),
    ];
    const unique = [...new Set(clear)];
    return unique.length
      ? `security types offered: ${describeOffer(offer)}; without encryption: ${unique.map((t) => `${t} ${VNC_TYPE_NAMES[t] ?? '?'}`).join(', ')}`
      : null;
  },
});
