/**
 * Job queues without authentication on real Debian daemons: beanstalkd and
 * gearmand listening on the audited address, against their hardened twins
 * (the same daemons bound to 127.0.0.1 only, while the scanner audits the
 * twin's address, where nothing answers). Detection names the ports first,
 * as in an audit.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { daemon, freePort, tempDir, which } from '../../../../test/helpers/daemons-kit.ts';
import { hostOf, netFor, service } from '../../../../test/helpers/web-daemons.ts';
import { beanstalkStats } from '../../proto/jobqueue.ts';
import { detectServices } from '../../engine/detect.ts';
import { checkById } from '../catalogue.ts';

const WEAK = '127.0.183.1';
const TWIN = '127.0.183.2';
const BEANSTALKD = which('beanstalkd');
const GEARMAND = which('gearmand');

async function audit(id: string, address: string, port: number) {
  const net = netFor(address);
  const services = await detectServices(net, [port], { bannerMs: 300 });
  return { services, found: await checkById(id).runOn(hostOf(address, services), net) };
}

/** The check on a port named as detection would name it, whatever answers there (or nothing). */
const named = (id: string, address: string, port: number, name: string) =>
  checkById(id).runOn(hostOf(address, [service(port, name)]), netFor(address));

/** On the product's own port when given (the weak ones, on this file's address, where detection probes for it). */
const beanstalkd = (address: string, port?: number) =>
  daemon(address, BEANSTALKD!, (p) => ['-l', address, '-p', String(p)], port ? { port } : {});
const gearmand = (address: string, port?: number) => {
  const dir = tempDir('gearmand');
  return daemon(
    address,
    GEARMAND!,
    (p) => [`--listen=${address}`, `--port=${p}`, `--log-file=${dir}/log`, `--pid-file=${dir}/pid`, '--threads=1'],
    port ? { port } : {},
  );
};

test('beanstalkd on the audited address: stats found (standard), a job put and deleted (advanced); bound to 127.0.0.1: nothing', {
  skip: BEANSTALKD ? false : 'beanstalkd is not installed',
}, async () => {
  const port = await beanstalkd(WEAK, 11300);
  // The twin: the same daemon on loopback only, its port audited on the twin's address.
  const twinPort = await beanstalkd('127.0.0.1');
  const open = await audit('vigil.beanstalkd.open', WEAK, port);
  assert.equal(open.services[0]!.name, 'beanstalkd');
  assert.match(
    open.found[0]!.detail,
    /^"stats" was answered without any authentication \(version: [\d.]+, current-jobs-ready: 0, /,
  );
  const [w] = await checkById('vigil.beanstalkd.write').runOn(hostOf(WEAK, open.services), netFor(WEAK));
  assert.match(
    w!.detail,
    /"use vigil-scanner-test" then "put 1024 3600 60 \d+" .* answered "INSERTED (\d+)"; "delete \1" answered "DELETED"/,
  );
  // Nothing left behind: the job was deleted.
  const after = await beanstalkStats(netFor(WEAK), port);
  assert.equal(after?.['current-jobs-delayed'], '0');
  assert.equal(after?.['total-jobs'], '1');
  for (const id of ['vigil.beanstalkd.open', 'vigil.beanstalkd.write'])
    assert.deepEqual(await named(id, TWIN, twinPort, 'beanstalkd'), [], id);
});

test('gearmand on the audited address: version, functions and workers found; bound to 127.0.0.1: nothing', {
  skip: GEARMAND ? false : 'gearmand is not installed',
}, async () => {
  const port = await gearmand(WEAK, 4730);
  const twinPort = await gearmand('127.0.0.1');
  const open = await audit('vigil.gearman.open', WEAK, port);
  assert.equal(open.services[0]!.name, 'gearman');
  assert.match(
    open.found[0]!.detail,
    /^"version" was answered "OK [\w.+-]+"; "status" listed 0 function\(s\); "workers" listed 1 connection\(s\), without any authentication\.$/,
  );
  assert.deepEqual(await named('vigil.gearman.open', TWIN, twinPort, 'gearman'), []);
});

test('a listener that speaks neither protocol is not reported as beanstalkd or gearman', async () => {
  const { createServer } = await import('node:net');
  const address = '127.0.183.3';
  const port = await freePort(address);
  // Answers every line with an error, as many line protocols do.
  const server = createServer((s) => s.on('data', () => s.write('-ERR unknown command\r\n')));
  await new Promise<void>((r) => server.listen(port, address, r));
  try {
    assert.deepEqual(await named('vigil.beanstalkd.open', address, port, 'beanstalkd'), []);
    assert.deepEqual(await named('vigil.gearman.open', address, port, 'gearman'), []);
  } finally {
    server.close();
  }
});
