/** Data stores that answer strangers: Redis, Memcached, MongoDB, Elasticsearch. */
import { httpRequest } from './http-client.ts';
import { portCheck, portsOf, shown, talk } from './services-kit.ts';
import type { Check } from '../types.ts';

export const redisNoAuth: Check = portCheck(
  {
    id: 'vigil.redis.noauth',
    shortid: 'REDIS-NOAUTH',
    title: 'Redis answers without authentication',
    category: 'Databases',
    risk: 'high',
    cves: [],
    type: 'HOLE',
    description:
      'The Redis server runs commands for anyone who connects: data can be read, changed or wiped, and CONFIG/MODULE commands often lead to code execution.',
    solution:
      'Set requirepass or ACL users in redis.conf, keep protected-mode yes, and bind Redis to trusted interfaces only.',
  },
  (h) => portsOf(h, ['redis'], [6379]),
  (net, port) =>
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
);

export const memcachedOpen: Check = portCheck(
  {
    id: 'vigil.memcached.open',
    shortid: 'MEMCACHED-OPEN',
    title: 'Memcached open to the network',
    category: 'Databases',
    risk: 'medium',
    cves: ['CVE-2018-1000115'],
    type: 'HOLE',
    description:
      'Memcached has no authentication: anyone who reaches it can read and overwrite cached data, and with UDP enabled it amplifies reflection attacks.',
    solution: 'Bind memcached to localhost or a private interface (-l 127.0.0.1) and turn UDP off (-U 0).',
  },
  (h) => portsOf(h, ['memcached', 'memcache'], [11211]),
  (net, port) =>
    talk(net, port, async (c) => {
      const r = (await c.ask('stats\r\n', 3000, (b) => b.includes('END\r\n'))).toString('latin1');
      const v = /STAT version ([^\r\n]+)/.exec(r);
      return v ? `stats answered without authentication (version ${shown(v[1]!, 40)})` : null;
    }),
);

/** BSON for {listDatabases: 1, $db: "admin"} inside an OP_MSG (MongoDB 3.6+). */
function listDatabasesMsg(): Buffer {
  const e1 = Buffer.concat([Buffer.from([0x10]), Buffer.from('listDatabases\0'), Buffer.from([1, 0, 0, 0])]);
  const str = Buffer.from('admin\0');
  const e2 = Buffer.concat([Buffer.from([0x02]), Buffer.from('$db\0'), Buffer.from([str.length, 0, 0, 0]), str]);
  const body = Buffer.concat([e1, e2, Buffer.from([0])]);
  const doc = Buffer.concat([Buffer.alloc(4), body]);
  doc.writeInt32LE(doc.length);
  const head = Buffer.alloc(16 + 4 + 1);
  head.writeInt32LE(head.length + doc.length, 0);
  head.writeInt32LE(1, 4);
  head.writeInt32LE(2013, 12); // OP_MSG
  return Buffer.concat([head, doc]);
}

export const mongoNoAuth: Check = portCheck(
  {
    id: 'vigil.mongodb.noauth',
    shortid: 'MONGODB-NOAUTH',
    title: 'MongoDB lists its databases without authentication',
    category: 'Databases',
    risk: 'high',
    cves: [],
    type: 'HOLE',
    description:
      'MongoDB runs commands without authentication: every database can be read, changed or dropped (the usual cause of ransomed MongoDB instances).',
    solution:
      'Enable authorization (security.authorization: enabled in mongod.conf), create users, and bind to trusted interfaces (net.bindIp).',
  },
  (h) => portsOf(h, ['mongodb', 'mongod'], [27017, 27018]),
  (net, port) =>
    talk(net, port, async (c) => {
      const r = await c.ask(listDatabasesMsg(), 3000, (b) => b.length >= 4 && b.length >= b.readInt32LE(0));
      const text = r.toString('latin1');
      if (r.length < 21 || r.readInt32LE(12) !== 2013 || !text.includes('databases') || !text.includes('totalSize'))
        return null;
      const names = [...text.matchAll(/\x02name\x00.{4}([\x20-\x7e]{1,64})\x00/gs)].map((m) => m[1]);
      return `listDatabases answered without authentication${names.length ? `: ${shown(names.join(', '))}` : ''}`;
    }),
);

export const elasticsearchOpen: Check = portCheck(
  {
    id: 'vigil.elasticsearch.open',
    shortid: 'ES-OPEN',
    title: 'Elasticsearch open without authentication',
    category: 'Databases',
    risk: 'high',
    cves: [],
    type: 'HOLE',
    description: 'The Elasticsearch REST API answers without credentials: every index can be read or deleted.',
    solution:
      'Enable security (xpack.security.enabled: true in elasticsearch.yml) with passwords for the built-in users, and keep the API off public interfaces.',
  },
  (h) =>
    portsOf(h, ['elasticsearch', 'wap-wsp', 'http', 'unknown'], [9200]).filter(
      (p) => p === 9200 || h.services.find((s) => s.port === p)?.http?.body.includes('"cluster_name"'),
    ),
  async (net, port) => {
    const root = await httpRequest(net, port, false);
    if (!root || root.status !== 200 || !/"cluster_name"/.test(root.body) || !/"number"\s*:/.test(root.body))
      return null;
    const indices = await httpRequest(net, port, false, { target: '/_cat/indices?h=index' });
    const list = indices?.status === 200 ? indices.body.split('\n').filter(Boolean).slice(0, 10).join(', ') : '';
    const version = /"number"\s*:\s*"([^"]{1,20})"/.exec(root.body)?.[1] ?? '?';
    return `GET / answered without credentials (version ${shown(version, 20)})${list ? `; indices: ${shown(list)}` : ''}`;
  },
);
