/**
 * The TFTP checks on atftpd (0.8.0), the third TFTP make after tftpd-hpa and
 * dnsmasq: Debian's package conflicts with tftpd-hpa, so CI unpacks it and
 * links /usr/local/sbin/atftpd (.ci/run, EXTRACT). Weak: a world-writable
 * root holding a router configuration. Twin: a boot server's root, not
 * writable by atftpd's user (nobody), serving only its boot loader
 * (pxelinux.0): what a PXE server is for, so neither check may report it.
 * atftpd acknowledges every WRQ with ACK 0, even into that root, and
 * refuses only the DATA after it (measured): the write check's proof is the
 * ACK of block 1. Both servers start once, on port 69 of their own address
 * (root only).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, test } from 'node:test';
import { onCleanup, stop, tempDir, which } from '../../../../test/helpers/daemons-kit.ts';
import { eventually } from '../../../../test/helpers/wait.ts';
import { Fence } from '../../engine/fence.ts';
import { checkById } from '../catalogue.ts';

const ADDR = (n: number) => `127.14.124.${n}`;
const [WEAK, HARD] = [ADDR(20), ADDR(120)];
const READY = process.getuid?.() === 0 && which('atftpd');
const skip = READY ? false : 'needs root and atftpd (.ci/run unpacks Debian atftpd to /usr/local/sbin)';
const fence = new Fence([WEAK, HARD], ['127.0.0.0/8']);
const none = (address: string) => ({ address, openPorts: [], services: [] });
const dirs: Record<string, string> = {};

async function atftpd(addr: string, files: Record<string, string>, writable: boolean): Promise<void> {
  const dir = tempDir('atftpd');
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text, { mode: 0o644 });
  chmodSync(dir, writable ? 0o777 : 0o755);
  dirs[addr] = dir;
  const args = ['--daemon', '--no-fork', '--bind-address', addr, '--port', '69', '--user', 'nobody.nogroup'];
  const p = spawn('atftpd', [...args, '--logfile', '/dev/null', dir], { stdio: 'ignore', detached: true });
  onCleanup(() => stop(p));
  // Ready when an RRQ gets any answer (DATA or ERROR).
  const net = fence.net(addr);
  const rrq = Buffer.from('\0\x01nothing-here\0octet\0', 'latin1');
  await eventually(
    async () => p.exitCode === null && (await net.udpRequest(69, rrq, { anyPort: true, timeoutMs: 300 })) !== null,
    `atftpd on ${addr}:69`,
  );
}

before(async () => {
  if (!READY) return;
  await Promise.all([
    atftpd(WEAK, { 'startup-config': 'hostname edge-router\nenable secret 5 $1$planted\n' }, true),
    atftpd(HARD, { 'pxelinux.0': 'a boot loader\n' }, false),
  ]);
});

test('atftpd with a writable root and a router config: read and write are reported', { skip }, async () => {
  const [read] = await checkById('vigil.tftp.read').runOn(none(WEAK), fence.net(WEAK));
  assert.match(read!.detail, /^RRQ "startup-config" answered with DATA block 1 \(\d+ bytes: "hostname edge-router/);
  const [write] = await checkById('vigil.tftp.write').runOn(none(WEAK), fence.net(WEAK));
  const file =
    /^WRQ "(vigil-audit-\w+\.txt)" answered with ACK block 0, and an empty DATA block 1 with ACK block 1/.exec(
      write!.detail,
    )?.[1];
  assert.ok(file, write!.detail);
  assert.ok(readdirSync(dirs[WEAK]!).includes(file), 'the file the finding names is there');
});

test('atftpd twin serving only pxelinux.0 from a root it cannot write: silent', { skip }, async () => {
  assert.deepEqual(await checkById('vigil.tftp.read').runOn(none(HARD), fence.net(HARD)), []);
  assert.deepEqual(await checkById('vigil.tftp.write').runOn(none(HARD), fence.net(HARD)), []);
  assert.deepEqual(readdirSync(dirs[HARD]!), ['pxelinux.0']);
});
