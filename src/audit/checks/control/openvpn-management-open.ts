import { openvpnManagement } from '../../proto/openvpn-management.ts';
import { shown } from '../../proto/talk.ts';
import { defineCheck } from '../kit.ts';

/**
 * OpenVPN's management interface on TCP without a password file: the
 * greeting comes at once (no "ENTER PASSWORD:") and `version` and `state`
 * are answered. Those two reads are the proof; a port that asks for the
 * password is not reported, and no password is tried.
 */
export default defineCheck({
  id: 'vigil.openvpn.management-open',
  shortid: 'OPENVPN-MGMT-OPEN',
  title: 'OpenVPN management interface without a password',
  family: 'General',
  categories: ['safe', 'auth', 'default'],
  risk: 'high',
  type: 'HOLE',
  description:
    "OpenVPN's management interface accepts commands without a password: anyone who reaches it can list the connected clients and their addresses (status), disconnect them (kill), answer the daemon's password and private-key prompts, and stop or restart the VPN (signal SIGTERM, signal SIGHUP).",
  solution:
    'Give --management a password file (management IP PORT /etc/openvpn/management-pw) and bind it to 127.0.0.1, or use a Unix socket (management /run/openvpn/mgmt.sock unix).',
  references: [
    'https://openvpn.net/community-resources/management-interface/',
    'https://github.com/OpenVPN/openvpn/blob/master/doc/management-notes.txt',
  ],
  ports: { services: ['openvpn-management'], ports: [7505] },
  run: async ({ net, port }) => {
    const m = await openvpnManagement(net, port);
    if (!m || m.password || !m.version?.length) return null;
    const version = m.version.find((l) => /OpenVPN Version:/i.test(l)) ?? m.version[0]!;
    const state = m.state?.length ? `; "state" answered "${shown(m.state[0]!, 80)}"` : '';
    return `The port greeted "${shown(m.greeting, 90)}" without asking for a password; "version" answered "${shown(version, 100)}"${state}.`;
  },
});
