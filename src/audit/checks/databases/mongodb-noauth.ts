import { defineCheck } from '../kit.ts';
import { listDatabasesMsg } from '../../proto/mongodb.ts';
import { shown, talk } from '../../proto/talk.ts';

export default defineCheck({
  id: 'vigil.mongodb.noauth',
  shortid: 'MONGODB-NOAUTH',
  title: 'MongoDB lists its databases without authentication',
  family: 'Databases',
  categories: ['safe', 'auth', 'default'],
  risk: 'high',
  type: 'HOLE',
  description:
    'MongoDB runs commands without authentication: every database can be read, changed or dropped (the usual cause of ransomed MongoDB instances).',
  solution:
    'Enable authorization (security.authorization: enabled in mongod.conf), create users, and bind to trusted interfaces (net.bindIp).',
  ports: { services: ['mongodb', 'mongod'], ports: [27017, 27018] },
  run: ({ net, port }) =>
    talk(net, port, async (c) => {
      const r = await c.ask(listDatabasesMsg(), 3000, (b) => b.length >= 4 && b.length >= b.readInt32LE(0));
      const text = r.toString('latin1');
      if (r.length < 21 || r.readInt32LE(12) !== 2013 || !text.includes('databases') || !text.includes('totalSize'))
        return null;
      const names = [...text.matchAll(/\x02name\x00.{4}([\x20-\x7e]{1,64})\x00/gs)].map((m) => m[1]);
      return `listDatabases answered without authentication${names.length ? `: ${shown(names.join(', '))}` : ''}`;
    }),
});
