/**
 * iSCSI on a real Debian target (tgt: tgtd in the foreground, one target
 * set up with tgtadm, an 8 MB file as its disk): open to every initiator
 * without credentials; CHAP on the target (discovery still lists it, the
 * login is refused 2/1); CHAP and an initiator-address ACL (SendTargets
 * lists nothing to us). Root only (tgtd).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { daemon, tempDir, which } from '../../../../test/helpers/daemons-kit.ts';
import { tgtSetup } from '../../../../test/helpers/legacy-daemons.ts';
import { hostOf, netFor, service } from '../../../../test/helpers/web-daemons.ts';
import { checkById } from '../catalogue.ts';
import { detectOne } from '../../engine/detect.ts';

const ADDR = (n: number) => `127.0.84.${n}`;
const READY = process.getuid?.() === 0 && which('tgtd') && which('tgtadm');

/** tgtd on ADDR(n) (control port 3100 + n: tgtd takes small numbers only; the bench's are 2900 + N) with one target as `opts` says. */
async function tgt(n: number, opts: { chap?: boolean; acl?: string; port?: number }): Promise<number> {
  const addr = ADDR(n);
  const disk = join(tempDir('tgt'), 'disk.img');
  writeFileSync(disk, '');
  truncateSync(disk, 8 << 20);
  const port = await daemon(addr, 'tgtd', (p) => ['-f', '-C', String(3100 + n), '--iscsi', `portal=${addr}:${p}`], {
    ...(opts.port ? { port: opts.port } : {}),
  });
  for (const args of tgtSetup(3100 + n, disk, { iqn: `iqn.2026-11.test.vigil:${addr}`, ...opts }))
    execFileSync('tgtadm', args);
  return port;
}

const run = (id: string, addr: string, port: number) =>
  checkById(id).runOn(hostOf(addr, [service(port, 'iscsi')]), netFor(addr));

test('tgt without authentication: targets listed and logged in to; CHAP: listed only; CHAP and an ACL: silent', {
  skip: READY ? false : 'needs root and tgt (tgtd, tgtadm)',
}, async () => {
  const [open, chap, closed] = await Promise.all([
    tgt(1, {}),
    tgt(2, { chap: true }),
    tgt(3, { chap: true, acl: '192.0.2.10' }),
  ]);
  const [listed] = await run('vigil.iscsi.discovery', ADDR(1), open);
  assert.match(
    listed!.detail,
    /^A discovery login with AuthMethod=None was accepted \(status 0\/0\) and SendTargets=All listed 1 target\(s\): TargetName=iqn\.2026-11\.test\.vigil:127\.0\.84\.1, TargetAddress=127\.0\.84\.1:\d+,1\.$/,
  );
  const [noauth] = await run('vigil.iscsi.noauth', ADDR(1), open);
  assert.match(
    noauth!.detail,
    /^A normal session login with AuthMethod=None reached full feature phase .* on iqn\.2026-11\.test\.vigil:127\.0\.84\.1;/,
  );

  assert.equal((await run('vigil.iscsi.discovery', ADDR(2), chap)).length, 1);
  assert.deepEqual(await run('vigil.iscsi.noauth', ADDR(2), chap), []);
  assert.deepEqual(await run('vigil.iscsi.discovery', ADDR(3), closed), []);
  assert.deepEqual(await run('vigil.iscsi.noauth', ADDR(3), closed), []);
});

// tgtd with no target at all closes every login without a word: the hardened target stands for the case.
test('detection names iSCSI on 3260 by a Login Response, even a target that lists nothing to us', {
  skip: READY ? false : 'needs root and tgt (tgtd, tgtadm)',
}, async () => {
  await tgt(4, { chap: true, acl: '192.0.2.10', port: 3260 });
  const s = await detectOne(netFor(ADDR(4)), 3260, { nmapProbes: false });
  assert.equal(s.name, 'iscsi');
});
