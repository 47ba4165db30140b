/**
 * Message brokers on real Debian daemons, each weak configuration beside
 * its hardened twin: RabbitMQ (AMQP guest/guest, AMQP 1.0 SASL ANONYMOUS
 * through its amqp1_0 plugin, and its STOMP plugin
 * taking guest for a login-less CONNECT) vs a RabbitMQ whose default user
 * is another; ActiveMQ Classic (STOMP without an authentication plugin) vs
 * simpleAuthenticationPlugin; nats-server without vs with a token. The
 * ports are named by detection (amqp, stomp, nats) on the way.
 */
import assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { daemon, freePort, tempDir, which } from '../../../../test/helpers/daemons-kit.ts';
import { EPMD, runScopedEpmd } from '../../../../test/helpers/epmd.ts';
import { hostOf, netFor, service } from '../../../../test/helpers/web-daemons.ts';
import { detectOne } from '../../engine/detect.ts';
import { amqp10Anonymous } from '../../proto/amqp10.ts';
import { checkById } from '../catalogue.ts';

const RABBIT = '/usr/lib/rabbitmq/bin/rabbitmq-server';
const HAVE_RABBIT = existsSync(RABBIT) && EPMD;
const ACTIVEMQ_JAR = '/usr/share/activemq/bin/activemq.jar';
const HAVE_ACTIVEMQ = which('java') && existsSync(ACTIVEMQ_JAR);
const NATS = which('nats-server');

const run = (id: string, addr: string, port: number, name: string) =>
  checkById(id).runOn(hostOf(addr, [service(port, name)]), netFor(addr));

/** A RabbitMQ node on `addr`: AMQP on the returned port, STOMP on `stomp`; its own epmd on 127.0.0.1. */
async function rabbitmq(addr: string, guest: boolean): Promise<{ amqp: number; stomp: number }> {
  const dir = tempDir('rabbitmq');
  const epmd = await runScopedEpmd();
  const stomp = await freePort(addr);
  const env = {
    ...process.env,
    HOME: dir,
    ...epmd,
    RABBITMQ_BASE: dir,
    RABBITMQ_MNESIA_BASE: join(dir, 'mnesia'),
    RABBITMQ_LOG_BASE: join(dir, 'log'),
    RABBITMQ_NODENAME: `vigil-test-${addr.split('.').pop()}@localhost`,
    RABBITMQ_NODE_IP_ADDRESS: addr,
    RABBITMQ_CONFIG_FILE: join(dir, 'rabbitmq.conf'),
    RABBITMQ_ENABLED_PLUGINS_FILE: join(dir, 'enabled_plugins'),
    RABBITMQ_DIST_PORT: String(await freePort('127.0.0.1')),
    RABBITMQ_SERVER_ADDITIONAL_ERL_ARGS: '-kernel inet_dist_use_interface {127,0,0,1}',
  };
  writeFileSync(join(dir, 'enabled_plugins'), '[rabbitmq_stomp,rabbitmq_amqp1_0].\n');
  const amqp = await daemon(
    addr,
    RABBIT,
    (port) => {
      writeFileSync(
        join(dir, 'rabbitmq.conf'),
        [
          `listeners.tcp.1 = ${addr}:${port}`,
          `stomp.listeners.tcp.1 = ${addr}:${stomp}`,
          ...(guest ? [] : ['default_user = vigil-admin', 'default_pass = not-a-real-secret-4Rb']),
        ].join('\n'),
      );
      return [];
    },
    { env, cwd: dir },
  );
  return { amqp, stomp };
}

/** An ActiveMQ Classic broker on `addr` with a STOMP connector (the returned port) and OpenWire on 61616 (the address is its own). */
function activemq(addr: string, auth: boolean): Promise<number> {
  const dir = tempDir('activemq');
  const plugin = auth
    ? '<plugins><simpleAuthenticationPlugin anonymousAccessAllowed="false"><users><authenticationUser username="vigil-admin" password="not-a-real-secret-8Am" groups="admins"/></users></simpleAuthenticationPlugin></plugins>'
    : '';
  return daemon(addr, which('java')!, (port) => {
    const xml = join(dir, `activemq-${port}.xml`);
    writeFileSync(
      xml,
      `<beans xmlns="http://www.springframework.org/schema/beans" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://www.springframework.org/schema/beans http://www.springframework.org/schema/beans/spring-beans-2.0.xsd http://activemq.apache.org/schema/core http://activemq.apache.org/schema/core/activemq-core.xsd">
  <broker xmlns="http://activemq.apache.org/schema/core" useJmx="false" persistent="false" brokerName="vigil-test" dataDirectory="${dir}/data">
    ${plugin}
    <transportConnectors><transportConnector name="openwire" uri="tcp://${addr}:61616"/><transportConnector name="stomp" uri="stomp://${addr}:${port}"/></transportConnectors>
  </broker>
</beans>`,
    );
    return [
      '-Xmx160M',
      '-XX:+UseSerialGC',
      '-Dactivemq.home=/usr/share/activemq',
      `-Dactivemq.base=${dir}`,
      `-Dactivemq.conf=${dir}`,
      `-Dactivemq.data=${dir}/data`,
      '-jar',
      ACTIVEMQ_JAR,
      'start',
      `xbean:file:${xml}`,
    ];
  });
}

