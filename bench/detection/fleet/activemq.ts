/**
 * Debian activemq (ActiveMQ Classic 5.17), one broker per address run in
 * the foreground from an instance directory of its own (activemq.xml with
 * the OpenWire and STOMP connectors bound to the address; no JMX, no
 * persistence). Debian ships no web console (no Jetty or webapps in the
 * package), so the console's admin:admin cannot be planted here; nor MQTT:
 * Debian's activemq-mqtt lacks the fusesource mqtt-client codec it needs,
 * and its connector accepts TCP but never answers a CONNECT.
 * Weak: no authentication plugin (ActiveMQ's default): STOMP and OpenWire
 * clients connect without credentials; OpenWire names itself and its
 * version to anyone. Twin: simpleAuthenticationPlugin with anonymousAccessAllowed
 * false (STOMP answers ERROR "User name [null] or password is invalid",
 * OpenWire an ExceptionResponse with the same SecurityException).
 */
import { join } from 'node:path';
import { addr, svc, type Daemon, type Weakness } from './kit.ts';

const K = 34;
const A = (n: number) => addr(K, n);
const PORTS = { openwire: 61616, stomp: 61613 };

const weak = (w: Omit<Weakness, 'daemon' | 'address' | 'proto'>): Weakness => ({
  ...w,
  daemon: 'activemq',
  address: A(1),
  proto: 'tcp',
});

const AUTH = `<plugins>
      <simpleAuthenticationPlugin anonymousAccessAllowed="false">
        <users><authenticationUser username="vigil-admin" password="bench-A3m-not-a-secret" groups="admins"/></users>
      </simpleAuthenticationPlugin>
    </plugins>`;

export const ACTIVEMQ: Daemon = {
  kind: 'activemq',
  binaries: ['java', '/usr/share/activemq/bin/activemq.jar'],
  ports: { tcp: Object.values(PORTS), udp: [] },
  weaknesses: [
    weak({
      id: 'activemq-stomp-anonymous',
      family: 'auth',
      label: 'STOMP accepting CONNECT without credentials (ActiveMQ without an authentication plugin)',
      port: PORTS.stomp,
      vigil: { id: /^vigil\.stomp\.anonymous$/ },
      nmap: () => null,
    }),
    weak({
      id: 'activemq-openwire-anonymous',
      family: 'auth',
      label: 'OpenWire accepting a connection without credentials (ActiveMQ without an authentication plugin)',
      port: PORTS.openwire,
      vigil: { id: /^vigil\.openwire\.anonymous$/ },
      nmap: () => null,
    }),
    weak({
      id: 'activemq-openwire',
      family: 'ident',
      label: 'ActiveMQ OpenWire transport named (WireFormatInfo greeting)',
      port: PORTS.openwire,
      vigil: { service: /^apachemq$|openwire|activemq/i },
      nmap: svc(/apachemq|ActiveMQ/i),
    }),
  ],
  twins: [{ address: A(100), note: 'simpleAuthenticationPlugin, anonymousAccessAllowed false' }],
  async start(ctx) {
    for (const [n, open] of [
      [1, true],
      [100, false],
    ] as const) {
      const address = A(n);
      const dir = ctx.dir(address);
      const xml = ctx.write(
        join(dir, 'activemq.xml'),
        `<beans xmlns="http://www.springframework.org/schema/beans" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
  xsi:schemaLocation="http://www.springframework.org/schema/beans http://www.springframework.org/schema/beans/spring-beans-2.0.xsd
  http://activemq.apache.org/schema/core http://activemq.apache.org/schema/core/activemq-core.xsd">
  <broker xmlns="http://activemq.apache.org/schema/core" useJmx="false" persistent="false" brokerName="vigil-bench" dataDirectory="${dir}/data">
    ${open ? '' : AUTH}
    <transportConnectors>
      <transportConnector name="openwire" uri="tcp://${address}:${PORTS.openwire}"/>
      <transportConnector name="stomp" uri="stomp://${address}:${PORTS.stomp}"/>
    </transportConnectors>
  </broker>
</beans>
`,
      );
      // What /usr/bin/activemq runs, minus its daemonizing: the broker jar in the foreground, a small heap.
      const child = ctx.spawn(
        `activemq-${address}`,
        'java',
        [
          '-Xms32M',
          '-Xmx192M',
          '-XX:+UseSerialGC',
          '-Dactivemq.home=/usr/share/activemq',
          `-Dactivemq.base=${dir}`,
          `-Dactivemq.conf=${dir}`,
          `-Dactivemq.data=${dir}/data`,
          '-jar',
          '/usr/share/activemq/bin/activemq.jar',
          'start',
          `xbean:file:${xml}`,
        ],
        { cwd: dir },
      );
      for (const port of Object.values(PORTS)) await ctx.waitTcp(address, port, child, 90_000);
    }
  },
};
