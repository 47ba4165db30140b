import { defineCheck } from '../kit.ts';
import { beanstalkStats } from '../../proto/jobqueue.ts';
import { shown } from '../../proto/talk.ts';

/**
 * A beanstalkd job queue that answers the scanner. beanstalkd has no
 * authentication at all (protocol.txt has no such command), so the only
 * protection is where it listens: a `stats` answered from the network is
 * the proof that anyone there can also `put`, `reserve` and `delete` jobs.
 * A HOLE, medium as Greenbone rates an unprotected beanstalkd: the workers
 * act on whatever job they are handed, so a queued job is an action on the
 * application, but what that costs depends on the jobs.
 */
const SHOWN = [
  'version',
  'current-jobs-ready',
  'current-jobs-reserved',
  'total-jobs',
  'current-tubes',
  'current-workers',
];

export default defineCheck({
  id: 'vigil.beanstalkd.open',
  shortid: 'BEANSTALKD-OPEN',
  title: 'beanstalkd job queue open to the network',
  family: 'General',
  categories: ['safe', 'auth', 'default'],
  risk: 'medium',
  type: 'HOLE',
  qod: 99,
  description:
    'The beanstalkd work queue answered the scanner. beanstalkd has no authentication: anyone who reaches the port can read queued jobs (reserve, peek), delete them, and queue jobs of their own that the workers will run with their privileges.',
  solution:
    'Bind beanstalkd to the loopback or a private interface (beanstalkd -l 127.0.0.1, BEANSTALKD_LISTEN_ADDR in /etc/default/beanstalkd) and firewall port 11300 from everything but the producers and workers.',
  references: ['https://github.com/beanstalkd/beanstalkd/blob/master/doc/protocol.txt'],
  ports: { services: ['beanstalkd'], ports: [11300] },
  run: async ({ net, port }) => {
    const stats = await beanstalkStats(net, port);
    if (!stats) return null;
    const facts = SHOWN.filter((k) => k in stats).map((k) => `${k}: ${shown(stats[k]!, 40)}`);
    return `"stats" was answered without any authentication (${facts.join(', ')}).`;
  },
});
