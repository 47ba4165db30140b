/**
 * The Prometheus stack open to anyone, on Debian's own daemons (prometheus
 * 2.42, prometheus-pushgateway 1.5, prometheus-alertmanager 0.25): each
 * open (Prometheus and the Pushgateway with the admin API and lifecycle
 * endpoints on) and its hardened twin behind exporter-toolkit's web.config
 * basic_auth_users (401 on every path; Prometheus's twin also without the
 * admin and lifecycle flags). All six start at once, once for the file.
 * Scrape targets are loopback addresses only: a host name would send a DNS
 * query off the machine.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, test } from 'node:test';
import { daemon, tempDir, which } from '../../../../test/helpers/daemons-kit.ts';
import { eventually } from '../../../../test/helpers/wait.ts';
import { certificate, freePort, hostOf, netFor, service } from '../../../../test/helpers/web-daemons.ts';
import { fetchHttpInfo, httpRequest } from '../../proto/http.ts';
import { detectOne } from '../../engine/detect.ts';
import type { Check } from '../kit.ts';
import alertmanagerOpen from './alertmanager-open.ts';
import alertmanagerSilence from './alertmanager-silence.ts';
import memberlistGossipOpen from './memberlist-gossip-open.ts';
import prometheusAdminApi from './prometheus-admin-api.ts';
import prometheusApiOpen from './prometheus-api-open.ts';
import prometheusLifecycle from './prometheus-lifecycle.ts';
import pushgatewayOpen from './pushgateway-open.ts';
import pushgatewayWrite from './pushgateway-write.ts';

/** Issue 27's E2 range (the bench uses 127.14.105-107). */
const ADDR = '127.14.108.1';
/**
 * The hardened twins, on their products' usual ports (9090, 9091, 9093): there the checks' port rule picks them
 * as it would a hardened server, so "the twin is silent" is the checks' verdict on a 401, not a port left out.
 */
const TWIN = '127.14.108.2';
const PROMETHEUS = which('prometheus');
const PUSHGATEWAY = which('prometheus-pushgateway');
const ALERTMANAGER = which('prometheus-alertmanager');
const HTPASSWD = which('htpasswd');
const missing = !PROMETHEUS || !PUSHGATEWAY || !ALERTMANAGER || !HTPASSWD;
const skip = missing
  ? 'prometheus, prometheus-pushgateway, prometheus-alertmanager or htpasswd is not installed'
  : false;

const SECRETS = ['scrape-pass-Q7v', 'bearer-tok-Z3k', 'smtp-pass-W9x', 'T000/B000/hooktoken'];

/** The checks by id (imported, not through the catalogue: catalogue.test.ts covers their registration). */
const CHECKS = new Map<string, Check>(
  [
    prometheusApiOpen,
    prometheusAdminApi,
    prometheusLifecycle,
    pushgatewayOpen,
    pushgatewayWrite,
    alertmanagerOpen,
    alertmanagerSilence,
    memberlistGossipOpen,
  ].map((c) => [c.id, c]),
);

const run = async (id: string, port: number, address = ADDR) => {
  const net = netFor(address);
  const svc = service(port, 'http', { http: await fetchHttpInfo(net, port, false) });
  return CHECKS.get(id)!.runOn(hostOf(address, [svc]), net);
};

let dir = '';
let webConfig = '';
const ports = { prom: 0, promTwin: 0, pg: 0, pgTwin: 0, am: 0, amTwin: 0, gossip: 0, gossipTls: 0 };

function prometheus(open: boolean) {
  const conf = join(dir, 'prometheus.yml');
  const data = tempDir('prometheus-tsdb');
  const at = open ? ADDR : TWIN;
  return daemon(
    at,
    PROMETHEUS!,
    (port) => [
      `--config.file=${conf}`,
      `--storage.tsdb.path=${data}`,
      `--web.listen-address=${at}:${port}`,
      ...(open ? ['--web.enable-admin-api', '--web.enable-lifecycle'] : [`--web.config.file=${webConfig}`]),
    ],
    open ? {} : { port: 9090 },
  );
}

function pushgateway(open: boolean) {
  // Debian's default --persistence.file is /var/lib/prometheus/pushgateway.data: kept in the temp dir.
  const state = join(tempDir('pushgateway'), 'pushgateway.data');
  const at = open ? ADDR : TWIN;
  return daemon(
    at,
    PUSHGATEWAY!,
    (port) => [
      `--web.listen-address=${at}:${port}`,
      `--persistence.file=${state}`,
      ...(open ? ['--web.enable-admin-api', '--web.enable-lifecycle'] : [`--web.config.file=${webConfig}`]),
    ],
    open ? {} : { port: 9091 },
  );
}

