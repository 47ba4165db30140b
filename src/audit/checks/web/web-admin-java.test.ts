/**
 * Web admin pages (issue 27) of Debian's tomcat10 + tomcat10-admin and
 * rabbitmq-server with its management plugin, both real. One Tomcat (one
 * JVM, catalina.sh run, CATALINA_BASE of our own) serves four Services:
 * the Manager and Host Manager with tutorial pairs, a manager-status user
 * role1/role1, a Manager whose /status constraint was removed, and a twin
 * with strong passwords over HTTPS (8443, HSTS). RabbitMQ: guest/guest
 * (the broker's default) vs a broker whose only user is another one.
 */
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { daemon, freePort, tempDir, which } from '../../../../test/helpers/daemons-kit.ts';
import { EPMD, runScopedEpmd } from '../../../../test/helpers/epmd.ts';
import { binary, certificate, hostOf, netFor, writeFiles } from '../../../../test/helpers/web-daemons.ts';
import {
  CATALINA,
  TOMCAT_ADMIN,
  catalinaArgs,
  tomcatBase,
  tomcatUser as u,
} from '../../../../test/helpers/web-admin-configs.ts';
import { eventually } from '../../../../test/helpers/wait.ts';
import { detectOne } from '../../engine/detect.ts';
import { httpRequest } from '../../proto/http.ts';
import { checkById } from '../catalogue.ts';

const A = (n: number) => `127.0.84.${n}`;
const STRONG = 'not-a-real-secret-Tq4mV8';

async function run(id: string, address: string, port: number) {
  const net = netFor(address);
  const svc = await detectOne(net, port, { nmapProbes: false });
  return { svc, findings: await checkById(id).runOn(hostOf(address, [svc]), net) };
}

test('Tomcat: Manager and Host Manager with tutorial pairs, a status-only user and an open status page are found; strong passwords are not', {
  skip:
    binary(CATALINA) && binary(`${TOMCAT_ADMIN}/manager/WEB-INF/web.xml`) && which('java')
      ? false
      : 'tomcat10, tomcat10-admin or java is not installed',
}, async () => {
  const base = tempDir('tomcat');
  const tls = certificate(tempDir('tomcat-cert'), { cn: A(24) });
  const env = tomcatBase(base, [
    {
      name: 'Weak',
      address: A(21),
      port: 8080,
      users: [u('tomcat', 's3cret', 'manager-gui'), u('admin', 'admin', 'admin-gui')],
    },
    { name: 'Status', address: A(22), port: 8080, users: [u('role1', 'role1', 'manager-status')] },
    { name: 'Open', address: A(23), port: 8080, users: [u('tomcat', STRONG, 'manager-gui')], openStatus: true },
    {
      name: 'Twin',
      address: A(24),
      port: 8443,
      users: [u('tomcat', STRONG, 'manager-gui,manager-status'), u('admin', STRONG, 'admin-gui')],
      tls,
    },
    {
      name: 'Plain',
      address: A(25),
      port: 8080,
      users: [u('tomcat', STRONG, 'manager-gui'), u('both', STRONG, 'manager-script')],
    },
  ]);
  // Connectors bind at init, before the applications deploy: wait for the last Service's Manager to answer.
  await daemon(A(25), CATALINA, () => catalinaArgs, { port: 8080, env });
  const net = netFor(A(25));
  await eventually(
    async () => (await httpRequest(net, 8080, false, { target: '/manager/html', timeoutMs: 2000 }))?.status === 401,
    'the Manager of the last Service',
    60_000,
  );

  const weak = await run('vigil.web.default-credentials', A(21), 8080);
  assert.equal(weak.svc.name, 'http');
  assert.deepEqual(
    weak.findings.map((f) => f.title),
    ['Default credentials accepted: Apache Tomcat Manager', 'Default credentials accepted: Apache Tomcat Host Manager'],
  );
  assert.match(
    weak.findings[0]!.detail,
    /^GET \/manager\/html without credentials: HTTP 401 \(WWW-Authenticate: Basic realm="Tomcat Manager Application"\); with user "tomcat" and password "s\*\*\*\*t" .*: HTTP 200 showing "Tomcat Web Application Manager": logged in/,
  );
  assert.match(weak.findings[1]!.detail, /user "admin" and password "a\*\*\*n" .*"Tomcat Virtual Host Manager"/);

  const status = await run('vigil.web.default-credentials', A(22), 8080);
  assert.equal(status.findings.length, 1);
  assert.match(
    status.findings[0]!.detail,
    /user "role1" and password "r\*\*\*1" .*HTTP 403 \(authenticated, no role for it\); GET \/manager\/status with the same pair: HTTP 200 showing "Server Status": logged in to the Manager status page\.$/,
  );

  const opened = await run('vigil.web.admin-open', A(23), 8080);
  assert.equal(opened.findings.length, 1);
  assert.equal(
    opened.findings[0]!.detail,
    'GET /manager/status without credentials: HTTP 200 showing "Server Status": the Manager status page answers anyone.',
  );
  assert.equal(opened.findings[0]!.risk, 'medium');
  // An open status page proves no password.
  assert.deepEqual((await run('vigil.web.default-credentials', A(23), 8080)).findings, []);

  const twin = await run('vigil.web.default-credentials', A(24), 8443);
  assert.equal(twin.svc.name, 'https');
  assert.deepEqual(twin.findings, []);
  assert.deepEqual((await run('vigil.web.default-credentials', A(25), 8080)).findings, []);
  for (const [n, port] of [
    [21, 8080],
    [22, 8080],
    [24, 8443],
    [25, 8080],
  ] as const)
    assert.deepEqual((await run('vigil.web.admin-open', A(n), port)).findings, [], `admin-open on ${A(n)}`);
});

