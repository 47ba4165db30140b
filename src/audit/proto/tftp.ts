/**
 * TFTP (RFC 1350), which has no authentication: whatever the server lets us
 * read or create is open to anyone. Read: an RRQ for names such servers usually
 * hold (boot and device configuration files) answered with DATA block 1.
 * Write (intrusive): a WRQ for a new, uniquely named file answered with
 * ACK block 0. The server answers from a new port (its transfer ID, §4),
 * hence `anyPort`. We never ACK or send DATA: the server gives the transfer
 * up after its retries.
 */
import type { Net } from '../engine/types.ts';
import { udpAsk } from './talk.ts';

export const tftpRequest = (op: 1 | 2, file: string) =>
  Buffer.concat([Buffer.from([0, op]), Buffer.from(`${file}\0octet\0`, 'latin1')]);

/** Files TFTP servers commonly hold: PXE boot, router/phone configurations, and the classic traversal targets. */
export const TFTP_FILES = [
  'startup-config',
  'running-config',
  'network-confg',
  'router-confg',
  'config',
  'config.txt',
  'config.cfg',
  'backup.cfg',
  'config.xml',
  'pxelinux.cfg/default',
  'pxelinux.0',
  'boot.ini',
  'default.cfg',
  'SEPDefault.cnf.xml',
  'SIPDefault.cnf',
  'passwd',
  'etc/passwd',
  '/etc/passwd',
];

export async function tftpRead(net: Net, files = TFTP_FILES): Promise<{ file: string; data: Buffer } | null> {
  const replies = await Promise.all(
    files.map((f) => udpAsk(net, 69, tftpRequest(1, f), { timeoutMs: 2500, anyPort: true })),
  );
  const i = replies.findIndex((r) => r && r.length >= 4 && r.readUInt16BE(0) === 3 && r.readUInt16BE(2) === 1);
  return i < 0 ? null : { file: files[i]!, data: replies[i]!.subarray(4) };
}
