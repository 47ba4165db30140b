/**
 * Varnish's management CLI on real varnishd (Debian varnish): -T with
 * `-S none` (authentication off) against the same -T with a secret file
 * (the 107 challenge). Detection names both from their greeting.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { daemon, freePort, tempDir, which } from '../../../../test/helpers/daemons-kit.ts';
import { hostOf, netFor } from '../../../../test/helpers/web-daemons.ts';
import { varnishArgs } from '../../../../test/helpers/ops-daemons.ts';
import { detectServices } from '../../engine/detect.ts';
import { checkById } from '../catalogue.ts';

const WEAK = '127.0.183.21';
const TWIN = '127.0.183.22';
const VARNISHD = which('varnishd');

/** varnishd in the foreground, its CLI with (`-S` file) or without authentication (`-S none`). */
async function varnishd(address: string, secret: boolean): Promise<number> {
  const dir = tempDir('varnish');
  const http = await freePort(address);
  return daemon(address, VARNISHD!, (cli) => varnishArgs(dir, address, { http, cli }, secret));
}

test('varnishd -S none: the CLI answers ping and status (found); with a secret file: the 107 challenge (not found)', {
  skip: VARNISHD ? false : 'varnishd is not installed',
}, async () => {
  const [open, shut] = await Promise.all([varnishd(WEAK, false), varnishd(TWIN, true)]);
  const audit = async (address: string, port: number) => {
    const net = netFor(address);
    const services = await detectServices(net, [port], { bannerMs: 1500 });
    assert.equal(services[0]!.name, 'varnish-cli');
    return checkById('vigil.varnish.cli-open').runOn(hostOf(address, services), net);
  };
  const [f] = await audit(WEAK, open);
  assert.match(
    f!.detail,
    /^The CLI greeted with status 200 and its banner \(".*Varnish Cache CLI.*"\), no 107 authentication challenge; "ping" answered 200 "PONG \d+ 1\.0"; "status" answered 200 "Child in state \w+"\.$/,
  );
  assert.deepEqual(await audit(TWIN, shut), []);
});
