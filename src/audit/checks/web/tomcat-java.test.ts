/**
 * AJP connectors, JMX remote and sample applications on Debian's tomcat10
 * (+ tomcat10-examples), two real JVMs started once for the file:
 * - weak: an AJP connector with no secret that accepts any request
 *   attribute (Ghostcat), one with no secret only, the examples and docs
 *   deployed, and the JVM's JMX agent with authenticate=false;
 * - hardened: an AJP connector with secretRequired and a secret, a Service
 *   with no AJP and no samples, and JMX with a password file.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { test } from 'node:test';
import { daemon, freePort, tempDir, which } from '../../../../test/helpers/daemons-kit.ts';
import { hostOf, netFor } from '../../../../test/helpers/web-daemons.ts';
import { CATALINA, PLANTED, TOMCAT_EXAMPLES, javaTomcat } from '../../../../test/helpers/java-configs.ts';
import { eventually } from '../../../../test/helpers/wait.ts';
import { detectOne } from '../../engine/detect.ts';
import { ajpPing } from '../../proto/ajp.ts';
import { httpRequest } from '../../proto/http.ts';
import { checkById } from '../catalogue.ts';

const A = (n: number) => `127.0.160.${n}`;
const SECRET = 'bench-Ajp-not-a-secret-7Qx';

async function run(id: string, address: string, port: number) {
  const net = netFor(address);
  const svc = await detectOne(net, port, { nmapProbes: false });
  return { svc, findings: await checkById(id).runOn(hostOf(address, [svc]), net) };
}

const TOMCAT = existsSync(CATALINA) && which('java');

test('Tomcat: Ghostcat file read, an AJP connector without secret, examples and JMX without authentication are found; the hardened twin is silent', {
  skip: TOMCAT ? false : 'tomcat10 or java is not installed',
  timeout: 240_000,
}, async () => {
  // Free ports first: one JVM binds several connectors, `daemon` waits on the first.
  const [wHttp, wAjp, oAjp, wJmx, tHttp, tAjp, nHttp, tJmx] = await Promise.all([
    freePort(A(1)),
    freePort(A(1)),
    freePort(A(2)),
    freePort(A(3)),
    freePort(A(100)),
    freePort(A(100)),
    freePort(A(101)),
    freePort(A(101)),
  ]);
  const weakEnv = javaTomcat(tempDir('tomcat-weak'), {
    http: [{ address: A(1), port: wHttp }],
    ajp: [
      { address: A(1), port: wAjp, anyAttribute: true },
      { address: A(2), port: oAjp },
    ],
    samples: true,
    jmx: { address: A(3), port: wJmx, local: 28601 },
  });
  const twinDir = tempDir('tomcat-twin');
  const twinEnv = javaTomcat(twinDir, {
    http: [
      { address: A(100), port: tHttp },
      { address: A(101), port: nHttp },
    ],
    ajp: [{ address: A(100), port: tAjp, secret: SECRET }],
    samples: false,
    jmx: { address: A(101), port: tJmx, local: 28602, password: SECRET },
  });
  await Promise.all([
    daemon(A(1), CATALINA, () => ['run'], { port: wHttp, env: weakEnv }),
    daemon(A(100), CATALINA, () => ['run'], { port: tHttp, env: twinEnv }),
  ]);
  // Connectors bind before the applications deploy: wait for ROOT on both, and the JMX agents (bound first).
  for (const [address, port] of [
    [A(1), wHttp],
    [A(100), tHttp],
  ] as const)
    await eventually(
      async () => (await httpRequest(netFor(address), port, false, { timeoutMs: 2000 }))?.status === 200,
      `Tomcat's ROOT on ${address}`,
      90_000,
    );

  // Detection names AJP and RMI.
  assert.equal(await ajpPing(netFor(A(1)), wAjp), true);
  const ghost = await run('vigil.ajp.file-read', A(1), wAjp);
  assert.equal(ghost.svc.name, 'ajp13');
  assert.equal(ghost.findings.length, 1);
  assert.match(
    ghost.findings[0]!.detail,
    new RegExp(
      `^FORWARD_REQUEST GET /vigil-ajp.txt with the include attributes .*: the container answered SEND_HEADERS 200 .* bytes of the root application's WEB-INF/web.xml, starting "<web-app .*\\(display-name "${PLANTED}"\\)\\.$`,
    ),
  );
  const open = await run('vigil.ajp.open', A(1), wAjp);
  assert.match(
    open.findings[0]!.detail,
    /^FORWARD_REQUEST GET \/ with no secret, remote_addr 127\.0\.160\.1: the container answered SEND_HEADERS 200/,
  );
  // Without allowedRequestAttributesPattern the attributes are refused (403): open, but no file read.
  assert.equal((await run('vigil.ajp.open', A(2), oAjp)).findings.length, 1);
  assert.deepEqual((await run('vigil.ajp.file-read', A(2), oAjp)).findings, []);
  // The secret: 403 to both.
  const twin = await run('vigil.ajp.open', A(100), tAjp);
  assert.equal(twin.svc.name, 'ajp13');
  assert.deepEqual(twin.findings, []);
  assert.deepEqual((await run('vigil.ajp.file-read', A(100), tAjp)).findings, []);

  // JMX: the registry lists jmxrmi on both (LOG); only the weak one opens a connection without credentials.
  const jmx = await run('vigil.jmx.noauth', A(3), wJmx);
  assert.equal(jmx.svc.name, 'java-rmi');
  assert.equal(jmx.findings.length, 1);
  assert.match(
    jmx.findings[0]!.detail,
    new RegExp(
      `^Registry.lookup\\("jmxrmi"\\) returned javax.management.remote.rmi.RMIServerImpl_Stub for port ${wJmx} .*RMIServer.newClient\\(null\\) on 127.0.160.3:${wJmx} returned javax.management.remote.rmi.RMIConnectionImpl_Stub: a JMX connection without credentials`,
    ),
  );
  const list = await run('vigil.rmi.registry', A(101), tJmx);
  assert.equal(
    list.findings[0]!.detail,
    'Registry.list() (JRMP call to ObjID 0, operation 1) returned 1 name: "jmxrmi".',
  );
  assert.deepEqual((await run('vigil.jmx.noauth', A(101), tJmx)).findings, []);
  // A strong password is not the template's; an open connector is noauth's finding, not this one's.
  assert.deepEqual((await run('vigil.jmx.default-credentials', A(101), tJmx)).findings, []);
  assert.deepEqual((await run('vigil.jmx.default-credentials', A(3), wJmx)).findings, []);

  // Sample applications: found on the weak HTTP port, not on the twin's nor on the Service without AJP.
  const samples = 'vigil.http.sample-apps';
  if (existsSync(TOMCAT_EXAMPLES)) {
    const s = await run(samples, A(1), wHttp);
    assert.equal(s.findings.length, 1);
    assert.match(
      s.findings[0]!.detail,
      /^Sample or documentation pages answer: .*\/examples\/jsp\/snp\/snoop\.jsp \(Tomcat JSP example snoop\.jsp\)/,
    );
  }
  assert.deepEqual((await run(samples, A(100), tHttp)).findings, []);
  assert.deepEqual((await run(samples, A(101), nHttp)).findings, []);
});
