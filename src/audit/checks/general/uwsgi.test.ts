/**
 * uWSGI (Debian uwsgi + uwsgi-plugin-python3), two servers started once
 * for the file: the weak one with its uwsgi-protocol socket and its stats
 * server on TCP, and the hardened twin serving HTTP only (--http-socket)
 * with its stats on a Unix socket.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { UWSGI, UWSGI_PYTHON3, uwsgiArgs } from '../../../../test/helpers/app-servers.ts';
import { daemon, freePort, tempDir } from '../../../../test/helpers/daemons-kit.ts';
import { eventually } from '../../../../test/helpers/wait.ts';
import { hostOf, netFor } from '../../../../test/helpers/web-daemons.ts';
import { detectOne } from '../../engine/detect.ts';
import type { Service } from '../../engine/types.ts';
import { parseUwsgiStats } from '../../proto/uwsgi.ts';
import { talk } from '../../proto/talk.ts';
import { checkById } from '../catalogue.ts';

const A = (n: number) => `127.14.103.${n}`;
const run = (id: string, address: string, svc: Service) => checkById(id).runOn(hostOf(address, [svc]), netFor(address));
const detect = (address: string, port: number) =>
  detectOne(netFor(address), port, { bannerMs: 300, nmapProbes: false });

test('uWSGI: the uwsgi socket (HOLE) and the stats server (NOTE) on TCP are found; HTTP only, stats on a Unix socket is not', {
  skip: UWSGI && UWSGI_PYTHON3 ? false : 'uwsgi and uwsgi-plugin-python3 (Debian) are not installed',
  timeout: 60_000,
}, async () => {
  const [weakDir, twinDir] = [tempDir('uwsgi'), tempDir('uwsgi')];
  const statsPort = await freePort(A(31));
  const [weak, twin] = await Promise.all([
    daemon(A(31), UWSGI!, (port) => uwsgiArgs(weakDir, { socket: `${A(31)}:${port}`, stats: `${A(31)}:${statsPort}` })),
    // On 3031, uwsgi's usual socket port: there the check's port rule picks it, so its silence is a verdict.
    daemon(
      A(131),
      UWSGI!,
      (port) => uwsgiArgs(twinDir, { http: `${A(131)}:${port}`, stats: join(twinDir, 'stats.sock') }),
      { port: 3031 },
    ),
  ]);
  // The stats server is bound by the master with the socket; polled, not assumed.
  await eventually(async () => !!(await talk(netFor(A(31)), statsPort, async () => true)), 'the stats port');

  const socketSvc = await detect(A(31), weak);
  assert.equal(socketSvc.name, 'uwsgi');
  const [open] = await run('vigil.uwsgi.open', A(31), socketSvc);
  assert.match(
    open!.detail,
    /^A uwsgi-protocol request \(modifier1 0, GET \/vigil-scanner-no-such-page, no variable that loads code\) was answered with the application's HTTP response "HTTP\/1\.1 404 Not Found" \("Vigil test app: not here"\)/,
  );

  const statsSvc = await detect(A(31), statsPort);
  assert.equal(statsSvc.name, 'uwsgi-stats');
  assert.match(statsSvc.version ?? '', /^2\.\d+/);
  const [stats] = await run('vigil.uwsgi.stats-open', A(31), statsSvc);
  assert.match(
    stats!.detail,
    new RegExp(
      `^Connecting, without sending a byte, was answered with uWSGI's stats document \\(\\d+ bytes\\): uWSGI 2\\.[\\w.-]+, master pid \\d+, uid \\d+, cwd /\\S*, 1 worker, sockets ${A(31).replace(/\./g, '\\.')}:${weak}\\.$`,
    ),
  );

  // The twin: its HTTP socket is an HTTP server, not a uwsgi socket; its stats are on a Unix socket only.
  const twinSvc = await detect(A(131), twin);
  assert.equal(twinSvc.name, 'http');
  assert.deepEqual(await run('vigil.uwsgi.open', A(131), twinSvc), []);
  await eventually(async () => existsSync(join(twinDir, 'stats.sock')), "the twin's stats socket");
});

test("uWSGI stats: a document cut at the read cap still names the server; other JSON is not uWSGI's", () => {
  const head =
    '{\n\t"version":"2.0.21-debian",\n\t"listen_queue":0,\n\t"load":0,\n\t"pid":42,\n\t"uid":33,\n\t"gid":33,\n\t"cwd":"/srv/app",\n\t"locks":[],\n\t"workers":[\n\t\t{"id":1,"pid":43,"accepting":1,';
  assert.deepEqual(parseUwsgiStats(head), {
    version: '2.0.21-debian',
    pid: 42,
    uid: 33,
    cwd: '/srv/app',
    workers: 1,
    sockets: [],
    paths: [],
  });
  assert.equal(parseUwsgiStats('{"version":"1.2","status":"ok"}'), null);
  assert.equal(parseUwsgiStats('not json'), null);
});
