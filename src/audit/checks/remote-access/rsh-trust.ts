import { randomBytes } from 'node:crypto';
import { defineCheck } from '../kit.ts';
import { opening, rExchange } from '../../proto/rsh.ts';
import { shown } from '../../proto/talk.ts';

/**
 * Accounts asked for, each as itself (remote user = local user): root
 * (a "+ +" in /root/.rhosts), then two names sites create for everyone
 * ("+ +" or "+" in /etc/hosts.equiv trusts every non-root account). A
 * short fixed list, never a dictionary.
 */
const USERS = ['root', 'guest', 'user'];

/**
 * rsh (514) and rlogin (513) running a command without a password because
 * the server trusts the client's address (hosts.equiv / .rhosts): the
 * command echoes a random token computed by the shell ($((6*7)), so a
 * terminal echoing what was typed does not count) and `id` names the
 * account. rexec always asks for a password and is not tried.
 */
export default defineCheck({
  id: 'vigil.rsh.trust',
  shortid: 'RSH-TRUST',
  title: 'rsh/rlogin runs commands without a password (hosts.equiv/.rhosts trust)',
  family: 'Remote Access',
  // Runs a command (echo, id) on the target: intrusive, advanced only.
  categories: ['intrusive', 'auth', 'vuln'],
  risk: 'high',
  type: 'HOLE',
  description:
    'The rsh or rlogin server ran a command for a client that gave no password: it trusts the client by address (a "+" in /etc/hosts.equiv or in a .rhosts file), which anyone can claim. Anyone who reaches the port runs commands as that account.',
  solution:
    'Delete /etc/hosts.equiv and every .rhosts file (and /etc/hosts.lpd entries with "+"), turn rsh and rlogin off, and use SSH with keys instead.',
  references: ['https://www.rfc-editor.org/rfc/rfc1282', 'https://manpages.debian.org/rhosts.5'],
  ports: { services: ['login', 'shell'], ports: [513, 514] },
  run: async ({ net, port, service }) => {
    const kind = service?.name === 'login' || (service?.name !== 'shell' && port === 513) ? 'rlogin' : 'rsh';
    const token = `vigil-${randomBytes(4).toString('hex')}`;
    const command = `echo ${token}-$((6*7)); id`;
    const proof = new RegExp(`${token}-42`);
    for (const user of USERS) {
      const reply = await rExchange(
        net,
        port,
        opening(kind, user, command),
        4000,
        // rsh: the command's output up to id's line; rlogin: a password prompt or a shell prompt.
        (t) => /uid=\d+.*\n/.test(t) || /assword|failure|denied|incorrect|[#$%>] $/i.test(t),
        // rlogin: a session, not a command; type it unless the server asked for a password.
        kind === 'rlogin'
          ? async (conv, text) => {
              if (/assword/i.test(text)) return text;
              const more = await conv.ask(`${command}\rexit\r`, 4000, (b) => /uid=\d+/.test(b.toString('latin1')));
              return text + more.toString('latin1');
            }
          : undefined,
      );
      if (!reply || reply.status !== 0 || !proof.test(reply.text)) continue;
      const out = reply.text.slice(reply.text.search(proof));
      return `${kind} as ${user} (client user ${user}, no password) ran "${command}": "${shown(out, 160)}".`;
    }
    return null;
  },
});
