import { defineCheck } from '../kit.ts';
import { rusersNames } from '../../proto/rusers.ts';
import { shown } from '../../proto/talk.ts';

/**
 * rusersd answering RUSERSPROC_NAMES: who is logged in, on which terminal,
 * from where, like finger's user list. Found through the portmapper
 * (GETPORT for program 100002), so reported on the portmapper's port, with
 * rusersd's own port in the detail. An empty list is still an answer: the
 * service tells anyone whenever someone logs in.
 */
export default defineCheck({
  id: 'vigil.rusers.users',
  shortid: 'RUSERS-USERS',
  title: 'rusers service lists logged-in users to anyone',
  family: 'General',
  categories: ['safe', 'discovery', 'default'],
  risk: 'low',
  type: 'NOTE',
  description:
    'The rusersd RPC service answers anyone with the users logged in to the host, their terminals and the hosts they came from: valid account names for password guessing, and when the administrators are around.',
  solution:
    'Turn rusersd off (remove the rusersd package or its inetd entry) and firewall port 111 and the RPC ports from untrusted networks.',
  references: ['https://manpages.debian.org/rpc.rusersd.8'],
  ports: { services: ['rpcbind', 'sunrpc'], ports: [111] },
  run: async ({ net, port }) => {
    const r = await rusersNames(net, port);
    if (!r) return null;
    const who = r.logins.map((l) => `${l.user}@${l.line}${l.host ? ` from ${l.host}` : ''}`).join(', ');
    return `rusersd (program 100002 v${r.vers}, ${r.proto}/${r.port}, found through the portmapper on ${port}) answered RUSERSPROC_NAMES: ${r.logins.length} logged in${who ? `: ${shown(who, 200)}` : ''}.`;
  },
});
