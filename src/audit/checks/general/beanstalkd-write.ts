import { randomBytes } from 'node:crypto';
import { defineCheck } from '../kit.ts';
import { beanstalkPutDelete } from '../../proto/jobqueue.ts';
import { shown } from '../../proto/talk.ts';

/**
 * Proves what vigil.beanstalkd.open infers: a job queued by the scanner.
 * The job goes to a tube of its own (vigil-scanner-test) that no worker
 * watches, delayed an hour so that none could reserve it, and is deleted
 * at once; a write all the same, hence intrusive (advanced audits only).
 */
export default defineCheck({
  id: 'vigil.beanstalkd.write',
  shortid: 'BEANSTALKD-WRITE',
  title: 'beanstalkd accepts jobs from anyone',
  family: 'General',
  categories: ['intrusive', 'auth'],
  risk: 'high',
  type: 'HOLE',
  qod: 99,
  description:
    'The beanstalkd work queue accepted a job from the scanner without any authentication: anyone who reaches the port can hand the workers jobs of their own, which they run with the privileges of the application. The test job was delayed (never ready for a worker) and deleted at once.',
  solution:
    'Bind beanstalkd to the loopback or a private interface (beanstalkd -l 127.0.0.1) and firewall port 11300 from everything but the producers and workers.',
  references: ['https://github.com/beanstalkd/beanstalkd/blob/master/doc/protocol.txt'],
  ports: { services: ['beanstalkd'], ports: [11300] },
  run: async ({ net, port }) => {
    const body = `vigil-audit scanner test ${randomBytes(4).toString('hex')}: delete me`;
    const w = await beanstalkPutDelete(net, port, 'vigil-scanner-test', body);
    if (!w) return null;
    return `"use ${w.tube}" then "put 1024 3600 60 ${body.length}" ("${body}") was answered "INSERTED ${w.id}"; "delete ${w.id}" answered "${shown(w.deleted, 40)}".`;
  },
});
