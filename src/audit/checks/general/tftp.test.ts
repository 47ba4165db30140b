/**
 * TFTP on real tftpd-hpa: a readable config and --create are flagged; the twin (nothing to read, no --create)
 * is not.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { tftpd } from '../../../../test/helpers/daemons-net.ts';
import { which } from '../../../../test/helpers/daemons-kit.ts';
import { Fence } from '../../engine/fence.ts';
import { checkById } from '../catalogue.ts';

const tftpReadable = checkById('vigil.tftp.read');
const tftpWritable = checkById('vigil.tftp.write');

const WEAK = '127.0.41.20';
const HARD = '127.0.41.21';
const fence = new Fence([WEAK, HARD], ['127.0.0.0/8']);
const none = (address: string) => ({ address, openPorts: [], services: [] });

test('tftpd-hpa: read and write flagged on the weak one; silent on the twin', {
  skip: !which('in.tftpd') && 'tftpd-hpa not installed',
}, async () => {
  await Promise.all([tftpd(WEAK, true), tftpd(HARD, false)]);
  const [read] = await tftpReadable.runOn(none(WEAK), fence.net(WEAK));
  assert.match(read!.detail, /RRQ "startup-config" answered with DATA block 1 \(\d+ bytes: "hostname edge-router/);
  const [write] = await tftpWritable.runOn(none(WEAK), fence.net(WEAK));
  assert.match(write!.detail, /WRQ "vigil-audit-\w+\.txt" answered with ACK block 0/);
  assert.deepEqual(await tftpReadable.runOn(none(HARD), fence.net(HARD)), []);
  assert.deepEqual(await tftpWritable.runOn(none(HARD), fence.net(HARD)), []);
});
