/**
 * Control channels of a resolver and a time server, on real Debian
 * daemons beside their hardened twins (configurations shared with the
 * bench: test/helpers/control-daemons.ts): Unbound's remote control in
 * plaintext (control-use-cert: no) vs behind TLS with client certificates;
 * chronyd's command port with `cmdallow all` vs its default (127.0.0.1 and
 * ::1 only). chronyd tells localhost by the source address 127.0.0.1, so
 * its addresses are put on lo (the scanner's packets then come from the
 * address itself, as a remote client's would come from elsewhere).
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { test } from 'node:test';
import { daemon, freePort, onCleanup, stop, tempDir, which } from '../../../../test/helpers/daemons-kit.ts';
import { loAlias } from '../../../../test/helpers/daemons-net.ts';
import { hostOf, netFor, service } from '../../../../test/helpers/web-daemons.ts';
import { eventually } from '../../../../test/helpers/wait.ts';
import { chronyArgs, chronyConf, chronySocket, unboundConf } from '../../../../test/helpers/control-daemons.ts';
import { detectServices } from '../../engine/detect.ts';
import { requestsClientCertificate } from '../../proto/tls-client-auth.ts';
import { checkById } from '../catalogue.ts';
import { spawn } from 'node:child_process';

const A = (n: number) => `127.0.214.${n}`;
const UNBOUND = which('unbound');
const CHRONYD = which('chronyd');
const SETUP = which('unbound-control-setup');

test('Unbound remote control: control-use-cert no found ("UBCT1 status" answered); with certificates not', {
  skip: UNBOUND && SETUP ? false : 'unbound or unbound-control-setup is not installed',
}, async () => {
  const unbound = async (address: string, cert: boolean) => {
    const dir = tempDir('unbound');
    const dns = await freePort(address);
    return daemon(address, UNBOUND!, (port) => ['-d', '-c', unboundConf(dir, address, port, dns, cert)]);
  };
  const [plain, tls] = await Promise.all([unbound(A(31), false), unbound(A(32), true)]);
  const net = netFor(A(31));
  const [s] = await detectServices(net, [plain], { bannerMs: 1000, portBudgetMs: 6000 });
  assert.equal(s!.name, 'ub-dns-control');
  const [f] = await checkById('vigil.unbound.control-open').runOn(hostOf(A(31), [s!]), net);
  assert.match(
    f!.detail,
    /^"UBCT1 status" sent in the clear was answered "version: 1\.\d+\.\d+ \| uptime: \d+ seconds \| options: [^|]+ \| unbound \(pid \d+\) is running\.\.\."\.$/,
  );
  // The twin as if detection had named it: the plaintext line is dropped by the TLS listener.
  const twin = hostOf(A(32), [service(tls, 'ub-dns-control')]);
  assert.deepEqual(await checkById('vigil.unbound.control-open').runOn(twin, netFor(A(32))), []);
  // As detection finds it: TLS with a self-signed certificate named "unbound", and a CertificateRequest in its
  // TLS 1.2 flight; the trust checks leave it alone (its clients pin that certificate), the others still run.
  const tlsNet = netFor(A(32));
  const seen = hostOf(A(32), await detectServices(tlsNet, [tls], { bannerMs: 1000, portBudgetMs: 6000 }));
  assert.equal(seen.services[0]!.tls?.certificate?.selfSigned, true);
  assert.equal(await requestsClientCertificate(tlsNet, tls), true);
  for (const id of ['vigil.tls.cert-self-signed', 'vigil.tls.cert-hostname', 'vigil.tls.cert-untrusted'])
    assert.deepEqual(await checkById(id).runOn(seen, tlsNet), [], id);
});

test('chronyd command port: cmdallow all answers "tracking" (found); the default drops the request (not found)', {
  skip: CHRONYD ? false : 'chronyd is not installed',
}, async () => {
  const chronyd = (address: string, open: boolean) => {
    loAlias(address);
    const dir = tempDir('chrony');
    const child = spawn(CHRONYD!, chronyArgs(chronyConf(dir, address, 323, open)), { stdio: 'ignore', detached: true });
    onCleanup(() => stop(child));
    // The Unix command socket is made when the UDP one is bound: the daemon is ready.
    return eventually(async () => child.exitCode === null && existsSync(chronySocket(dir)), `chronyd on ${address}`);
  };
  await Promise.all([chronyd(A(41), true), chronyd(A(42), false)]);
  const check = checkById('vigil.chrony.cmdmon-open');
  const [f] = await check.runOn(hostOf(A(41), []), netFor(A(41)));
  assert.equal(f!.port, 323);
  assert.match(
    f!.detail,
    /^UDP 323: a 104-byte cmdmon request "tracking" \(REQ_TRACKING, protocol 6\) was answered with status success and 104 bytes: reference ID [0-9A-F]{8}.*, stratum \d+, leap status [a-z ]+\.$/,
  );
  assert.deepEqual(await check.runOn(hostOf(A(42), []), netFor(A(42))), []);
});
