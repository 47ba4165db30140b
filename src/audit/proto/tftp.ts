/**
 * TFTP (RFC 1350), which has no authentication: whatever the server lets us
 * read or create is open to anyone. Read: an RRQ for names such servers usually
 * hold (boot and device configuration files) answered with DATA block 1.
 * Write (intrusive): a WRQ for a new, uniquely named file answered with
 * ACK block 0, then one empty DATA block 1 (the end of a zero-byte file,
 * §6) answered with ACK block 1: the server wrote the file. ACK 0 alone
 * proves nothing: atftpd 0.8.0 sends it before it opens the file, to a
 * directory it cannot write too (measured), and refuses only the DATA. The
 * server answers from a new port (its transfer ID, §4), hence `anyPort`.
 * A read takes block 1 only and never ACKs it: the server gives the
 * transfer up after its retries.
 */
import type { Net } from '../engine/types.ts';
import { udpAsk } from './talk.ts';

export const tftpRequest = (op: 1 | 2, file: string) =>
  Buffer.concat([Buffer.from([0, op]), Buffer.from(`${file}\0octet\0`, 'latin1')]);

/**
 * Files TFTP servers commonly hold that carry configuration, and the
 * classic traversal targets. Boot images (pxelinux.0 and the like) are left
 * out: serving them to anyone is what a PXE server is for, and a hardened
 * boot server serving only its loader is not a finding.
 */
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

/** WRQ, ACK 0, an empty DATA 1, ACK 1: true when the server acknowledged the written (empty) file. */
export async function tftpWrite(net: Net, port: number, file: string): Promise<boolean> {
  const isAck = (r: Buffer, block: number) => r.length >= 4 && r.readUInt16BE(0) === 4 && r.readUInt16BE(2) === block;
  const last = await net
    .udpRequest(port, tftpRequest(2, file), {
      timeoutMs: 2500,
      anyPort: true,
      answer: (r) => (isAck(r, 0) ? Buffer.from([0, 3, 0, 1]) : null),
    })
    .catch(() => null);
  return !!last && isAck(last, 1);
}
