/**
 * CUPS planted directly on a loopback address, as a scanner on the same
 * host meets it (no namespace, unlike cups.test.ts): Debian's cupsd on
 * 127.14.95.x, two instances started once for the file. cupsd answers the
 * address as Host with its 400 Bad Request and lets `Host: localhost`
 * through whatever its rules say (proto/cups.ts), so the checks ask again
 * with localhost and report only on the configuration it serves: the open
 * one (Allow all, no login on /, /admin and /admin/conf) is reported by
 * both checks, saying which Host was used, and so is one set up as
 * `cupsctl --remote-admin --remote-any` leaves it (a login for
 * /admin/conf: its Administration page states the settings); the hardened
 * twin (Debian's
 * locations: a login for /admin/conf, the same shared queue) answers the
 * same pages to a loopback client but serves no configuration, and is not.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { daemon, tempDir, which } from '../../../../test/helpers/daemons-kit.ts';
import { cupsdLoopbackArgs } from '../../../../test/helpers/sharing-daemons.ts';
import { hostOf, netFor, service } from '../../../../test/helpers/web-daemons.ts';
import { httpRequest } from '../../proto/http.ts';
import { cupsHostRefused } from '../../proto/cups.ts';
import { checkById } from '../catalogue.ts';

const CUPSD = which('cupsd');
const [OPEN, CTL, HARD] = ['127.14.95.221', '127.14.95.223', '127.14.95.222'];
const PORT = 631;
const skip = CUPSD && process.getuid?.() === 0 ? false : 'needs root and cupsd (apt-get install cups)';

const cupsd = (addr: string, mode: 'open' | 'remote-admin' | 'local') => {
  const dir = tempDir('cups-lo');
  return daemon(addr, CUPSD!, (port) => cupsdLoopbackArgs(dir, addr, port, mode), { port: PORT });
};
let started: Promise<unknown> | null = null;
const both = () => (started ??= Promise.all([cupsd(OPEN, 'open'), cupsd(CTL, 'remote-admin'), cupsd(HARD, 'local')]));
const run = (id: string, addr: string) => checkById(id).runOn(hostOf(addr, [service(PORT, 'ipp')]), netFor(addr));

test('cupsd refuses the address as Host with its own 400', { skip }, async () => {
  await both();
  const a = await httpRequest(netFor(OPEN), PORT, false, { target: '/' });
  assert.ok(cupsHostRefused(a), `${a?.status} ${a?.headers['server']} ${a?.body.slice(0, 200)}`);
});

test('remote administration: found with Host: localhost on its configuration; the twin is not', { skip }, async () => {
  await both();
  const [f, ...more] = await run('vigil.cups.remote-admin', OPEN);
  assert.equal(more.length, 0);
  assert.match(
    f!.detail,
    /^cupsd answered Host "127\.14\.95\.221:631" with its 400 Bad Request \(to a loopback client it takes only localhost as Host\), so the requests went again with Host: localhost\. .*: GET \/admin\/conf\/cupsd\.conf, without credentials, was answered HTTP 200 with a cupsd\.conf whose <Location \/admin> admits clients from the network and requires no login \("Allow all"\), as its <Location \/admin\/conf> does \("Allow all"\)/,
  );
  assert.equal(f!.risk, 'high');
  assert.deepEqual(await run('vigil.cups.remote-admin', HARD), []);
});

test('shared queue: found with Host: localhost, marked shared and open in cupsd.conf; the twin is not', {
  skip,
}, async () => {
  await both();
  const [f, ...more] = await run('vigil.ipp.printers-shared', OPEN);
  assert.equal(more.length, 0);
  assert.match(
    f!.detail,
    /so the requests went again with Host: localhost\. .*: IPP CUPS-Get-Printers \(POST \/\) answered 1 printer, 1 marked printer-is-shared: lab-laser, model "Local Raw Printer", location "Building 2, room 14"; and GET \/admin\/conf\/cupsd\.conf, without credentials, was answered HTTP 200 with a cupsd\.conf that admits clients from the network to them and requires no login \("Allow all"\)\.$/,
  );
  assert.deepEqual(await run('vigil.ipp.printers-shared', HARD), []);
});

test('cupsctl --remote-admin --remote-any (a login for /admin/conf): found on the settings its page states', {
  skip,
}, async () => {
  await both();
  const [admin, ...more] = await run('vigil.cups.remote-admin', CTL);
  assert.equal(more.length, 0);
  assert.match(
    admin!.detail,
    /as its own pages state it: GET \/admin answered, without credentials, the page "Administration - CUPS [\d.]+" with the server settings its admin CGI reads from cupsd\.conf, "Allow remote administration" \(REMOTE_ADMIN CHECKED\): <Location \/admin> admits clients from the network\. \/admin\/conf\/cupsd\.conf itself was not served without a login\.$/,
  );
  assert.equal(admin!.risk, undefined); // the check's own: medium
  const [shared] = await run('vigil.ipp.printers-shared', CTL);
  assert.match(
    shared!.detail,
    /"Allow printing from the Internet" \(REMOTE_ANY CHECKED\): clients from the network reach those queues\.$/,
  );
});
