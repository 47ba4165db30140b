import { defineCheck } from '../kit.ts';
import { fingerQuery } from '../../proto/legacy-info.ts';
import { shown } from '../../proto/talk.ts';

/**
 * Finger (RFC 1288) answering the list query (an empty line, §2.5.1) with
 * who is logged in, in the layout finger servers share ("Login  Name  Tty
 * …" columns, or "No one logged on"). RFC 1288 §3.2.1 lets a server refuse
 * that query ("Please supply a username"), and such a server is not
 * reported; what a refusal or an empty reply says proves nothing.
 */
const LISTING = /^\s*Login\s+Name\s+Tty\b|No one logged on/im;

export default defineCheck({
  id: 'vigil.finger.users',
  shortid: 'FINGER-USERS',
  title: 'Finger service lists users to anyone',
  family: 'General',
  categories: ['safe', 'discovery', 'default'],
  risk: 'low',
  type: 'NOTE',
  description:
    'The finger service answers anyone: it lists who is logged in and, per account, the full name, home directory, shell and last login, which hands attackers valid user names for password guessing.',
  solution:
    'Turn the finger service off (remove it from inetd/xinetd or systemd sockets). If it must stay, refuse listing queries (in.fingerd -u) and firewall it from untrusted networks.',
  references: ['https://www.rfc-editor.org/rfc/rfc1288#section-3'],
  ports: { services: ['finger'], ports: [79] },
  run: async ({ net, port }) => {
    const list = await fingerQuery(net, port, '');
    if (!list || !LISTING.test(list)) return null;
    return `The list query (an empty line, RFC 1288 §2.5.1) was answered: "${shown(list, 160)}".`;
  },
});
