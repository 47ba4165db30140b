import { defineCheck } from '../kit.ts';
import { gearmanAdmin } from '../../proto/jobqueue.ts';
import { shown } from '../../proto/talk.ts';

/**
 * A Gearman job server (gearmand, and the Perl and Java servers that speak
 * the same protocol) answering its administrative commands to the
 * scanner. The protocol has no authentication (gearmand has none but TLS
 * client certificates in builds that enable it), so reaching the port is
 * enough to submit jobs to every registered function, and the admin
 * commands list the functions and the workers' addresses. A HOLE, medium
 * as Greenbone rates it; what a submitted job does depends on the workers.
 */
export default defineCheck({
  id: 'vigil.gearman.open',
  shortid: 'GEARMAN-OPEN',
  title: 'Gearman job server open to the network',
  family: 'General',
  categories: ['safe', 'auth', 'default'],
  risk: 'medium',
  type: 'HOLE',
  qod: 99,
  description:
    'The Gearman job server answered its administrative commands to the scanner. Gearman has no authentication: anyone who reaches the port can submit jobs to every function the workers registered (they run them with their privileges), read the function and worker lists, and with the admin commands shut the server down.',
  solution:
    'Bind gearmand to the loopback or a private interface (gearmand --listen=127.0.0.1, PARAMS in /etc/default/gearman-job-server) and firewall port 4730 from everything but the clients and workers.',
  references: ['https://gearman.org/protocol/'],
  ports: { services: ['gearman'], ports: [4730] },
  run: async ({ net, port }) => {
    const g = await gearmanAdmin(net, port);
    if (!g) return null;
    const fns = g.functions.map((l) => l.split('\t')[0]!).filter(Boolean);
    const list = (xs: string[]) =>
      xs.length ? ` (${shown(xs.slice(0, 6).join(', '), 100)}${xs.length > 6 ? ', …' : ''})` : '';
    return `"version" was answered "OK ${shown(g.version, 20)}"; "status" listed ${fns.length} function(s)${list(fns)}; "workers" listed ${g.workers.length} connection(s), without any authentication.`;
  },
});
