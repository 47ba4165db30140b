import { defineCheck } from '../kit.ts';
import { fourLetter, NOT_ALLOWED } from '../../proto/zookeeper.ts';
import { shown } from '../../proto/talk.ts';

/**
 * Four-letter words beyond `srvr`, each read-only, the most revealing
 * first: envi (the JVM's and host's environment), conf (data directories,
 * ports, quorum), cons and dump (every client connection, session and
 * ephemeral node), stat, mntr, wchc. ZooKeeper 3.5.3+ runs only `srvr`
 * unless 4lw.commands.whitelist says otherwise
 * (ZOOKEEPER-2693), and answers the rest "… is not executed because it is
 * not in the whitelist"; 3.4 runs them all. `srvr` alone (what zkServer.sh
 * status needs) is the default and is not reported. Resets (crst, srst) are
 * never sent.
 */
const WORDS: readonly (readonly [string, RegExp])[] = [
  ['envi', /^Environment:\s*\n\s*zookeeper\.version=/],
  ['conf', /^(clientPort|secureClientPort|dataDir|tickTime)=/m],
  ['cons', /^\s*\/[\d.:[\]a-f]+\[\d+\]\(queued=\d+/m],
  ['dump', /^SessionTracker dump:|^Session(s)? with Ephemerals/m],
  ['stat', /^Zookeeper version: [\s\S]*^Clients:/m],
  ['mntr', /^zk_version\t/m],
];

export default defineCheck({
  id: 'vigil.zookeeper.4lw',
  shortid: 'ZOOKEEPER-4LW',
  title: 'ZooKeeper four-letter-word commands open to anyone',
  family: 'General',
  categories: ['safe', 'discovery', 'default'],
  risk: 'medium',
  type: 'NOTE',
  description:
    "ZooKeeper answers its four-letter-word admin commands beyond srvr to anyone: the server's environment (host name, user, Java class path and directories), its configuration, and every connected client with its sessions and ephemeral nodes, a map of the applications that coordinate through it.",
  solution:
    'Set 4lw.commands.whitelist=srvr (or the few words monitoring needs, e.g. srvr,ruok,mntr) in zoo.cfg, firewall the client port from untrusted networks, and use the AdminServer with authentication for administration.',
  references: [
    'https://zookeeper.apache.org/doc/r3.8.0/zookeeperAdmin.html#sc_4lw',
    'https://issues.apache.org/jira/browse/ZOOKEEPER-2693',
  ],
  ports: { services: ['zookeeper'], ports: [2181] },
  run: async ({ net, port }) => {
    const open: string[] = [];
    let proof = '';
    for (const [word, sig] of WORDS) {
      const text = await fourLetter(net, port, word);
      if (text === null) return null; // silence: no ZooKeeper, or it went away
      if (NOT_ALLOWED.test(text) || !sig.test(text)) continue;
      open.push(word);
      proof ||= `"${word}" was answered "${shown(text.replace(/\s*\n\s*/g, ' | '), 160)}"`;
    }
    if (!open.length) return null;
    return `${proof}; four-letter words answered: ${open.join(', ')} (sent one per connection, nothing else).`;
  },
});