const RABBIT_SBIN = (() => {
  try {
    const d = readdirSync('/usr/lib/rabbitmq/lib').find((x) => x.startsWith('rabbitmq_server-'));
    return d ? binary(`/usr/lib/rabbitmq/lib/${d}/sbin/rabbitmq-server`) : null;
  } catch {
    return null;
  }
})();

/**
 * rabbitmq-server in the foreground with the management plugin, on address
 * only: its own epmd (test/helpers/epmd.ts: foreground, on a free port of
 * 127.0.0.1, stopped with the test) and a distribution port on 127.0.0.1.
 */
async function rabbit(address: string, conf: string[]): Promise<number> {
  const dir = tempDir('rabbitmq');
  const epmd = await runScopedEpmd();
  const amqp = await freePort(address);
  const dist = await freePort('127.0.0.1');
  return daemon(
    address,
    RABBIT_SBIN!,
    (port) => {
      writeFiles(dir, {
        'rabbitmq.conf': [
          `listeners.tcp.default = ${address}:${amqp}`,
          `management.tcp.ip = ${address}`,
          `management.tcp.port = ${port}`,
          ...conf,
          '',
        ].join('\n'),
        enabled_plugins: '[rabbitmq_management].\n',
      });
      return [];
    },
    {
      env: {
        ...process.env,
        HOME: dir,
        RABBITMQ_NODENAME: `vigil-${address.replaceAll('.', '-')}-${process.pid}@localhost`,
        RABBITMQ_MNESIA_BASE: join(dir, 'mnesia'),
        RABBITMQ_LOG_BASE: join(dir, 'log'),
        RABBITMQ_CONFIG_FILE: join(dir, 'rabbitmq.conf'),
        RABBITMQ_ENABLED_PLUGINS_FILE: join(dir, 'enabled_plugins'),
        RABBITMQ_PID_FILE: join(dir, 'pid'),
        RABBITMQ_DIST_PORT: String(dist),
        RABBITMQ_SERVER_ADDITIONAL_ERL_ARGS: '-kernel inet_dist_use_interface {127,0,0,1}',
        ...epmd,
      },
    },
  );
}

test('RabbitMQ management API: guest/guest is found; a broker whose user is another one is not', {
  skip: RABBIT_SBIN && EPMD ? false : 'rabbitmq-server (with its management plugin) is not installed',
}, async () => {
  const [weak, twin] = await Promise.all([
    rabbit(A(31), []),
    rabbit(A(32), ['default_user = vigil-admin', `default_pass = ${STRONG}`]),
  ]);
  assert.deepEqual(
    (await run('vigil.web.default-credentials', A(31), weak)).findings,
    [],
    'a shipped default, not a guess',
  );
  const w = await run('vigil.web.vendor-default-login', A(31), weak);
  assert.equal(w.svc.name, 'http');
  assert.equal(w.findings.length, 1);
  assert.match(
    w.findings[0]!.detail,
    /^GET \/api\/whoami without credentials: HTTP 401 \(WWW-Authenticate: Basic realm="RabbitMQ Management", Server: Cowboy\); with user "guest" and password "g\*\*\*t" .*: HTTP 200 showing "\{"name":"guest","tags":": logged in to the RabbitMQ management API\.$/,
  );
  assert.deepEqual((await run('vigil.web.vendor-default-login', A(32), twin)).findings, []);
  assert.deepEqual((await run('vigil.web.admin-open', A(31), weak)).findings, []);
});
