import { defineCheck } from '../kit.ts';
import { shown, talk } from '../../proto/talk.ts';

export default defineCheck({
  id: 'vigil.memcached.open',
  shortid: 'MEMCACHED-OPEN',
  title: 'Memcached open to the network',
  family: 'Databases',
  categories: ['safe', 'auth', 'discovery', 'default'],
  risk: 'medium',
  cves: ['CVE-2018-1000115'],
  type: 'HOLE',
  description:
    'Memcached has no authentication: anyone who reaches it can read and overwrite cached data, and with UDP enabled it amplifies reflection attacks.',
  solution: 'Bind memcached to localhost or a private interface (-l 127.0.0.1) and turn UDP off (-U 0).',
  ports: { services: ['memcached', 'memcache'], ports: [11211] },
  run: ({ net, port }) =>
    talk(net, port, async (c) => {
      const r = (await c.ask('stats\r\n', 3000, (b) => b.includes('END\r\n'))).toString('latin1');
      const v = /STAT version ([^\r\n]+)/.exec(r);
      return v ? `stats answered without authentication (version ${shown(v[1]!, 40)})` : null;
    }),
});