function alertmanager(open: boolean) {
  const data = tempDir('alertmanager');
  const at = open ? ADDR : TWIN;
  return daemon(
    at,
    ALERTMANAGER!,
    (port) => [
      `--config.file=${join(dir, 'alertmanager.yml')}`,
      `--storage.path=${data}`,
      `--web.listen-address=${at}:${port}`,
      // No gossip listener: its default is 0.0.0.0:9094.
      '--cluster.listen-address=',
      ...(open ? [] : [`--web.config.file=${webConfig}`]),
    ],
    open ? {} : { port: 9093 },
  );
}

/**
 * Alertmanager with its gossip listener on (the daemon's port is the cluster's), in the clear or behind
 * --cluster.tls-config (mutual TLS, its hardened form).
 */
async function gossiping(tls: boolean, port?: number) {
  const data = tempDir('alertmanager-gossip');
  const web = await freePort(ADDR);
  const extra: string[] = [];
  if (tls) {
    const { cert, key } = certificate(data, { cn: ADDR, days: 2 });
    const conf = join(data, 'cluster-tls.yml');
    writeFileSync(
      conf,
      `tls_server_config:\n  cert_file: ${cert}\n  key_file: ${key}\n  client_auth_type: RequireAndVerifyClientCert\n  client_ca_file: ${cert}\ntls_client_config:\n  cert_file: ${cert}\n  key_file: ${key}\n  ca_file: ${cert}\n`,
    );
    extra.push(`--cluster.tls-config=${conf}`);
  }
  return daemon(
    ADDR,
    ALERTMANAGER!,
    (port) => [
      `--config.file=${join(dir, 'alertmanager.yml')}`,
      `--storage.path=${data}`,
      `--web.listen-address=${ADDR}:${web}`,
      `--cluster.listen-address=${ADDR}:${port}`,
      `--cluster.advertise-address=${ADDR}:${port}`,
      ...extra,
    ],
    port ? { port } : {},
  );
}

before(async () => {
  if (missing) return;
  dir = tempDir('prom-stack');
  const hash = execFileSync(HTPASSWD!, ['-nbBC', '10', 'prom', 'not-a-real-secret-8Jw'], { encoding: 'utf8' });
  webConfig = join(dir, 'web.yml');
  writeFileSync(webConfig, `basic_auth_users:\n  prom: '${hash.trim().split(':')[1]}'\n`);
  writeFileSync(
    join(dir, 'prometheus.yml'),
    [
      'global:\n  scrape_interval: 1h',
      'scrape_configs:',
      `  - job_name: internal-db\n    basic_auth:\n      username: scraper\n      password: ${SECRETS[0]}\n    static_configs:\n      - targets: ['127.14.108.9:9100']`,
      `  - job_name: api\n    bearer_token: ${SECRETS[1]}\n    static_configs:\n      - targets: ['127.14.108.10:9100']`,
    ].join('\n'),
  );
  writeFileSync(
    join(dir, 'alertmanager.yml'),
    [
      "global:\n  smtp_smarthost: '127.14.108.11:587'\n  smtp_from: 'am@example.org'",
      `  smtp_auth_username: am\n  smtp_auth_password: '${SECRETS[2]}'`,
      'route:\n  receiver: ops',
      `receivers:\n  - name: ops\n    webhook_configs:\n      - url: 'http://127.14.108.12/services/${SECRETS[3]}'`,
    ].join('\n'),
  );
  [ports.prom, ports.promTwin, ports.pg, ports.pgTwin, ports.am, ports.amTwin, ports.gossip, ports.gossipTls] =
    await Promise.all([
      prometheus(true),
      prometheus(false),
      pushgateway(true),
      pushgateway(false),
      alertmanager(true),
      alertmanager(false),
      // 9094, Alertmanager's own: detection tries memberlist on its usual ports only. ADDR is this file's alone.
      gossiping(false, 9094),
      gossiping(true),
    ]);
});

const noSecret = (detail: string) => {
  for (const s of SECRETS) assert.ok(!detail.includes(s), `secret ${s} in "${detail}"`);
};

test('Prometheus: open API, admin API and lifecycle are found with their evidence; the web.config twin is silent', {
  skip,
}, async () => {
  const [open] = await run('vigil.prometheus.api-open', ports.prom);
  assert.match(open!.detail, /^Prometheus 2\.\S+ answered without credentials: GET \/api\/v1\/status\/config gave/);
  assert.match(open!.detail, /scrape jobs internal-db, api; credential fields present: password, credentials/);
  assert.match(open!.detail, /GET \/api\/v1\/targets listed \d active target/);
  noSecret(open!.detail);
  const [admin] = await run('vigil.prometheus.admin-api', ports.prom);
  assert.match(admin!.detail, /GET \/api\/v1\/status\/flags was answered 200 .* web\.enable-admin-api = true/);
  const [life] = await run('vigil.prometheus.lifecycle', ports.prom);
  assert.match(life!.detail, /web\.enable-lifecycle = true, so POST \/-\/quit/);
  for (const id of ['vigil.prometheus.api-open', 'vigil.prometheus.admin-api', 'vigil.prometheus.lifecycle'])
    assert.deepEqual(await run(id, ports.promTwin, TWIN), [], id);
  // Not a Pushgateway nor an Alertmanager.
  assert.deepEqual(await run('vigil.pushgateway.open', ports.prom), []);
  assert.deepEqual(await run('vigil.alertmanager.open', ports.prom), []);
});

