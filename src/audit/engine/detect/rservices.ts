/**
 * The BSD remote services on their usual ports (exec 512, login 513,
 * shell 514): silent to a client from an unprivileged port (rlogind and
 * rshd close without a byte, so nmap names them by port number alone), so
 * named only when the protocol's opening, sent from a privileged port
 * (proto/rsh.ts), is answered with NUL or 1 and a message.
 */
import { opening, R_PORTS, rExchange } from '../../proto/rsh.ts';
import type { Family } from './family.ts';

const NAMES = { rexec: 'exec', rlogin: 'login', rsh: 'shell' } as const;

export const rservices: Family = {
  id: 'rservices',
  ports: [512, 513, 514],
  only: true,
  async probe(conv, s, net) {
    const kind = R_PORTS[conv.socket.remotePort ?? 0];
    if (!kind) return false;
    conv.close();
    const reply = await rExchange(net, s.port, opening(kind, 'vigil-no-such-user', ''), 1500, (t) => t.length > 0);
    if (!reply) return false;
    Object.assign(s, { name: NAMES[kind], product: null });
    s.extra.rservice = `${kind} answered ${reply.status === 0 ? 'NUL (go on)' : 'a refusal'}`;
    s.banner =
      reply.text
        .replace(/[^\x20-\x7e]+/g, ' ')
        .trim()
        .slice(0, 120) || null;
    return true;
  },
};
