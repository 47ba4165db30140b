/**
 * CUPS on a real Debian cupsd, two instances started once for the file,
 * each in a network namespace of its own so that our requests reach it
 * from an address that is not 127/8 (cupsd trusts loopback whatever its
 * rules say): the open one (Allow all on /, /admin and /admin/conf, no
 * login: remote administration and printer sharing on) with one shared
 * queue, and the hardened twin with Debian's locations (local clients
 * only), which no check reports.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { which } from '../../../../test/helpers/daemons-kit.ts';
import { nsDaemon } from '../../../../test/helpers/ns-daemons.ts';
import { cupsPlan } from '../../../../test/helpers/voip-configs.ts';
import { hostOf, netFor, service } from '../../../../test/helpers/web-daemons.ts';
import { detectOne } from '../../engine/detect.ts';
import { checkById } from '../catalogue.ts';

const CUPSD = which('cupsd');
const [OPEN, HARD] = ['127.0.164.21', '127.0.164.22'];
const PORT = 631;

/** cupsd in a namespace of its own, relayed from address:631 (voip-configs.ts cupsPlan says why). */
const cupsd = (address: string, open: boolean) =>
  nsDaemon('cupsd', (dir) => cupsPlan(dir, open), [{ proto: 'tcp', addr: address, port: PORT, socket: 'tcp-631' }]);

let started: Promise<unknown> | null = null;
const both = () => (started ??= Promise.all([cupsd(OPEN, true), cupsd(HARD, false)]));
const skip = CUPSD ? false : 'cupsd is not installed (apt-get install cups)';
const run = (id: string, address: string) =>
  checkById(id).runOn(hostOf(address, [service(PORT, 'ipp')]), netFor(address));

test('detection names CUPS ipp by its Server header', { skip }, async () => {
  await both();
  const s = await detectOne(netFor(OPEN), PORT, { nmapProbes: false });
  assert.equal(s.name, 'ipp');
  assert.equal(s.product, 'CUPS');
});

test('the shared queue is listed by CUPS-Get-Printers; local clients only, it is not', { skip }, async () => {
  await both();
  const [f] = await run('vigil.ipp.printers-shared', OPEN);
  assert.match(
    f!.detail,
    /^IPP CUPS-Get-Printers \(POST \/\), without credentials, was answered successful-ok with 1 printer: lab-laser, model "Local Raw Printer", location "Building 2, room 14"\.$/,
  );
  assert.deepEqual(await run('vigil.ipp.printers-shared', HARD), []);
});

test('remote administration: /admin and cupsd.conf answered without a login; the twin (local only) refuses', {
  skip,
}, async () => {
  await both();
  const [f] = await run('vigil.cups.remote-admin', OPEN);
  assert.match(
    f!.detail,
    /GET \/admin without credentials was answered HTTP 200 with the page "Administration - CUPS [\d.]+", and GET \/admin\/conf\/cupsd\.conf was answered HTTP 200/,
  );
  assert.equal(f!.risk, 'high');
  assert.deepEqual(await run('vigil.cups.remote-admin', HARD), []);
});
