/**
 * Download managers' RPC on real Debian daemons, started once for the
 * file: aria2c with --enable-rpc and no secret vs --rpc-secret (aria2
 * binds its RPC to 127.0.0.1 or to every interface, nothing between, so
 * both run on 127.0.0.1), and transmission-daemon with authentication off
 * and no whitelist vs authentication required (401) and a whitelist that
 * leaves the scanner out (403).
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { daemon, freePort, tempDir, which } from '../../../../test/helpers/daemons-kit.ts';
import { aria2Args, transmissionSettings } from '../../../../test/helpers/exec-daemons.ts';
import { hostOf, netFor } from '../../../../test/helpers/web-daemons.ts';
import { detectOne } from '../../engine/detect.ts';
import { checkById } from '../catalogue.ts';

const A = (n: number) => `127.0.197.${n}`;
const ARIA2C = which('aria2c');
const TRANSMISSION = which('transmission-daemon');

async function audit(address: string, port: number) {
  const net = netFor(address);
  const svc = await detectOne(net, port, { bannerMs: 300, nmapProbes: false });
  return checkById('vigil.download.rpc-open').runOn(hostOf(address, [svc]), net);
}

function aria2(secret: boolean): Promise<number> {
  const dir = tempDir('aria2');
  return daemon('127.0.0.1', ARIA2C!, (port) => aria2Args(dir, port, secret));
}

async function transmission(address: string, rpc: 'open' | 'auth' | 'whitelist'): Promise<number> {
  const dir = tempDir('transmission');
  mkdirSync(join(dir, 'downloads'));
  const peer = await freePort(address);
  return daemon(address, TRANSMISSION!, (port) => {
    transmissionSettings(dir, address, port, peer, rpc);
    return ['-f', '-g', dir];
  });
}

test('aria2 JSON-RPC without a secret is found (version, download directory); with --rpc-secret it is not', {
  skip: ARIA2C ? false : 'aria2c (aria2) is not installed',
  timeout: 60_000,
}, async () => {
  const [open, shut] = await Promise.all([aria2(false), aria2(true)]);
  const [f] = await audit('127.0.0.1', open);
  assert.match(
    f!.detail,
    /^POST \/jsonrpc aria2\.getVersion was answered with version \d+\.\d+\.\d+ \(\d+ features\) and aria2\.getGlobalOption with dir "\/[^"]+", without the RPC secret\.$/,
  );
  assert.deepEqual(await audit('127.0.0.1', shut), []);
});

test('Transmission RPC without authentication is found (session-get after the session-id 409); authentication (401) and a whitelist (403) are not', {
  skip: TRANSMISSION ? false : 'transmission-daemon is not installed',
  timeout: 60_000,
}, async () => {
  const [open, auth, listed] = await Promise.all([
    transmission(A(41), 'open'),
    transmission(A(141), 'auth'),
    transmission(A(142), 'whitelist'),
  ]);
  const [f] = await audit(A(41), open);
  assert.match(
    f!.detail,
    /^POST \/transmission\/rpc session-get was answered 409 with an X-Transmission-Session-Id, then with "result": "success", version [\d.]+ .*download-dir "\/[^"]+\/downloads", without credentials\.$/,
  );
  assert.deepEqual(await audit(A(141), auth), []);
  assert.deepEqual(await audit(A(142), listed), []);
});
