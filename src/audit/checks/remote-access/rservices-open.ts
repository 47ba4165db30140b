import { defineCheck } from '../kit.ts';
import { opening, R_PORTS, rExchange, type RService } from '../../proto/rsh.ts';
import { shown } from '../../proto/talk.ts';

/** Detection's names (nmap's) for the three services. */
const BY_NAME: Readonly<Record<string, RService>> = { exec: 'rexec', login: 'rlogin', shell: 'rsh' };
/** An account no system has: the server answers the protocol and then refuses it, and nothing runs. */
const NOBODY = 'vigil-no-such-user';

/**
 * rlogin, rsh and rexec (RFC 1282; the BSD rcmd/rexec protocols) send
 * passwords and sessions in clear text and trust client addresses and
 * source ports (hosts.equiv, .rhosts). Proof is the protocol's answer to
 * its opening: the NUL byte (go on: a password prompt or "Authentication
 * failure" follows) or 1 and an error text. A connection closed without a
 * byte (TCP wrappers, a client port the server does not trust) proves
 * nothing and is not reported.
 */
export default defineCheck({
  // No CVE: CVE-1999-0651 ("rsh/rlogin running") and CVE-1999-0618 ("rexec running") name a configuration,
  // as the rejected CVE-1999-0619 (telnet) does.
  id: 'vigil.rservices.open',
  shortid: 'RSERVICES',
  title: 'BSD remote login service open (rlogin, rsh, rexec)',
  family: 'Remote Access',
  categories: ['safe', 'discovery', 'default'],
  risk: 'medium',
  type: 'HOLE',
  description:
    'A BSD remote login service answers: rlogin, rsh and rexec send passwords and whole sessions in clear text, and rlogin and rsh let in clients by their address and source port alone when hosts.equiv or .rhosts trust them, which anyone on the network can forge.',
  solution:
    'Turn rlogin, rsh and rexec off (remove them from inetd/xinetd or systemd sockets, uninstall rsh-server packages), delete hosts.equiv and every .rhosts file, and use SSH instead.',
  references: ['https://www.rfc-editor.org/rfc/rfc1282'],
  ports: { services: ['login', 'shell', 'exec'], ports: [512, 513, 514] },
  run: async ({ net, port, service }) => {
    const kind = BY_NAME[service?.name ?? ''] ?? R_PORTS[port];
    if (!kind) return null;
    const reply = await rExchange(net, port, opening(kind, NOBODY, ''), 3000, (t) =>
      /assword|failure|denied|incorrect|\n/i.test(t),
    );
    if (!reply) return null;
    const said = shown(reply.text, 100);
    return reply.status === 0
      ? `${kind} answered its opening "${reply.sent}" with a NUL byte (go on)${said ? ` and "${said}"` : ''}: a cleartext ${kind} server.`
      : `${kind} answered its opening "${reply.sent}" with a refusal (byte 1) "${said}": a cleartext ${kind} server.`;
  },
});
