/**
 * Debian rabbitmq-server, run in the foreground per address (its own
 * RABBITMQ_BASE, mnesia and node name), with the management, STOMP and
 * MQTT plugins (an enabled_plugins file). Erlang's distribution stays on
 * loopback: a private epmd (-address 127.0.0.1, a port of its own so that
 * nothing is shared with another Erlang on the host) and
 * inet_dist_use_interface 127.0.0.1.
 * Weak: the guest/guest account RabbitMQ creates on first start, which it
 * accepts from loopback (where the scanner is; `loopback_users = none` is
 * the same from anywhere) on AMQP, on STOMP and MQTT (their default_user
 * for a client without credentials), and on the management API; and the
 * Prometheus plugin's metrics, which have no authentication of their own.
 * Twin: another default user with its own password, so guest never exists,
 * and no Prometheus plugin. Both set the management UI's security headers.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { addr, grep, script, type Daemon, type Weakness } from './kit.ts';

const K = 33;
const A = (n: number) => addr(K, n);
const PORTS = { amqp: 5672, management: 15672, stomp: 61613, mqtt: 1883, prometheus: 15692 };

const weak = (w: Omit<Weakness, 'family' | 'daemon' | 'address' | 'proto'>): Weakness => ({
  ...w,
  family: 'auth',
  daemon: 'rabbitmq-server',
  address: A(1),
  proto: 'tcp',
});

export const RABBITMQ: Daemon = {
  kind: 'rabbitmq',
  binaries: ['/usr/lib/rabbitmq/bin/rabbitmq-server', 'epmd'],
  ports: { tcp: Object.values(PORTS), udp: [] },
  weaknesses: [
    weak({
      id: 'amqp-guest',
      label: 'AMQP broker accepting guest/guest (RabbitMQ default account)',
      port: PORTS.amqp,
      vigil: { id: /^vigil\.amqp\.default-credentials$/ },
      // nmap's amqp-info prints the server properties; it does not try a login.
      nmap: () => null,
    }),
    weak({
      id: 'rabbitmq-management-guest',
      label: 'RabbitMQ management API accepting guest:guest',
      port: PORTS.management,
      vigil: { id: /^vigil\.web\.vendor-default-login$/ },
      nmap: grep(/guest:guest|Valid credentials/i),
    }),
    weak({
      id: 'rabbitmq-stomp-anonymous',
      label: 'STOMP accepting CONNECT without credentials (RabbitMQ STOMP plugin, default_user guest)',
      port: PORTS.stomp,
      vigil: { id: /^vigil\.stomp\.anonymous$/ },
      nmap: () => null,
    }),
    weak({
      id: 'rabbitmq-mqtt-anonymous',
      label: 'MQTT accepting anonymous clients (RabbitMQ MQTT plugin, allow_anonymous with guest)',
      port: PORTS.mqtt,
      vigil: { id: /^vigil\.mqtt\.anonymous$/ },
      nmap: script('mqtt-subscribe', /Topics and their most recent payloads|\$SYS/),
    }),
    {
      ...weak({
        id: 'rabbitmq-prometheus-open',
        label: 'RabbitMQ Prometheus metrics open to anyone (rabbitmq_prometheus on 15692)',
        port: PORTS.prometheus,
        vigil: { id: /^vigil\.http\.metrics-exposed$/ },
        nmap: () => null,
      }),
      family: 'web',
    },
  ],
  twins: [
    {
      address: A(100),
      note: 'default_user vigil-admin with its own password (no guest account at all); no Prometheus plugin',
    },
  ],
  async start(ctx) {
    for (const [n, open] of [
      [1, true],
      [100, false],
    ] as const) {
      const address = A(n);
      const dir = ctx.dir(address);
      const epmdPort = 24_300 + n;
      ctx.write(
        join(dir, 'rabbitmq.conf'),
        [
          `listeners.tcp.1 = ${address}:${PORTS.amqp}`,
          `management.tcp.ip = ${address}`,
          `management.tcp.port = ${PORTS.management}`,
          `stomp.listeners.tcp.1 = ${address}:${PORTS.stomp}`,
          `mqtt.listeners.tcp.1 = ${address}:${PORTS.mqtt}`,
          // Both: the management UI's security headers, so that the twin differs only in what is planted.
          'management.headers.content_type_options = nosniff',
          'management.headers.frame_options = DENY',
          ...(open
            ? [`prometheus.tcp.ip = ${address}`, `prometheus.tcp.port = ${PORTS.prometheus}`]
            : ['default_user = vigil-admin', 'default_pass = bench-R7q-not-a-secret']),
          'log.console = true',
          'log.file = false',
        ].join('\n'),
      );
      const plugins = [
        'rabbitmq_management',
        'rabbitmq_stomp',
        'rabbitmq_mqtt',
        'rabbitmq_amqp1_0', // AMQP 1.0 on the same port: ANONYMOUS maps to guest, absent on the twin
        ...(open ? ['rabbitmq_prometheus'] : []),
      ];
      ctx.write(join(dir, 'enabled_plugins'), `[${plugins.join(',')}].\n`);
      const epmd = ctx.spawn(`epmd-${address}`, 'epmd', ['-address', '127.0.0.1', '-port', String(epmdPort)]);
      await ctx.waitTcp('127.0.0.1', epmdPort, epmd);
      // The fleet signals every group at once: a node still shutting down may have started `epmd -daemon`.
      ctx.onStop(() => void spawnSync('epmd', ['-port', String(epmdPort), '-kill']));
      const env = {
        ...process.env,
        HOME: dir, // the Erlang cookie is made there
        ERL_EPMD_PORT: String(epmdPort),
        // Should the node start an epmd of its own (ours gone first at stop), that one stays on loopback too.
        ERL_EPMD_ADDRESS: '127.0.0.1',
        RABBITMQ_BASE: dir,
        RABBITMQ_MNESIA_BASE: join(dir, 'mnesia'),
        RABBITMQ_LOG_BASE: join(dir, 'log'),
        RABBITMQ_NODENAME: `vigil-bench-${n}@localhost`,
        RABBITMQ_NODE_IP_ADDRESS: address,
        RABBITMQ_CONFIG_FILE: join(dir, 'rabbitmq.conf'),
        RABBITMQ_ENABLED_PLUGINS_FILE: join(dir, 'enabled_plugins'),
        RABBITMQ_PID_FILE: join(dir, 'pid'),
        RABBITMQ_DIST_PORT: String(25_400 + n),
        RABBITMQ_SERVER_ADDITIONAL_ERL_ARGS: '-kernel inet_dist_use_interface {127,0,0,1}',
      };
      const child = ctx.spawn(`rabbitmq-${address}`, '/usr/lib/rabbitmq/bin/rabbitmq-server', [], { env, cwd: dir });
      // Erlang and four plugins: 5-6 s on the 2-core VM when idle.
      for (const port of Object.values(PORTS).filter((p) => open || p !== PORTS.prometheus))
        await ctx.waitTcp(address, port, child, 90_000);
    }
  },
};
