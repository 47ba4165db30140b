/**
 * NBD on a real Debian nbd-server (3.24): one
 * server lists its exports (`allowlist = true`) and serves "open" to
 * anyone and "closed" only to an address that is not ours (`authfile`);
 * its hardened twin lists nothing (`allowlist` off, the default) and shuts
 * its one export to us with an authfile. Each daemon starts once for the
 * file; the disks are 1 MB sparse files that no check ever reads.
 * nbd-server has no foreground mode that serves more than one client (-d
 * serves one and exits, measured), so it daemonizes as it does in
 * production, writes its pid file, and is stopped by that pid.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, test } from 'node:test';
import { freePort, onCleanup, tempDir, which } from '../../../../test/helpers/daemons-kit.ts';
import { eventually } from '../../../../test/helpers/wait.ts';
import { accepts, hostOf, netFor, service } from '../../../../test/helpers/web-daemons.ts';
import { detectOne } from '../../engine/detect.ts';
import { checkById } from '../catalogue.ts';

const ADDR = (n: number) => `127.14.124.${n}`;
const READY = which('nbd-server');
const skip = READY ? false : 'needs nbd-server (Debian nbd-server)';

/** nbd-server on ADDR(n) with these [generic] lines and exports (name → extra lines). */
async function nbdServer(n: number, generic: string, exports: Record<string, string>): Promise<number> {
  const dir = tempDir('nbd');
  const deny = join(dir, 'deny');
  writeFileSync(deny, '192.0.2.10\n');
  let conf = '';
  for (const [name, extra] of Object.entries(exports)) {
    const disk = join(dir, `${name}.img`);
    writeFileSync(disk, '');
    truncateSync(disk, 1 << 20);
    conf += `[${name}]\n    exportname = ${disk}\n${extra.replace('DENY', deny)}\n`;
  }
  const port = await freePort(ADDR(n));
  const file = join(dir, 'nbd.conf');
  const pid = join(dir, 'nbd.pid');
  writeFileSync(file, `[generic]\n    listenaddr = ${ADDR(n)}\n    port = ${port}\n${generic}\n${conf}`);
  execFileSync('nbd-server', ['-C', file, '-p', pid], { stdio: 'ignore' });
  onCleanup(() => {
    try {
      process.kill(Number(readFileSync(pid, 'utf8')), 'SIGTERM');
    } catch {}
  });
  await eventually(() => accepts(ADDR(n), port), `nbd-server on ${ADDR(n)}:${port}`);
  return port;
}

const run = (id: string, n: number, port: number) =>
  checkById(id).runOn(hostOf(ADDR(n), [service(port, 'nbd')]), netFor(ADDR(n)));

let weak = 0;
let twin = 0;
before(async () => {
  if (!READY) return;
  [weak, twin] = await Promise.all([
    nbdServer(1, '    allowlist = true', { open: '', closed: '    authfile = DENY' }),
    nbdServer(100, '', { disk: '    authfile = DENY' }),
  ]);
});

test('nbd-server listing its exports: both names listed, only the export without an authfile opened', {
  skip,
}, async () => {
  const [listed] = await run('vigil.nbd.export-list', 1, weak);
  assert.match(listed!.detail, /^NBD_OPT_LIST .* answered with 2 export\(s\) and NBD_REP_ACK: "open", "closed"\.$/);
  const [open] = await run('vigil.nbd.noauth', 1, weak);
  assert.match(
    open!.detail,
    /^NBD_OPT_GO \(no TLS, no credentials\) was answered with NBD_REP_INFO and NBD_REP_ACK, the transmission phase, on "open": 1048576 bytes, writable; closed with NBD_CMD_DISC/,
  );
  assert.doesNotMatch(open!.detail, /closed":/);
});

test('the hardened twin (no listing, authfile without us) is silent; detection names NBD by its greeting', {
  skip,
}, async () => {
  assert.deepEqual(await run('vigil.nbd.export-list', 100, twin), []);
  assert.deepEqual(await run('vigil.nbd.noauth', 100, twin), []);
  const s = await detectOne(netFor(ADDR(100)), twin, { nmapProbes: false });
  assert.equal(s.name, 'nbd');
  assert.match(s.extra.nbdHandshake ?? '', /^newstyle, flags 3$/);
});
