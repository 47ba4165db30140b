/**
 * Icecast 2 on a real Debian icecast2, with the icecast.xml Debian ships
 * (admin/hackme, source/hackme): its admin pages are recognised by their
 * Basic realm and the shipped pair logs in, and the shipped source password
 * is accepted (an intrusive check: a mount opened for a moment). The twin,
 * the same file with the passwords changed and served over HTTPS, is not
 * reported. Both started once for the file.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { daemon, tempDir, which } from '../../../../test/helpers/daemons-kit.ts';
import { ICECAST_SHIPPED, icecastConf } from '../../../../test/helpers/voip-configs.ts';
import { certificate, hostOf, netFor, writeFiles } from '../../../../test/helpers/web-daemons.ts';
import { detectOne } from '../../engine/detect.ts';
import { checkById } from '../catalogue.ts';

const ICECAST = which('icecast2');
const [OPEN, HARD] = ['127.0.164.41', '127.0.164.42'];

/** The twin over HTTPS (its admin pages ask for Basic credentials): `passwords` and a certificate. */
function icecast(address: string, passwords?: string): Promise<number> {
  const dir = tempDir('icecast');
  chmodSync(dir, 0o777); // icecast runs as nobody (changeowner) and writes its logs there
  let pem: string | undefined;
  if (passwords) {
    const c = certificate(tempDir('icecast-tls'), { cn: address });
    pem = join(dir, 'icecast.pem');
    writeFiles(dir, { 'icecast.pem': readFileSync(c.cert, 'utf8') + readFileSync(c.key, 'utf8') });
  }
  return daemon(address, ICECAST!, (port) => {
    writeFiles(dir, { 'icecast.xml': icecastConf(address, port, dir, passwords, pem) });
    return ['-c', join(dir, 'icecast.xml')];
  });
}

const skip = ICECAST && existsSync(ICECAST_SHIPPED) ? false : 'icecast2 is not installed (apt-get install icecast2)';
let started: Promise<[number, number]> | null = null;
const both = () => (started ??= Promise.all([icecast(OPEN), icecast(HARD, `t-${randomBytes(6).toString('hex')}`)]));
/** Detection once per port for the file. */
const detected = new Map<string, ReturnType<typeof detectOne>>();
const audit = async (id: string, address: string, port: number) => {
  const net = netFor(address);
  const key = `${address}:${port}`;
  if (!detected.has(key)) detected.set(key, detectOne(net, port, { nmapProbes: false }));
  return checkById(id).runOn(hostOf(address, [await detected.get(key)!]), net);
};

test('Icecast: the shipped admin/hackme opens /admin/stats; changed passwords are not reported', { skip }, async () => {
  const [open, hard] = await both();
  const [f, ...more] = await audit('vigil.web.vendor-default-login', OPEN, open);
  assert.equal(more.length, 0);
  assert.equal(f!.title, 'Default credentials accepted: Icecast admin interface');
  assert.match(
    f!.detail,
    /^GET \/admin\/stats without credentials: HTTP 401 \(WWW-Authenticate: Basic realm="Icecast2 Server".*with user "admin" and password "(hackme|h\*+e)" .*HTTP 200 showing "<icestats>": logged in/,
  );
  assert.deepEqual(await audit('vigil.web.vendor-default-login', HARD, hard), []);
});

test('Icecast: the shipped source password is accepted where a random one is refused; the twin refuses both', {
  skip,
}, async () => {
  const [open, hard] = await both();
  const [f] = await audit('vigil.icecast.source-default', OPEN, open);
  assert.match(
    f!.detail,
    /^PUT \/vigil-[0-9a-f]+ .* was answered "HTTP\/1\.[01] (200|100)[^"]*", while a random password got "HTTP\/1\.[01] 401/,
  );
  assert.deepEqual(await audit('vigil.icecast.source-default', HARD, hard), []);
});
