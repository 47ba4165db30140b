/**
 * A container registry on real Debian docker-registry (the distribution
 * registry, a Go program): without `auth` against the same registry with
 * htpasswd auth. Also: the data-store rule (vigil.db.http-api-open), which
 * looks at Go servers, stays silent on it.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { daemon, tempDir, which } from '../../../../test/helpers/daemons-kit.ts';
import { hostOf, netFor, service } from '../../../../test/helpers/web-daemons.ts';
import { registryConf } from '../../../../test/helpers/ops-daemons.ts';
import { detectServices } from '../../engine/detect.ts';
import { checkById } from '../catalogue.ts';

const WEAK = '127.0.183.41';
const TWIN = '127.0.183.42';
const REGISTRY = which('docker-registry');
const HTPASSWD = which('htpasswd');

/** The registry in the foreground; `app` holds a layer link, so the catalog lists it. */
function registry(address: string, auth: boolean): Promise<{ port: number; root: string }> {
  const dir = tempDir('registry');
  let root = '';
  return daemon(address, REGISTRY!, (port) => {
    const r = registryConf(dir, address, port, auth);
    root = r.root;
    return ['serve', r.conf];
  }).then((port) => ({ port, root }));
}

test('docker-registry without auth: catalog listed (standard) and an upload opened and cancelled (advanced); with htpasswd: nothing; the data-store rule stays silent', {
  skip: REGISTRY && HTPASSWD ? false : 'docker-registry or htpasswd (apache2-utils) is not installed',
}, async () => {
  const [open, shut] = await Promise.all([registry(WEAK, false), registry(TWIN, true)]);
  const audit = async (address: string, port: number, ids: string[]) => {
    const net = netFor(address);
    const services = await detectServices(net, [port], { bannerMs: 300 });
    assert.equal(services[0]!.name, 'http');
    const host = hostOf(address, services);
    return Promise.all(ids.map((id) => checkById(id).runOn(host, net)));
  };
  const [reads, pushes, store] = await audit(WEAK, open.port, [
    'vigil.registry.open',
    'vigil.registry.push',
    'vigil.db.http-api-open',
  ]);
  const [read] = reads!;
  const [push] = pushes!;
  assert.match(
    read!.detail,
    /^GET \/v2\/ was answered 200 \(Docker-Distribution-Api-Version: registry\/2\.0\) and GET \/v2\/_catalog listed 1 repository \(app\), without credentials\.$/,
  );
  assert.match(
    push!.detail,
    /^POST \/v2\/vigil-scanner-test\/blobs\/uploads\/ answered 202 Accepted with an upload location \(\/v2\/vigil-scanner-test\/blobs\/uploads\/[\w-]+, Docker-Upload-UUID [\w-]+\) without credentials; DELETE of that location answered 204/,
  );
  assert.deepEqual(store, [], 'the Go 404 of the registry is not a data store');
  // The cancelled upload holds no data (registry 2.8 keeps its directory and a hash state until upload
  // purging), and the catalog does not list the scanner's repository.
  const uploads = join(open.root, 'docker/registry/v2/repositories/vigil-scanner-test/_uploads');
  for (const id of existsSync(uploads) ? readdirSync(uploads) : [])
    assert.ok(!existsSync(join(uploads, id, 'data')), 'no upload data is left');
  assert.match(
    (await checkById('vigil.registry.open').runOn(hostOf(WEAK, [service(open.port, 'http')]), netFor(WEAK)))[0]!.detail,
    /listed 1 repository \(app\)/,
  );
  assert.deepEqual(
    (await audit(TWIN, shut.port, ['vigil.registry.open', 'vigil.registry.push', 'vigil.db.http-api-open'])).flat(),
    [],
  );
});
