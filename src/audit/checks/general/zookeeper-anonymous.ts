import { defineCheck } from '../kit.ts';
import { errName, getChildren, parseChildren, zkSession } from '../../proto/zookeeper.ts';
import { shown } from '../../proto/talk.ts';

/**
 * ZooKeeper serving an unauthenticated client: a session opened with no
 * credentials (no digest, SASL or certificate), then getChildren("/")
 * answered with the top-level znodes. ZooKeeper's default ACL is
 * world:anyone with every permission (OPEN_ACL_UNSAFE), so unless the
 * server enforces authentication (enforce.auth.enabled, 3.7+:
 * SESSIONCLOSEDREQUIRESASLAUTH) or the znodes carry ACLs (NOAUTH),
 * anyone reads and changes what the applications keep there
 * (configuration, credentials, leader locks). Only a listing proves it; an
 * error or a refused session is not reported.
 */
export default defineCheck({
  id: 'vigil.zookeeper.anonymous',
  shortid: 'ZOOKEEPER-ANON',
  title: 'ZooKeeper data readable without authentication',
  family: 'General',
  categories: ['safe', 'auth', 'default'],
  risk: 'high',
  type: 'HOLE',
  description:
    'ZooKeeper accepted a session with no credentials and listed its znodes: anyone who reaches the port reads the configuration, service registry and secrets the applications keep there, and, with the default world:anyone ACL, can change or delete them (Kafka, HBase, Solr, Hadoop and others trust what they read from it).',
  solution:
    'Require authentication (SASL or digest, with enforce.auth.enabled=true and enforce.auth.schemes on 3.7+, or sessionRequireClientSASLAuth), set ACLs on every znode (never world:anyone for writes), and firewall the client port from untrusted networks.',
  references: [
    'https://zookeeper.apache.org/doc/r3.8.0/zookeeperProgrammers.html#sc_ZooKeeperAccessControl',
    'https://zookeeper.apache.org/doc/r3.8.0/zookeeperAdmin.html#sc_authOptions',
  ],
  ports: { services: ['zookeeper'], ports: [2181] },
  run: async ({ net, port }) => {
    const r = await zkSession(net, port, async (s, request) => {
      const reply = await request(...getChildren('/'));
      if (!reply) return null;
      return { s, err: reply.err, children: reply.err === 0 ? parseChildren(reply.body) : null };
    });
    if (!r?.children) return null;
    const names = r.children.slice(0, 12).map((n) => `"${shown(n, 40)}"`);
    return `A session without credentials was granted (session 0x${r.s.sessionId}, timeout ${r.s.timeoutMs} ms) and getChildren("/") answered ${r.children.length} znode${r.children.length === 1 ? '' : 's'}: ${names.join(', ')}${r.children.length > 12 ? ', …' : ''} (reply error ${errName(r.err)}).`;
  },
});
