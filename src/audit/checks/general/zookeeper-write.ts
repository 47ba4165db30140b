import { randomBytes } from 'node:crypto';
import { defineCheck } from '../kit.ts';
import { create, errName, remove, zkSession } from '../../proto/zookeeper.ts';

/**
 * The write that proves an unauthenticated client may change ZooKeeper's
 * data: an EPHEMERAL znode /vigil-<random> created at the root (whose ACL
 * decides who may create children) without credentials, then deleted at
 * once; being ephemeral, it would also go when the session closes. A write
 * is intrusive: `advanced` audits only.
 */
export default defineCheck({
  id: 'vigil.zookeeper.write',
  shortid: 'ZOOKEEPER-WRITE',
  title: 'ZooKeeper accepts writes without authentication',
  family: 'General',
  categories: ['intrusive', 'auth'],
  risk: 'high',
  type: 'HOLE',
  description:
    'An unauthenticated client created a znode at the root of the ZooKeeper tree: anyone can add, change or delete the coordination data (configuration, locks, leader elections, service registries) the applications rely on, and so take them over or stop them.',
  solution:
    'Require authentication (SASL or digest, enforce.auth.enabled=true), give the root and every application znode an ACL that lets only their owners create, write and delete, and firewall the client port.',
  references: ['https://zookeeper.apache.org/doc/r3.8.0/zookeeperProgrammers.html#sc_ZooKeeperAccessControl'],
  ports: { services: ['zookeeper'], ports: [2181] },
  run: async ({ net, port }) => {
    const path = `/vigil-${randomBytes(6).toString('hex')}`;
    const r = await zkSession(net, port, async (_s, request) => {
      const made = await request(...create(path, 'vigil audit write test'));
      if (!made || made.err !== 0) return null;
      const gone = await request(...remove(path));
      return { deleted: gone ? errName(gone.err) : 'no answer' };
    });
    if (!r) return null;
    const removed =
      r.deleted === '0'
        ? 'deleted again at once'
        : `delete answered ${r.deleted} (ephemeral: it goes with the session)`;
    return `Without credentials, create("${path}", EPHEMERAL, world:anyone) succeeded; the znode was ${removed}.`;
  },
});
