/**
 * Jupyter Notebook (Debian jupyter-notebook), two real servers started
 * once for the file: no token and no password (the REST API answers
 * anyone) and the hardened twin with a token (403 without it).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { daemon, tempDir } from '../../../../test/helpers/daemons-kit.ts';
import { JUPYTER_NOTEBOOK, jupyterArgs, jupyterEnv } from '../../../../test/helpers/exec-daemons.ts';
import { hostOf, netFor } from '../../../../test/helpers/web-daemons.ts';
import { detectOne } from '../../engine/detect.ts';
import { checkById } from '../catalogue.ts';

const A = (n: number) => `127.0.197.${n}`;

function notebook(address: string, open: boolean): Promise<number> {
  const dir = tempDir('jupyter');
  return daemon(address, JUPYTER_NOTEBOOK!, (port) => jupyterArgs(dir, address, port, open), {
    env: jupyterEnv(dir),
  });
}

test('Jupyter Notebook without a token is found (kernel specs, version); with a token it is not', {
  skip: JUPYTER_NOTEBOOK ? false : 'jupyter-notebook is not installed',
  timeout: 90_000,
}, async () => {
  const [open, shut] = await Promise.all([notebook(A(21), true), notebook(A(121), false)]);
  const audit = async (address: string, port: number) => {
    const net = netFor(address);
    const svc = await detectOne(net, port, { bannerMs: 300, nmapProbes: false });
    assert.equal(svc.name, 'http');
    return checkById('vigil.jupyter.open').runOn(hostOf(address, [svc]), net);
  };
  const [f] = await audit(A(21), open);
  assert.match(
    f!.detail,
    /^GET \/api\/kernelspecs was answered 200 with \d+ kernel specs? \(python3.*\) without a token or password; GET \/api names Jupyter \d+\.\d+[\w.]* \(Server: TornadoServer\/[\d.]+\)\.$/,
  );
  assert.deepEqual(await audit(A(121), shut), []);
});
