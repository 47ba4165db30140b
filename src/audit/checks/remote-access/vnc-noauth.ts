import { defineCheck } from '../kit.ts';
import { vncSecurityTypes } from '../../proto/vnc.ts';

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
    const types = await vncSecurityTypes(net, port);
    return types?.includes(1) ? `security types offered: ${types.join(', ')} (1 = None)` : null;
  },
});
