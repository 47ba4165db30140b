/**
 * supervisord (Debian supervisor), two real daemons started once for the
 * file: [inet_http_server] without credentials (its XML-RPC answered) and
 * the hardened twin with username and password (401 before the call is
 * read).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { daemon, tempDir, which } from '../../../../test/helpers/daemons-kit.ts';
import { supervisorConf } from '../../../../test/helpers/exec-daemons.ts';
import { hostOf, netFor } from '../../../../test/helpers/web-daemons.ts';
import { detectOne } from '../../engine/detect.ts';
import { checkById } from '../catalogue.ts';

const A = (n: number) => `127.0.197.${n}`;
const SUPERVISORD = which('supervisord');

function supervisord(address: string, auth: boolean): Promise<number> {
  const dir = tempDir('supervisor');
  return daemon(address, SUPERVISORD!, (port) => ['-n', '-c', supervisorConf(dir, address, port, auth)]);
}

test('supervisord: XML-RPC without credentials is found (state, version, processes); with username and password it is not', {
  skip: SUPERVISORD ? false : 'supervisord (supervisor) is not installed',
  timeout: 60_000,
}, async () => {
  const [open, shut] = await Promise.all([supervisord(A(11), false), supervisord(A(111), true)]);
  const audit = async (address: string, port: number) => {
    const net = netFor(address);
    const svc = await detectOne(net, port, { bannerMs: 300, nmapProbes: false });
    assert.equal(svc.name, 'http');
    return checkById('vigil.supervisor.rpc-open').runOn(hostOf(address, [svc]), net);
  };
  const [f] = await audit(A(11), open);
  assert.match(
    f!.detail,
    /^POST \/RPC2 supervisor\.getState was answered "RUNNING", supervisor\.getSupervisorVersion "\d+\.\d+[\w.]*", supervisor\.getAllProcessInfo listed 1 process \(vigil-sleeper\), without credentials\.$/,
  );
  assert.equal(f!.cves, undefined, "Debian's supervisor 4 is not affected by CVE-2017-11610");
  assert.deepEqual(await audit(A(111), shut), []);
});
