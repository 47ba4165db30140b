/**
 * Werkzeug's debugger on a real Flask app (Debian python3-flask, `flask
 * run`), three servers started once for the file: debug mode with the PIN
 * off (the console runs code for anyone), debug mode with Werkzeug's
 * default PIN, and the hardened twin with debug mode off.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { daemon, tempDir } from '../../../../test/helpers/daemons-kit.ts';
import { DEBIAN_PYTHON, FLASK_INSTALLED, flaskArgs, flaskEnv } from '../../../../test/helpers/exec-daemons.ts';
import { hostOf, netFor } from '../../../../test/helpers/web-daemons.ts';
import { detectOne } from '../../engine/detect.ts';
import { checkById } from '../catalogue.ts';

const A = (n: number) => `127.0.197.${n}`;

function flask(address: string, debug: boolean, pin = true): Promise<number> {
  const dir = tempDir('flask');
  return daemon(address, DEBIAN_PYTHON, (port) => flaskArgs(dir, address, port), { env: flaskEnv(dir, debug, pin) });
}

test('Flask debug mode: the console without a PIN (high) and with the PIN (medium) are found; debug off is not', {
  skip: FLASK_INSTALLED ? false : 'python3-flask (Debian) is not installed',
  timeout: 60_000,
}, async () => {
  const [open, pinned, off] = await Promise.all([flask(A(31), true, false), flask(A(32), true), flask(A(131), false)]);
  const audit = async (address: string, port: number) => {
    const net = netFor(address);
    const svc = await detectOne(net, port, { bannerMs: 300, nmapProbes: false });
    assert.equal(svc.name, 'http');
    return checkById('vigil.web.debugger-exposed').runOn(hostOf(address, [svc]), net);
  };
  const [f] = await audit(A(31), open);
  assert.match(
    f!.detail,
    /^GET \/console \(Host: localhost\) was answered 200 with Werkzeug's interactive console \("EVALEX = true", "EVALEX_TRUSTED = true"\) \(Server: Werkzeug\/[\d.]+ Python\/[\d.]+\): no PIN guards it/,
  );
  assert.equal(f!.risk, undefined, "high, the check's own risk");
  const [p] = await audit(A(32), pinned);
  assert.match(p!.detail, /"EVALEX_TRUSTED = false"\) .*: a PIN guards it/);
  assert.equal(p!.risk, 'medium');
  assert.deepEqual(await audit(A(131), off), []);
});
