/**
 * Debuggers listening to the network, on real programs started once for
 * the file: a JVM with a JDWP agent (Debian's OpenJDK), Node.js with
 * --inspect on the audited address. Neither protocol has authentication,
 * so the hardened form is the same program bound to 127.0.0.1, where an
 * audit of another address finds nothing; what must stay silent is what
 * resembles them: an echo server on a JDWP port (it returns the handshake
 * too) and an ordinary web server's 404 for /json/version. Also a shell
 * bound to a port (socat EXEC:/bin/sh) against an echo service and the
 * same shell behind a password.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { daemon, tempDir, which } from '../../../../test/helpers/daemons-kit.ts';
import { PASSWORD_SHELL, jdwpJvmArgs, nodeInspectorArgs } from '../../../../test/helpers/exec-daemons.ts';
import { hostOf, netFor, nginx, NGINX, service } from '../../../../test/helpers/web-daemons.ts';
import { detectOne } from '../../engine/detect.ts';
import { checkById } from '../catalogue.ts';

const A = (n: number) => `127.0.197.${n}`;
const JAVA = which('java');
const JAVAC = which('javac'); // the one-file source launcher needs the JDK's compiler module
const SOCAT = which('socat');

const run = (id: string, address: string, port: number, name: string) =>
  checkById(id).runOn(hostOf(address, [service(port, name)]), netFor(address));

test('JDWP: a JVM whose agent listens on the audited address is found (VirtualMachine.Version); an echo server is not', {
  skip: JAVA && JAVAC && SOCAT ? false : 'java, javac (a JDK) or socat is not installed',
  timeout: 60_000,
}, async () => {
  const dir = tempDir('jdwp');
  const [jvm, echo] = await Promise.all([
    daemon(A(51), JAVA!, (port) => jdwpJvmArgs(dir, A(51), port), { port: 5005 }),
    daemon(A(151), SOCAT!, (port) => [`TCP-LISTEN:${port},bind=${A(151)},fork,reuseaddr`, 'EXEC:cat']),
  ]);
  // Named on its usual port by the handshake and VirtualMachine.Version (detect/jdwp.ts), not as an echo.
  const svc = await detectOne(netFor(A(51)), jvm, { bannerMs: 300, nmapProbes: false });
  assert.equal(svc.name, 'jdwp');
  const [f] = await run('vigil.jdwp.open', A(51), jvm, 'jdwp');
  assert.match(
    f!.detail,
    /^"JDWP-Handshake" was echoed and VirtualMachine\.Version answered "Java Debug Wire Protocol .*" \(JDWP \d+\.\d+, OpenJDK .*\)\.$/,
  );
  assert.deepEqual(await run('vigil.jdwp.open', A(151), echo, 'jdwp'), []);
});

test('Node.js --inspect on the audited address is found (/json/version, /json/list); a web server is not', {
  skip: NGINX ? false : 'nginx is not installed',
  timeout: 60_000,
}, async () => {
  const [inspector, web] = await Promise.all([
    daemon(A(61), process.execPath, (port) => nodeInspectorArgs(A(61), port)),
    nginx(A(161), 'location / { return 404; }'),
  ]);
  const [f] = await run('vigil.devtools.open', A(61), inspector, 'http');
  assert.match(
    f!.detail,
    /^GET \/json\/version was answered with Browser "node\.js\/v[\d.]+" and Protocol-Version "1\.1", GET \/json\/list with 1 debuggable target \(node\) and their webSocketDebuggerUrl, without credentials\.$/,
  );
  assert.deepEqual(await run('vigil.devtools.open', A(161), web, 'http'), []);
});

test('a shell bound to a port is found (the arithmetic expanded); an echo service and a shell behind a password are not', {
  skip: SOCAT ? false : 'socat is not installed',
  timeout: 30_000,
}, async () => {
  const [shell, echo, locked] = await Promise.all([
    daemon(A(91), SOCAT!, (port) => [
      `TCP-LISTEN:${port},bind=${A(91)},fork,reuseaddr`,
      process.getuid?.() === 0 ? 'EXEC:/bin/sh,stderr,su=nobody' : 'EXEC:/bin/sh,stderr',
    ]),
    daemon(A(191), SOCAT!, (port) => [`TCP-LISTEN:${port},bind=${A(191)},fork,reuseaddr`, 'EXEC:cat']),
    daemon(A(192), SOCAT!, (port) => [`TCP-LISTEN:${port},bind=${A(192)},fork,reuseaddr`, PASSWORD_SHELL]),
  ]);
  const [f] = await run('vigil.shell.bind', A(91), shell, 'unknown');
  assert.equal(
    f!.detail,
    'The line "echo VIGIL$((6*7))SHELL" was answered "VIGIL42SHELL": the arithmetic was expanded, so a shell runs what is sent.',
  );
  assert.deepEqual(await run('vigil.shell.bind', A(191), echo, 'unknown'), []);
  assert.deepEqual(await run('vigil.shell.bind', A(192), locked, 'unknown'), []);
});
