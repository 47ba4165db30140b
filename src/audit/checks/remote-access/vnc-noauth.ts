import { defineCheck } from '../kit.ts';
import { describeOffer, VNC_TYPE_NAMES, sharedVncOffer } from '../../proto/vnc.ts';

/**
 * Security types that let anyone in: None (1), and behind VeNCrypt (19) the
 * sub-types that wrap None in TLS (257 TLSNone, 260 X509None) or list None
 * itself. A server that offers only VeNCrypt (TigerVNC's
 * `-SecurityTypes TLSNone`, measured: types [19], sub-types [257]) looked
 * locked from the type list alone; TLS there hides the session from the
 * path, not the desktop from whoever connects. Where None is offered it is
 * chosen and the SecurityResult read (RFB 3.8): OK is the proof, and it
 * also clears TigerVNC's count of failed connections from our address
 * (proto/vnc.ts: five unfinished handshakes blacklist the scanner).
 */
const NO_AUTH = new Set([1]);
const NO_AUTH_VENCRYPT = new Set([1, 257, 260]);

export default defineCheck({
  id: 'vigil.vnc.noauth',
  shortid: 'VNC-NOAUTH',
  title: 'VNC server without authentication',
  family: 'Remote Access',
  categories: ['safe', 'desktop', 'auth', 'default'],
  risk: 'high',
  cves: ['CVE-2006-2369'],
  type: 'HOLE',
  description: 'The VNC server offers the security type "None": anyone who connects sees and controls the desktop.',
  solution:
    "Require authentication in the VNC server's settings (a password, or VeNCrypt with user accounts), and reach it only through an SSH tunnel or VPN.",
  ports: { services: ['vnc'], ports: [5900, 5901] },
  run: async ({ net, port }) => {
    const offer = await sharedVncOffer(net, port);
    if (!offer) return null;
    const open = [
      ...offer.types.filter((t) => NO_AUTH.has(t)),
      ...(offer.vencrypt ?? []).filter((t) => NO_AUTH_VENCRYPT.has(t)),
    ];
    if (!open.length || offer.noneAccepted === false) return null;
    const how = offer.vencrypt
      ? ' (sub-types read after choosing VeNCrypt 0.2, before any TLS handshake)'
      : offer.noneAccepted
        ? '; None chosen, SecurityResult OK (closed before ClientInit)'
        : '';
    return `security types offered: ${describeOffer(offer)}; without authentication: ${open.map((t) => `${t} = ${VNC_TYPE_NAMES[t]}`).join(', ')}${how}`;
  },
});