test('RabbitMQ: AMQP guest/guest and STOMP without a login are found and named; a node without guest is not', {
  skip: HAVE_RABBIT ? false : 'rabbitmq-server is not installed (apt-get install rabbitmq-server)',
}, async () => {
  const [open, shut] = await Promise.all([rabbitmq('127.0.93.1', true), rabbitmq('127.0.93.2', false)]);
  const amqpPort = await detectOne(netFor('127.0.93.1'), open.amqp);
  assert.deepEqual([amqpPort.name, amqpPort.product], ['amqp', 'RabbitMQ']);
  assert.equal((await detectOne(netFor('127.0.93.1'), open.stomp)).name, 'stomp');

  const [amqp] = await run('vigil.amqp.default-credentials', '127.0.93.1', open.amqp, 'amqp');
  assert.match(
    amqp!.detail,
    /^Connection\.Start from RabbitMQ [\d.]+ .* offered PLAIN AMQPLAIN; Start-Ok with PLAIN "guest"\/"guest" was answered Connection\.Tune .* Open-Ok on virtual host "\/"\.$/,
  );
  const [stomp] = await run('vigil.stomp.anonymous', '127.0.93.1', open.stomp, 'stomp');
  assert.match(stomp!.detail, /no login, no passcode\) was answered CONNECTED \(server:RabbitMQ\/[\d.]+/);
  // AMQP 1.0 on the same port (amqp1_0 plugin): SASL ANONYMOUS is guest, and the broker's open answers ours.
  const v10 = await amqp10Anonymous(netFor('127.0.93.1'), open.amqp);
  assert.ok(v10?.mechanisms.includes('ANONYMOUS') && v10.opened, JSON.stringify(v10));
  assert.equal((await amqp10Anonymous(netFor('127.0.93.2'), shut.amqp))?.opened, null);

  assert.deepEqual(await run('vigil.amqp.default-credentials', '127.0.93.2', shut.amqp, 'amqp'), []);
  assert.deepEqual(await run('vigil.stomp.anonymous', '127.0.93.2', shut.stomp, 'stomp'), []);
});

test('ActiveMQ: STOMP and OpenWire without credentials are found; simpleAuthenticationPlugin is not', {
  skip: HAVE_ACTIVEMQ ? false : 'activemq is not installed (apt-get install activemq)',
}, async () => {
  const [open, shut] = await Promise.all([activemq('127.0.93.3', false), activemq('127.0.93.4', true)]);
  const named = await detectOne(netFor('127.0.93.3'), open);
  assert.deepEqual([named.name, named.product], ['stomp', 'Apache ActiveMQ']);
  const [f] = await run('vigil.stomp.anonymous', '127.0.93.3', open, 'stomp');
  assert.match(f!.detail, /was answered CONNECTED \(server:ActiveMQ\/[\d.]+, version:1\.2/);
  assert.deepEqual(await run('vigil.stomp.anonymous', '127.0.93.4', shut, 'stomp'), []);
  // OpenWire: its connector starts before STOMP's (declared first), whose port daemon() waited for;
  // nmap's NULL-probe line names the port apachemq.
  const [ow] = await run('vigil.openwire.anonymous', '127.0.93.3', 61616, 'apachemq');
  assert.match(
    ow!.detail,
    /^WireFormatInfo from ActiveMQ [\d.]+ \(OpenWire version \d+\); ConnectionInfo .* answered Response/,
  );
  assert.deepEqual(await run('vigil.openwire.anonymous', '127.0.93.4', 61616, 'apachemq'), []);
});

test('nats-server: a server without authorization is found and named; a token-protected one is not', {
  skip: NATS ? false : 'nats-server is not installed (apt-get install nats-server)',
}, async () => {
  const nats = (addr: string, token: boolean) => {
    const dir = tempDir('nats');
    return daemon(addr, NATS!, (port) => {
      const conf = join(dir, `nats-${port}.conf`);
      writeFileSync(
        conf,
        `listen: "${addr}:${port}"\n${token ? 'authorization { token: "not-a-real-secret-2Nt" }\n' : ''}`,
      );
      return ['-c', conf];
    });
  };
  const [open, shut] = await Promise.all([nats('127.0.93.5', false), nats('127.0.93.6', true)]);
  const named = await detectOne(netFor('127.0.93.5'), open);
  assert.deepEqual([named.name, named.product, named.extra.auth], ['nats', 'NATS', 'none']);
  const [f] = await run('vigil.nats.noauth', '127.0.93.5', open, 'nats');
  assert.match(f!.detail, /^INFO \(server_name \S+, version [\d.]+\) did not set auth_required; .* answered PONG\.$/);
  assert.deepEqual(await run('vigil.nats.noauth', '127.0.93.6', shut, 'nats'), []);
});
