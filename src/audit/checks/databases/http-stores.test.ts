/**
 * Data stores with an HTTP API on real Debian daemons, found by one rule
 * for the family (vigil.db.http-api-open): etcd with authentication off vs
 * etcd with a root user and `auth enable` (made through its own gateway,
 * as etcdctl would); InfluxDB 1.x with auth-enabled false vs true with an
 * admin user. Each port is taken as detection sees it, on a port that is
 * not the product's usual one, so that the rule's Go-404 / header
 * recognition is what picks it.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { daemon, freePort, tempDir, which } from '../../../../test/helpers/daemons-kit.ts';
import { netFor } from '../../../../test/helpers/web-daemons.ts';
import { detectOne } from '../../engine/detect.ts';
import { checkById } from '../catalogue.ts';

const check = checkById('vigil.db.http-api-open');
const ETCD = which('etcd');
const INFLUXD = which('influxd');

/** Detection on the port, then the check, as an audit runs them. */
async function audit(addr: string, port: number) {
  const s = await detectOne(netFor(addr), port, { nmapProbes: false });
  return { service: s, findings: await check.runOn({ address: addr, openPorts: [port], services: [s] }, netFor(addr)) };
}

const post = (url: string, body: object) => fetch(url, { method: 'POST', body: JSON.stringify(body) });

async function etcd(addr: string): Promise<number> {
  const dir = tempDir('etcd');
  const peer = `http://127.0.0.1:${await freePort('127.0.0.1')}`;
  return daemon(addr, ETCD!, (port) => [
    '--name',
    'test',
    '--data-dir',
    join(dir, `data-${port}`),
    '--listen-client-urls',
    `http://${addr}:${port}`,
    '--advertise-client-urls',
    `http://${addr}:${port}`,
    '--listen-peer-urls',
    peer,
    '--initial-advertise-peer-urls',
    peer,
    '--initial-cluster',
    `test=${peer}`,
  ]);
}

test('etcd: the v3 key range answered without credentials is found; auth enabled is not', {
  skip: ETCD ? false : 'etcd is not installed (apt-get install etcd-server)',
}, async () => {
  const [open, shut] = await Promise.all([etcd('127.0.93.11'), etcd('127.0.93.12')]);
  const key = Buffer.from('/app/token').toString('base64');
  assert.equal((await post(`http://127.0.93.11:${open}/v3/kv/put`, { key, value: 'eA==' })).status, 200);
  const twin = `http://127.0.93.12:${shut}/v3/auth`;
  for (const [path, body] of [
    ['user/add', { name: 'root', password: 'not-a-real-secret-6Et' }],
    ['user/grant', { user: 'root', role: 'root' }],
    ['enable', {}],
  ] as const)
    assert.equal((await post(`${twin}/${path}`, body)).status, 200, path);

  const { service, findings } = await audit('127.0.93.11', open);
  assert.equal(service.name, 'http');
  assert.match(
    findings[0]!.detail,
    /^etcd [\d.]+ \(named by GET \/version\): POST \/v3\/kv\/range for every key \(keys only\) was answered 200 without credentials: count 1, revision \d+: \/app\/token\.$/,
  );
  assert.deepEqual((await audit('127.0.93.12', shut)).findings, []);
});

function influxd(addr: string, auth: boolean): Promise<number> {
  const dir = tempDir('influxdb');
  return daemon(addr, INFLUXD!, (port) => {
    const conf = join(dir, `influxdb-${port}.conf`);
    writeFileSync(
      conf,
      [
        'reporting-enabled = false',
        `bind-address = "${addr}:0"`,
        `[meta]\n  dir = "${dir}/meta-${port}"`,
        `[data]\n  dir = "${dir}/data-${port}"\n  wal-dir = "${dir}/wal-${port}"\n  query-log-enabled = false`,
        '[monitor]\n  store-enabled = false',
        `[http]\n  bind-address = "${addr}:${port}"\n  auth-enabled = ${auth}\n  log-enabled = false`,
      ].join('\n'),
    );
    return ['run', '-config', conf];
  });
}

test('InfluxDB 1.x: SHOW DATABASES answered without credentials is found; auth-enabled with an admin is not', {
  skip: INFLUXD ? false : 'influxd is not installed (apt-get install influxdb)',
}, async () => {
  const [open, shut] = await Promise.all([influxd('127.0.93.13', false), influxd('127.0.93.14', true)]);
  const created = await fetch(`http://127.0.93.13:${open}/query`, {
    method: 'POST',
    body: new URLSearchParams({ q: 'CREATE DATABASE sensors' }),
  });
  assert.equal(created.status, 200);
  const admin = await fetch(`http://127.0.93.14:${shut}/query`, {
    method: 'POST',
    body: new URLSearchParams({ q: "CREATE USER admin WITH PASSWORD 'not-a-real-secret-3If' WITH ALL PRIVILEGES" }),
  });
  assert.equal(admin.status, 200);

  const { findings } = await audit('127.0.93.13', open);
  assert.match(
    findings[0]!.detail,
    /^InfluxDB [\d.]+\S* \(named by GET \/\): GET \/query\?q=SHOW DATABASES was answered 200 without credentials with 1 database\(s\): sensors\.$/,
  );
  assert.deepEqual((await audit('127.0.93.14', shut)).findings, []);
});
