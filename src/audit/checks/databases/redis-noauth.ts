import { defineCheck } from '../kit.ts';
import { shown, talk } from '../../proto/talk.ts';

export default defineCheck({
  id: 'vigil.redis.noauth',
  shortid: 'REDIS-NOAUTH',
  title: 'Redis answers without authentication',
  family: 'Databases',
  categories: ['safe', 'auth', 'default'],
  risk: 'high',
  type: 'HOLE',
  description:
    'The Redis server runs commands for anyone who connects: data can be read, changed or wiped, and CONFIG/MODULE commands often lead to code execution.',
  solution:
    'Set requirepass or ACL users in redis.conf, keep protected-mode yes, and bind Redis to trusted interfaces only.',
  ports: { services: ['redis'], ports: [6379] },
  run: ({ net, port }) =>
    talk(net, port, async (c) => {
      const r = (
        await c.ask(
          'INFO server\r\n',
          3000,
          (b) => b.includes('\r\n') && (b[0] !== 0x24 || b.includes('redis_version')),
        )
      ).toString('latin1');
      const v = /redis_version:([^\r\n]+)/.exec(r);
      return r.startsWith('$') && v ? `INFO answered without a password (redis_version ${shown(v[1]!, 40)})` : null;
    }),
});
