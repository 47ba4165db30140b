/**
 * The TFTP checks on a TFTP server of another make than tftpd-hpa (issue
 * 27: cover the family): dnsmasq's, as a PXE boot server runs it, serving a
 * world-readable pxelinux.cfg/default to anyone; its twin serves nothing
 * (the file is 0600, and dnsmasq run as root sends world-readable files
 * only). dnsmasq's TFTP is read-only: the write check stays silent on both.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { daemon, tempDir, which } from '../../../../test/helpers/daemons-kit.ts';
import { dnsmasqConf, dnsmasqTftp } from '../../../../test/helpers/dns-makes.ts';
import { Fence } from '../../engine/fence.ts';
import { checkById } from '../catalogue.ts';

const read = checkById('vigil.tftp.read');
const write = checkById('vigil.tftp.write');
const [WEAK, HARD] = ['127.0.71.51', '127.0.71.52'];
const fence = new Fence([WEAK, HARD], ['127.0.0.0/8']);
const none = (address: string) => ({ address, openPorts: [], services: [] });

/** dnsmasq with its DNS on a free port (what the helper waits for) and TFTP on UDP 69. */
function dnsmasq(address: string, readable: boolean): Promise<number> {
  const dir = tempDir('dnsmasq-tftp');
  const tftp = dnsmasqTftp(dir, readable);
  const policy = { transfer: false, version: false };
  return daemon(address, 'dnsmasq', (port) => {
    const file = join(dir, `dnsmasq-${port}.conf`);
    writeFileSync(file, dnsmasqConf(address, port, dir, 'pxe.test', policy, tftp));
    return ['-k', '-C', file];
  });
}

test('dnsmasq TFTP: a world-readable pxelinux.cfg/default is read by anyone; 0600 is not; no writes either way', {
  skip: !which('dnsmasq') && 'dnsmasq is not installed (apt-get install dnsmasq-base)',
}, async () => {
  await Promise.all([dnsmasq(WEAK, true), dnsmasq(HARD, false)]);
  const [f] = await read.runOn(none(WEAK), fence.net(WEAK));
  assert.match(f!.detail, /RRQ "pxelinux\.cfg\/default" answered with DATA block 1 \(\d+ bytes: "default install/);
  assert.deepEqual(await read.runOn(none(HARD), fence.net(HARD)), []);
  assert.deepEqual(await write.runOn(none(WEAK), fence.net(WEAK)), []);
  assert.deepEqual(await write.runOn(none(HARD), fence.net(HARD)), []);
});
