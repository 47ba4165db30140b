/**
 * A container engine's API on a real daemon started once for the file:
 * Podman's Docker-compatible service (`podman system service tcp:…`,
 * Debian podman) on the audited address, against an nginx on the same
 * port number elsewhere answering /version with its 404 (a web server is
 * not an engine). Skipped where podman is not installed.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { daemon, tempDir, which } from '../../../../test/helpers/daemons-kit.ts';
import { hostOf, netFor, nginx, NGINX, service } from '../../../../test/helpers/web-daemons.ts';
import { checkById } from '../catalogue.ts';

const A = (n: number) => `127.0.197.${n}`;
const PODMAN = which('podman');

test('Podman API over TCP without authentication is found (/version, /containers/json); a web server is not', {
  skip: PODMAN && NGINX ? false : 'podman or nginx is not installed',
  timeout: 60_000,
}, async () => {
  const dir = tempDir('podman');
  const [api, web] = await Promise.all([
    daemon(
      A(71),
      PODMAN!,
      (port) => [
        '--root',
        join(dir, 'root'),
        '--runroot',
        join(dir, 'run'),
        '--storage-driver',
        'vfs',
        'system',
        'service',
        '--time=0',
        `tcp:${A(71)}:${port}`,
      ],
      { env: { ...process.env, XDG_RUNTIME_DIR: dir } },
    ),
    nginx(A(171), 'location / { return 404; }'),
  ]);
  const run = (address: string, port: number) =>
    checkById('vigil.docker.api-open').runOn(hostOf(address, [service(port, 'http')]), netFor(address));
  const [f] = await run(A(71), api);
  assert.match(
    f!.detail,
    /^GET \/version was answered with ApiVersion \d+\.\d+[\d.]*, Version [\d.]+ \([^)]+\) and GET \/containers\/json with 0 running containers, without client authentication\.$/,
  );
  assert.deepEqual(await run(A(171), web), []);
});
