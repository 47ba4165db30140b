/**
 * distccd (Debian distcc), three real daemons started once for the file:
 * --allow 0.0.0.0/0 with Debian's compiler whitelist (a compile of an
 * empty source answered), --allow 0.0.0.0/0 --make-me-a-botnet (no
 * whitelist: a program that exists nowhere is tried, and `sh -c id` runs,
 * as distcc before 3.3 did), and a hardened twin allowing a documentation
 * network only (the scanner is closed at once).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { daemon, which } from '../../../../test/helpers/daemons-kit.ts';
import { DISTCCD_ENV, distccdArgs } from '../../../../test/helpers/exec-daemons.ts';
import { hostOf, netFor, service } from '../../../../test/helpers/web-daemons.ts';
import { detectOne } from '../../engine/detect.ts';
import { checkById } from '../catalogue.ts';

const A = (n: number) => `127.0.197.${n}`;
const DISTCCD = which('distccd');
const CC = which('cc');
/** distcc's own port, on addresses of this file's own: detection names the service only there. */
const PORT = 3632;

/** Detection's name for the port, or (the twin: a refusal names nothing) distcc's port as unnamed. */
async function audit(address: string, port: number, ids: string[], detect = true) {
  const net = netFor(address);
  const svc = detect ? await detectOne(net, port, { bannerMs: 300, nmapProbes: false }) : service(port, 'unknown');
  const host = hostOf(address, [svc]);
  return { svc, findings: await Promise.all(ids.map((id) => checkById(id).runOn(host, net))) };
}

test('distccd open to the scanner: whitelisted compile jobs and, without the whitelist, any program are found (CVE-2004-2687); --allow without the scanner is not', {
  skip: DISTCCD && CC ? false : 'distccd (distcc) or a C compiler is not installed',
  timeout: 60_000,
}, async () => {
  const [listed, any, twin] = await Promise.all([
    daemon(A(1), DISTCCD!, (port) => distccdArgs(A(1), port, '0.0.0.0/0'), { port: PORT, env: DISTCCD_ENV }),
    daemon(A(2), DISTCCD!, (port) => distccdArgs(A(2), port, '0.0.0.0/0', true), { port: PORT, env: DISTCCD_ENV }),
    daemon(A(100), DISTCCD!, (port) => distccdArgs(A(100), port, '192.0.2.0/24'), { port: PORT, env: DISTCCD_ENV }),
  ]);
  const ids = ['vigil.distcc.open', 'vigil.distcc.exec'];

  const w = await audit(A(1), listed, ids);
  const [open] = w.findings[0]!;
  const exec = w.findings[1]!;
  assert.match(
    open!.detail,
    /^A job for "cc -c vigil-scanner\.c -o vigil-scanner\.o" with an empty source was answered DONE00000001STAT00000000…: exit 0, a \d+-byte object file.*; a job for "vigil-scanner-no-such-compiler" was closed without a reply \(compilers limited to the whitelist\)\.$/,
  );
  assert.deepEqual(exec, [], 'the whitelist keeps sh from running');

  const b = await audit(A(2), any, ids);
  const [anyOpen] = b.findings[0]!;
  const [ran] = b.findings[1]!;
  assert.match(
    anyOpen!.detail,
    /^A job for "vigil-scanner-no-such-compiler -c vigil-scanner\.c -o vigil-scanner\.o" \(a program that exists nowhere\) was answered DONE00000001STAT[0-9a-f]{8}…: exit \d+, stderr ".*failed to exec vigil-scanner-no-such-compiler: No such file or directory.*": distccd tries to run whatever program a client names/,
  );
  assert.match(ran!.detail, /answered with the output of id: "uid=\d+\(\w+\)/);

  const t = await audit(A(100), twin, ids, false);
  assert.deepEqual(t.findings.flat(), []);
  // Named by the compile of an empty source on distcc's port (detect/distcc.ts, as nmap's DistCCD probe);
  // the twin is asked on distcc's port unnamed.
  assert.equal(w.svc.name, 'distccd');
  assert.equal(b.svc.name, 'distccd');
});
