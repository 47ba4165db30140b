/**
 * TFTP (RFC 1350) has no authentication: whatever the server lets us read
 * or create is open to anyone. Read: an RRQ for names such servers usually
 * hold (boot and device configuration files) answered with DATA block 1.
 * Write (intrusive): a WRQ for a new, uniquely named file answered with
 * ACK block 0. The server answers from a new port (its transfer ID, §4),
 * hence `anyPort`. We never ACK or send DATA: the server gives the transfer
 * up after its retries.
 */
import { randomBytes } from 'node:crypto';
import type { Check, Net } from '../types.ts';
import { shown } from './services-kit.ts';

const request = (op: 1 | 2, file: string) =>
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
    files.map((f) => net.udpRequest(69, request(1, f), { timeoutMs: 2500, anyPort: true }).catch(() => null)),
  );
  const i = replies.findIndex((r) => r && r.length >= 4 && r.readUInt16BE(0) === 3 && r.readUInt16BE(2) === 1);
  return i < 0 ? null : { file: files[i]!, data: replies[i]!.subarray(4) };
}

export const tftpReadable: Check = {
  id: 'vigil.tftp.read',
  shortid: 'TFTP-READ',
  title: 'TFTP server gives files to anyone',
  category: 'General',
  risk: 'medium',
  cves: ['CVE-1999-0498'],
  type: 'HOLE',
  qod: 99,
  description:
    'The TFTP server sent a file to an unauthenticated request (TFTP has no authentication at all): configurations, boot images and the secrets in them are readable by anyone who can reach UDP port 69.',
  solution:
    'Serve TFTP only on the provisioning network, from a directory that holds nothing sensitive, or turn it off.',
  active: true,
  intrusive: false,
  dos: false,
  async run(_host, net) {
    const r = await tftpRead(net);
    return r
      ? [
          {
            port: 69,
            detail: `RRQ "${r.file}" answered with DATA block 1 (${r.data.length} bytes: "${shown(r.data.toString('latin1'), 60)}")`,
          },
        ]
      : [];
  },
};

export const tftpWritable: Check = {
  id: 'vigil.tftp.write',
  shortid: 'TFTP-WRITE',
  title: 'TFTP server accepts uploads from anyone',
  category: 'General',
  risk: 'high',
  cves: ['CVE-1999-0498'],
  type: 'HOLE',
  qod: 99,
  description:
    'The TFTP server accepted a write request for a new file from an unauthenticated client: anyone can plant files (boot images and device configurations fetched by other machines) or fill the disk. The test may leave an empty file named vigil-audit-*.txt behind: TFTP cannot delete.',
  solution: 'Disable uploads (tftpd-hpa: no --create in TFTP_OPTIONS) or restrict TFTP to the provisioning network.',
  active: true,
  intrusive: true,
  dos: false,
  async run(_host, net) {
    const file = `vigil-audit-${randomBytes(6).toString('hex')}.txt`;
    const r = await net.udpRequest(69, request(2, file), { timeoutMs: 2500, anyPort: true }).catch(() => null);
    return r && r.length >= 4 && r.readUInt16BE(0) === 4 && r.readUInt16BE(2) === 0
      ? [{ port: 69, detail: `WRQ "${file}" answered with ACK block 0 (an empty file of that name may remain)` }]
      : [];
  },
};

export const TFTP_CHECKS: readonly Check[] = [tftpReadable, tftpWritable];
