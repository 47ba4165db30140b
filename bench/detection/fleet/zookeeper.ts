/**
 * Debian zookeeper (Apache ZooKeeper 3.8), standalone servers in the
 * foreground (ZooKeeperServerMain, test/helpers/java-configs.ts).
 * Weak: the package's defaults (no authentication, world:anyone ACLs; of
 * the four-letter words only `srvr`) with the AdminServer on as upstream's
 * release runs it (Debian's lacks the servlet API it needs; here on the
 * weak address instead of 0.0.0.0:8080): znodes listed and created by anyone,
 * admin commands over HTTP; and one with every four-letter word open
 * (4lw.commands.whitelist=*). The default's JVM also runs JMX remote with
 * the JDK template's passwords (jmxremote.password.template uncommented).
 * Twin: srvr only, no AdminServer, no JMX, and
 * authentication enforced (enforce.auth.enabled with the digest scheme: a
 * request without credentials closes the session).
 */
import {
  SERVLET_API,
  ZK_DEFAULT,
  ZK_HARDENED,
  ZK_OPEN_4LW,
  ZOOKEEPER_JAR,
  zookeeper,
} from '../../../test/helpers/java-configs.ts';
import { addr, grep, none, type Daemon, type Weakness } from './kit.ts';

const K = 61;
const A = (n: number) => addr(K, n);
const PORT = 2181;
/** The AdminServer's default port (Jetty; on 0.0.0.0 by default, here on the weak address only). */
const ADMIN = 8080;
/** The JVM's JMX agent (ZooKeeper's admin guide: com.sun.management.jmxremote.port). */
const JMX = 1099;

const weakness = (w: Omit<Weakness, 'daemon' | 'proto' | 'port'>): Weakness => ({
  ...w,
  daemon: 'zookeeper',
  port: PORT,
  proto: 'tcp',
});

export const ZOOKEEPER: Daemon = {
  kind: 'zookeeper',
  // servlet-api.jar (libservlet-api-java): the AdminServer needs it (test/helpers/java-configs.ts).
  binaries: ['java', ZOOKEEPER_JAR, SERVLET_API],
  ports: { tcp: [PORT, ADMIN, JMX], udp: [] },
  weaknesses: [
    weakness({
      id: 'zookeeper-anonymous-read',
      family: 'auth',
      label: 'ZooKeeper defaults: znodes listed without authentication (getChildren("/"))',
      address: A(1),
      vigil: { id: /^vigil\.zookeeper\.anonymous$/ },
      nmap: none,
    }),
    weakness({
      id: 'zookeeper-anonymous-write',
      family: 'auth',
      label: 'ZooKeeper defaults: a znode created without authentication (world:anyone ACL on /)',
      address: A(1),
      vigil: { id: /^vigil\.zookeeper\.write$/ },
      nmap: none,
    }),
    weakness({
      id: 'zookeeper-4lw-open',
      family: 'ident',
      label: 'ZooKeeper four-letter words all open (4lw.commands.whitelist=*: envi, conf, cons, dump)',
      address: A(2),
      vigil: { id: /^vigil\.zookeeper\.4lw$/ },
      // -sV's Memcache probe ("stats") is answered by the four-letter word stat: its fingerprint quotes the
      // answer's tail, and on the twins "stat is not executed because it is not in the whitelist" (nmap 7.93).
      nmap: grep(/Node count: \d+/),
    }),
    {
      id: 'zookeeper-admin-server',
      family: 'web',
      label: 'ZooKeeper AdminServer (on by default) answering /commands/environment to anyone',
      daemon: 'zookeeper',
      address: A(1),
      port: ADMIN,
      proto: 'tcp',
      vigil: { id: /^vigil\.http\.zookeeper-admin$/ },
      nmap: none,
    },
    {
      id: 'zookeeper-jmx-template-password',
      family: 'auth',
      label: "ZooKeeper's JVM with JMX remote and the JDK template's passwords (monitorRole/QED, controlRole/R&D)",
      daemon: 'zookeeper',
      address: A(1),
      port: JMX,
      proto: 'tcp',
      vigil: { id: /^vigil\.jmx\.default-credentials$/ },
      // rmi-dumpregistry lists jmxrmi whatever the password; no default,safe,vuln script logs in to JMX.
      nmap: none,
    },
    weakness({
      id: 'zookeeper-named',
      family: 'ident',
      label: 'ZooKeeper client port named (srvr)',
      address: A(2),
      vigil: { service: /^zookeeper$/ },
      // -sV says "eforward?" (its stats probe matched nothing), measured with nmap 7.93.
      nmap: none,
    }),
  ],
  twins: [
    {
      address: A(100),
      note: '4lw.commands.whitelist=srvr; no AdminServer; enforce.auth.enabled with the digest scheme',
    },
  ],
  async start(ctx) {
    for (const [n, extra, admin] of [
      [1, ZK_DEFAULT, ADMIN],
      [2, ZK_OPEN_4LW, null],
      [100, ZK_HARDENED, null],
    ] as const) {
      const address = A(n);
      const dir = ctx.dir(address);
      const jmx = n === 1 ? { address, port: JMX, local: 28613, template: true } : null;
      const args = zookeeper(dir, address, PORT, extra, admin, jmx);
      if (!args) throw new Error('zookeeper is not installed');
      const child = ctx.spawn(`zookeeper-${address}`, 'java', args);
      await ctx.waitTcp(address, PORT, child, 60_000);
      if (admin) await ctx.waitTcp(address, admin, child, 60_000);
      if (jmx) await ctx.waitTcp(address, JMX, child, 60_000);
    }
  },
};
