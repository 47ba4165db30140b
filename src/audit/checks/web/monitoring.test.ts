/**
 * Monitoring endpoints open to anyone (issue 27), on real Debian daemons:
 * Prometheus's node_exporter without and with basic auth (web.config), and
 * lighttpd's mod_status open and limited to an admin address. Apache's
 * mod_status is covered by the web-daemon tests.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { daemon, tempDir, which } from '../../../../test/helpers/daemons-kit.ts';
import { hostOf, netFor, service } from '../../../../test/helpers/web-daemons.ts';
import { haproxyStatsConf } from '../../../../test/helpers/proxy-configs.ts';
import { fetchHttpInfo } from '../../proto/http.ts';
import { checkById } from '../catalogue.ts';

const ADDR = '127.0.71.5';
const EXPORTER = which('prometheus-node-exporter');
const LIGHTTPD = which('lighttpd');

const run = async (id: string, port: number) => {
  const net = netFor(ADDR);
  const svc = service(port, 'http', { http: await fetchHttpInfo(net, port, false) });
  return checkById(id).runOn(hostOf(ADDR, [svc]), net);
};

function exporter(auth: boolean): Promise<number> {
  const dir = tempDir('node-exporter');
  const web = join(dir, 'web.yml');
  if (auth) {
    const hash = execFileSync('htpasswd', ['-nbBC', '10', 'prom', 'not-a-real-secret-5Kd'], { encoding: 'utf8' });
    writeFileSync(web, `basic_auth_users:\n  prom: '${hash.trim().split(':')[1]}'\n`);
  }
  return daemon(ADDR, EXPORTER!, (port) => [
    `--web.listen-address=${ADDR}:${port}`,
    '--collector.disable-defaults',
    '--collector.loadavg',
    ...(auth ? [`--web.config.file=${web}`] : []),
  ]);
}

function lighttpd(open: boolean): Promise<number> {
  const dir = tempDir('lighttpd');
  mkdirSync(join(dir, 'www'));
  writeFileSync(join(dir, 'www', 'index.html'), '<html><body>site</body></html>');
  const status = 'status.status-url = "/server-status"';
  return daemon(ADDR, LIGHTTPD!, (port) => {
    const conf = join(dir, `lighttpd-${port}.conf`);
    writeFileSync(
      conf,
      [
        `server.document-root = "${dir}/www"`,
        `server.bind = "${ADDR}"`,
        `server.port = ${port}`,
        'server.modules = ("mod_status")',
        'index-file.names = ("index.html")',
        // The twin: status only for an admin address (lighttpd's documented way), 404 for everyone else.
        open ? status : `$HTTP["remoteip"] == "192.0.2.10" { ${status} }`,
      ].join('\n'),
    );
    return ['-D', '-f', conf];
  });
}

test('node_exporter: metrics open to anyone are found; behind basic auth (web.config) they are not', {
  skip: EXPORTER ? false : 'prometheus-node-exporter is not installed',
}, async () => {
  const [open, shut] = await Promise.all([exporter(false), exporter(true)]);
  const [f] = await run('vigil.http.metrics-exposed', open);
  assert.match(f!.detail, /Metrics answer without authentication: \/metrics \(Prometheus metrics\)/);
  assert.deepEqual(await run('vigil.http.metrics-exposed', shut), []);
});

test('lighttpd: mod_status open is found; status limited to an admin address is not', {
  skip: LIGHTTPD ? false : 'lighttpd is not installed',
}, async () => {
  const [open, shut] = await Promise.all([lighttpd(true), lighttpd(false)]);
  const [f] = await run('vigil.http.server-status', open);
  assert.equal(f!.detail, '/server-status shows the lighttpd mod_status page.');
  assert.deepEqual(await run('vigil.http.server-status', shut), []);
  // Neither lighttpd is a metrics endpoint.
  assert.deepEqual(await run('vigil.http.metrics-exposed', open), []);
});

const HAPROXY = which('haproxy');

/** haproxy with its stats page at the default URI: open, or behind `stats auth` (401 without credentials). */
function haproxy(open: boolean): Promise<number> {
  const dir = tempDir('haproxy');
  return daemon(ADDR, HAPROXY!, (port) => {
    const conf = join(dir, `haproxy-${port}.cfg`);
    writeFileSync(conf, haproxyStatsConf(ADDR, port, open ? [] : ['stats auth admin:not-a-real-secret-9Hk']));
    return ['-db', '-f', conf];
  });
}

test('haproxy: the stats page open to anyone is found; behind stats auth it is not', {
  skip: HAPROXY ? false : 'haproxy is not installed',
}, async () => {
  const [open, shut] = await Promise.all([haproxy(true), haproxy(false)]);
  const [f] = await run('vigil.http.status-page', open);
  assert.match(f!.detail, /\/haproxy\?stats \(HAProxy statistics\)/);
  assert.deepEqual(await run('vigil.http.status-page', shut), []);
});
