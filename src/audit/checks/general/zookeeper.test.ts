/**
 * Apache ZooKeeper (Debian zookeeper), three real standalone servers
 * started once for the file: the package's default (only `srvr` of the
 * four-letter words, no authentication), one with every four-letter word
 * open (4lw.commands.whitelist=*), and a hardened twin (srvr only,
 * enforce.auth.enabled with the digest scheme: requests without
 * credentials close the session).
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { test } from 'node:test';
import { daemon, freePort, tempDir, which } from '../../../../test/helpers/daemons-kit.ts';
import { hostOf, netFor } from '../../../../test/helpers/web-daemons.ts';
import {
  ZK_DEFAULT,
  ZK_HARDENED,
  ZK_OPEN_4LW,
  type Jmx,
  SERVLET_API,
  ZOOKEEPER_JAR,
  zookeeper as zkArgs,
} from '../../../../test/helpers/java-configs.ts';
import { eventually } from '../../../../test/helpers/wait.ts';
import { detectOne } from '../../engine/detect.ts';
import { httpRequest } from '../../proto/http.ts';
import { checkById } from '../catalogue.ts';

const A = (n: number) => `127.0.161.${n}`;
const INSTALLED = !!which('java') && existsSync(ZOOKEEPER_JAR);

async function run(id: string, address: string, port: number) {
  const net = netFor(address);
  const svc = await detectOne(net, port, { nmapProbes: false });
  return { svc, findings: await checkById(id).runOn(hostOf(address, [svc]), net) };
}

function zookeeper(
  address: string,
  extra: readonly string[],
  admin: number | null = null,
  jmx: Jmx | null = null,
): Promise<number> {
  const dir = tempDir('zookeeper');
  return daemon(address, 'java', (port) => zkArgs(dir, address, port, extra, admin, jmx)!);
}

test('ZooKeeper: open four-letter words, the AdminServer, anonymous reads and writes, JMX with the template password are found; srvr only with enforced authentication is not', {
  skip: INSTALLED ? false : 'zookeeper (Debian package) or java is not installed',
  timeout: 120_000,
}, async () => {
  const [admin, jmx] = await Promise.all([freePort(A(1)), freePort(A(1))]);
  const [plain, open, hard] = await Promise.all([
    // Debian's defaults, the AdminServer on as upstream's release runs it (on the test's address, not
    // 0.0.0.0:8080), and JMX with the JDK template's passwords.
    zookeeper(A(1), ZK_DEFAULT, admin, { address: A(1), port: jmx, local: 28603, template: true }),
    zookeeper(A(2), ZK_OPEN_4LW),
    zookeeper(A(100), ZK_HARDENED),
  ]);

  const four = await run('vigil.zookeeper.4lw', A(2), open);
  assert.equal(four.svc.name, 'zookeeper');
  assert.match(four.svc.version ?? '', /^3\.\d+\.\d+/);
  assert.match(
    four.findings[0]!.detail,
    /^"envi" was answered "Environment: \| zookeeper\.version=3\.[^"]*"; four-letter words answered: envi, conf, cons, dump, stat, mntr \(sent one per connection, nothing else\)\.$/,
  );
  // The default runs srvr only: nothing to report there, nor on the twin.
  assert.deepEqual((await run('vigil.zookeeper.4lw', A(1), plain)).findings, []);
  const twin4 = await run('vigil.zookeeper.4lw', A(100), hard);
  assert.equal(twin4.svc.name, 'zookeeper');
  assert.deepEqual(twin4.findings, []);

  const read = await run('vigil.zookeeper.anonymous', A(1), plain);
  assert.match(
    read.findings[0]!.detail,
    /^A session without credentials was granted \(session 0x[0-9a-f]{16}, timeout \d+ ms\) and getChildren\("\/"\) answered 1 znode: "zookeeper" \(reply error 0\)\.$/,
  );
  assert.deepEqual((await run('vigil.zookeeper.anonymous', A(100), hard)).findings, []);

  const write = await run('vigil.zookeeper.write', A(2), open);
  assert.match(
    write.findings[0]!.detail,
    /^Without credentials, create\("\/vigil-[0-9a-f]{12}", EPHEMERAL, world:anyone\) succeeded; the znode was deleted again at once\.$/,
  );
  assert.deepEqual((await run('vigil.zookeeper.write', A(100), hard)).findings, []);
  // The AdminServer: the same commands over HTTP (its port may bind after the client port: wait for it).
  // Without libservlet-api-java it does not start (java-configs.ts), and there is nothing to find.
  if (existsSync(SERVLET_API)) {
    await eventually(
      async () => (await httpRequest(netFor(A(1)), admin, false, { target: '/commands' }))?.status === 200,
      'the AdminServer',
      30_000,
    );
    const http = await run('vigil.http.zookeeper-admin', A(1), admin);
    assert.equal(http.svc.name, 'http');
    assert.match(
      http.findings[0]!.detail,
      /^ZooKeeper admin commands answer without authentication: \/commands\/configuration \(configuration\), \/commands\/connections \(client connections\), \/commands\/environment \(environment\)\.$/,
    );
  }
  // JMX on the ZooKeeper JVM: closed to null credentials, open to the template's monitorRole/QED.
  const creds = await run('vigil.jmx.default-credentials', A(1), jmx);
  assert.equal(creds.svc.name, 'java-rmi');
  assert.match(
    creds.findings[0]!.detail,
    /^Registry\.lookup\("jmxrmi"\) returned a JMX connector on port \d+; RMIServer\.newClient\(null\) was refused, and newClient\(\{"monitorRole", "QED"\}\) returned javax\.management\.remote\.rmi\.RMIConnectionImpl_Stub: logged in/,
  );
  assert.deepEqual((await run('vigil.jmx.noauth', A(1), jmx)).findings, []);
  // Nothing was left behind.
  assert.match(
    (await run('vigil.zookeeper.anonymous', A(2), open)).findings[0]!.detail,
    /answered 1 znode: "zookeeper"/,
  );
});
