import { defineCheck } from '../kit.ts';
import { identSelf } from '../../proto/legacy-info.ts';

/**
 * An ident server (RFC 1413) naming the user that owns a connection. The
 * scanner asks about the one connection it can name, the query's own; a
 * server that answers USERID names users for any connection the host
 * holds. One that hides them answers ERROR (HIDDEN-USER, NO-USER …, §6)
 * and is not reported.
 */
export default defineCheck({
  id: 'vigil.ident.users',
  shortid: 'IDENT-USERS',
  title: 'Ident service names the users owning connections',
  family: 'General',
  categories: ['safe', 'discovery', 'default'],
  risk: 'low',
  type: 'NOTE',
  description:
    'The ident (auth, port 113) service tells anyone which local account owns a TCP connection: it reveals the users that services run as and, for outgoing connections, who is behind them.',
  solution:
    "Turn the ident service off, or make it hide user names (oidentd: 'force hide' in the default section; identd's -n or random tokens) and firewall it from untrusted networks.",
  references: ['https://www.rfc-editor.org/rfc/rfc1413'],
  ports: { services: ['ident', 'auth'], ports: [113] },
  run: async ({ net, port }) => {
    const r = await identSelf(net, port);
    if (!r) return null;
    const user = /:\s*USERID\s*:\s*[^:]+:\s*(.+)$/i.exec(r.reply)?.[1]?.trim();
    return user
      ? `Asked "${r.query}" (the query's own connection), it answered "${r.reply}": the account ${user} owns it.`
      : null;
  },
});
