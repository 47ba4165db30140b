import { muninSession } from '../../proto/munin.ts';
import { shown } from '../../proto/talk.ts';
import { defineCheck } from '../kit.ts';

/**
 * A Munin node that talks to the scanner. munin-node checks the client's address (`allow` regexes,
 * `cidr_allow`) before it sends its greeting, and closes the connection on anyone else: the greeting
 * and an answer to `version` prove that this client is allowed, and the plugin list is what it reads.
 */
export default defineCheck({
  id: 'vigil.munin.open',
  shortid: 'MUNIN-OPEN',
  title: 'Munin node answers anyone',
  family: 'General',
  categories: ['safe', 'discovery', 'default'],
  risk: 'medium',
  type: 'NOTE',
  description:
    "The Munin node accepts connections from the scanner's address: anyone who reaches it can read its plugin list and every value they report (processes, users logged in, disks, network traffic, mail queues, database and web server load), and make it run its plugins as often as they like.",
  solution:
    'Let only the Munin master in: in munin-node.conf keep `allow` (or `cidr_allow`) to its address (e.g. allow ^10\\.0\\.0\\.5$, never ^.*$), bind `host` to the management interface, and firewall port 4949.',
  references: ['https://guide.munin-monitoring.org/en/latest/reference/munin-node.conf.html'],
  ports: { services: ['munin'], ports: [4949] },
  run: async ({ net, port }) => {
    const s = await muninSession(net, port);
    if (!s || (!s.version && !s.plugins.length)) return null;
    const answers = [
      s.version ? `"version" answered "${shown(s.version, 80)}"` : null,
      s.nodes.length ? `"nodes" answered ${s.nodes.map((n) => `"${shown(n, 40)}"`).join(', ')}` : null,
      `"list" answered ${s.plugins.length} plugins${s.plugins.length ? ` (${shown(s.plugins.slice(0, 12).join(' '), 120)}${s.plugins.length > 12 ? ' …' : ''})` : ''}`,
    ];
    return `The node greeted the scanner with "${shown(s.greeting, 80)}"; ${answers.filter(Boolean).join('; ')}.`;
  },
});
