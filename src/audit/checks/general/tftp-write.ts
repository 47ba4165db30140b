import { randomBytes } from 'node:crypto';
import { defineCheck } from '../kit.ts';
import { tftpWrite } from '../../proto/tftp.ts';

export default defineCheck({
  id: 'vigil.tftp.write',
  shortid: 'TFTP-WRITE',
  title: 'TFTP server accepts uploads from anyone',
  family: 'General',
  categories: ['intrusive', 'vuln'],
  risk: 'high',
  cves: ['CVE-1999-0498'],
  type: 'HOLE',
  qod: 99,
  description:
    'The TFTP server accepted a write request for a new file from an unauthenticated client: anyone can plant files (boot images and device configurations fetched by other machines) or fill the disk. The test leaves an empty file named vigil-audit-*.txt behind: TFTP cannot delete.',
  solution: 'Disable uploads (tftpd-hpa: no --create in TFTP_OPTIONS) or restrict TFTP to the provisioning network.',
  ports: { udp: [69] },
  async run({ net, port }) {
    const file = `vigil-audit-${randomBytes(6).toString('hex')}.txt`;
    return (await tftpWrite(net, port, file))
      ? `WRQ "${file}" answered with ACK block 0, and an empty DATA block 1 with ACK block 1: the server wrote the file (an empty file of that name remains)`
      : null;
  },
});
