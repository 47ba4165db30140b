import { defineCheck } from '../kit.ts';
import { vncSecurityTypes } from '../../proto/vnc.ts';

/** RFB security types that encrypt the session: RA2 (5), TLS (18), VeNCrypt (19). */
const VNC_ENCRYPTED = new Set([5, 18, 19]);

export default defineCheck({
  id: 'vigil.vnc.unencrypted',
  shortid: 'VNC-UNENCRYPTED',
  title: 'VNC server allows unencrypted sessions',
  family: 'Remote Access',
  categories: ['safe', 'desktop', 'default'],
  risk: 'medium',
  type: 'NOTE',
  description:
    'The VNC server offers a security type without encryption (classic "VNC Authentication" uses an 8-character password and a DES challenge that can be cracked offline; the session itself travels in clear).',
  solution: 'Offer only VeNCrypt/TLS or RA2, or tunnel VNC over SSH or a VPN.',
  ports: { services: ['vnc'], ports: [5900, 5901] },
  run: async ({ net, port }) => {
    const types = await vncSecurityTypes(net, port);
    const clear = types?.filter((t) => !VNC_ENCRYPTED.has(t)) ?? [];
    return clear.length
      ? `security types offered: ${types!.join(', ')}; without encryption: ${clear.join(', ')}`
      : null;
  },
});
