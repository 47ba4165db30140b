import { haproxyRuntime } from '../../proto/haproxy-cli.ts';
import { shown } from '../../proto/talk.ts';
import { defineCheck } from '../kit.ts';

/**
 * HAProxy's runtime API (a `stats socket` on TCP, or the master CLI)
 * answering anyone. The socket has no password; its level decides:
 * - admin (or the master CLI, which reloads HAProxy and reaches every
 *   worker at admin level): HOLE, high. Proof: `show info` (or `show
 *   proc`) answered, and `show cli level` answering "admin" (2.0+), else
 *   `help` listing an admin command.
 * - operator or user: the same answers without the admin level: a NOTE,
 *   medium (version, process, every frontend, backend and server with its
 *   counters; operator may also change a few settings and clear counters).
 * Decision: a runtime API on TCP is a finding at any level, because its
 * answers are an inventory no outsider needs; the hardened configuration
 * is the socket on a Unix path (Debian's default, /run/haproxy/admin.sock),
 * which no scan reaches. Only reads are sent.
 */
export default defineCheck({
  id: 'vigil.haproxy.runtime-api-open',
  shortid: 'HAPROXY-RUNTIME-API',
  title: 'HAProxy runtime API open on the network',
  family: 'General',
  categories: ['safe', 'auth', 'default'],
  risk: 'high',
  type: 'HOLE',
  description:
    "HAProxy's runtime API (stats socket) is reachable over TCP and has no authentication: at the admin level anyone can put servers in maintenance, change weights and addresses, rewrite maps and ACLs (redirecting traffic), kill sessions and read every table; the master CLI can also reload HAProxy.",
  solution:
    'Put the stats socket on a Unix path with restrictive permissions (stats socket /run/haproxy/admin.sock mode 660 level admin) and remove ipv4@/ipv6@ stats sockets and the TCP master CLI (-S), or bind them to 127.0.0.1 only.',
  references: ['https://docs.haproxy.org/2.6/management.html#9.3'],
  ports: { services: ['haproxy-stats'], ports: [9999] },
  run: async ({ net, port }) => {
    const h = await haproxyRuntime(net, port);
    if (!h) return null;
    const what = h.kind === 'master' ? '"show proc" (master CLI)' : '"show info"';
    const answer = h.evidence.map((l) => shown(l, 60)).join(' | ');
    const level = h.levelEvidence ? `; ${h.levelEvidence}` : '';
    const detail = `${what} was answered without authentication: "${answer}"${level}.`;
    if (h.kind === 'master' || h.level === 'admin') return detail;
    return {
      detail: `${detail} The socket is not at the admin level: its answers are a disclosure.`,
      type: 'NOTE',
      risk: 'medium',
      title: 'HAProxy runtime API readable from the network',
    };
  },
});