test('Pushgateway: open status, admin API and a push that is deleted again are found; the twin is silent', {
  skip,
}, async () => {
  const [open] = await run('vigil.pushgateway.open', ports.pg);
  assert.match(open!.detail, /^Pushgateway 1\.\S+: GET \/api\/v1\/status was answered 200 without credentials/);
  const [admin] = await run('vigil.prometheus.admin-api', ports.pg);
  assert.match(admin!.detail, /^Pushgateway .* PUT \/api\/v1\/admin\/wipe serves anyone/);
  assert.equal((await run('vigil.prometheus.lifecycle', ports.pg)).length, 1);
  const [w] = await run('vigil.pushgateway.write', ports.pg);
  assert.match(w!.detail, /^PUT \/metrics\/job\/vigil_scanner_test .* HTTP 200 .* DELETE .* answered HTTP 202/);
  // The group is gone again: DELETE answers 202 before the Pushgateway's store applies it (its write queue), so poll.
  await eventually(async () => {
    const left = await httpRequest(netFor(ADDR), ports.pg, false, { target: '/api/v1/metrics' });
    return left?.status === 200 && !left.body.includes('vigil_scanner_test');
  }, 'the pushed group deleted');
  for (const id of ['vigil.pushgateway.open', 'vigil.pushgateway.write', 'vigil.prometheus.admin-api'])
    assert.deepEqual(await run(id, ports.pgTwin, TWIN), [], id);
});

test('Alertmanager: configuration with secrets masked and a silence expired again are found; the twin is silent', {
  skip,
}, async () => {
  const [open] = await run('vigil.alertmanager.open', ports.am);
  assert.match(open!.detail, /^Alertmanager 0\.\S+: GET \/api\/v2\/status was answered 200 without credentials/);
  assert.match(open!.detail, /receivers ops; endpoints 127\.14\.108\.11:587, http:\/\/127\.14\.108\.12\/\.\.\.;/);
  assert.match(open!.detail, /credential fields present: smtp_auth_password/);
  noSecret(open!.detail);
  const [s] = await run('vigil.alertmanager.silence', ports.am);
  assert.match(
    s!.detail,
    /^POST \/api\/v2\/silences .* silenceID [\w-]+; DELETE \/api\/v2\/silence\/[\w-]+ answered HTTP 200/,
  );
  const list = await httpRequest(netFor(ADDR), ports.am, false, { target: '/api/v2/silences' });
  assert.match(list!.body, /"state":"expired"/);
  assert.doesNotMatch(list!.body, /"state":"active"/);
  for (const id of ['vigil.alertmanager.open', 'vigil.alertmanager.silence'])
    assert.deepEqual(await run(id, ports.amTwin, TWIN), [], id);
});

test("Alertmanager's gossip port: a push-pull of nothing is answered in the clear; behind cluster TLS it is not", {
  skip,
}, async () => {
  const net = netFor(ADDR);
  const on = async (port: number) =>
    CHECKS.get('vigil.memberlist.open')!.runOn(hostOf(ADDR, [service(port, 'memberlist')]), net);
  // All three at once: the TLS port neither answers nor closes, so its check waits out its 3 s bound.
  const [[f], hardened, clear] = await Promise.all([
    on(ports.gossip),
    on(ports.gossipTls),
    detectOne(net, ports.gossip, { nmapProbes: false }),
  ]);
  assert.match(
    f!.detail,
    new RegExp(
      `^A push-pull .* answered in the clear \\(LZW-compressed\\) with the peer's own: 1 member\\(s\\): \\w+ at ${ADDR.replaceAll('.', '\\.')}:${ports.gossip}; \\d+ bytes of shared state \\(Alertmanager's: parts nfl, sil, its silences`,
    ),
  );
  assert.deepEqual(hardened, []);
  // Detection names it (on 9094, where it tries memberlist).
  assert.equal(clear.name, 'memberlist');
  assert.equal(clear.product, 'Prometheus Alertmanager cluster (memberlist)');
});

test('detection names the stack by its GET / answer, not by the port', { skip }, async () => {
  const product = async ([address, port]: [string, number]) =>
    (await detectOne(netFor(address), port, { nmapProbes: false })).product;
  // Each waits out its greeting (700 ms): all four at once.
  const got = await Promise.all(
    (
      [
        [ADDR, ports.prom],
        [ADDR, ports.pg],
        [ADDR, ports.am],
        [TWIN, ports.amTwin],
      ] as [string, number][]
    ).map(product),
  );
  assert.deepEqual(got, ['Prometheus', 'Prometheus Pushgateway', 'Prometheus Alertmanager', null]);
});
