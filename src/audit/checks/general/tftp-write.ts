import { randomBytes } from 'node:crypto';
import { defineCheck } from '../kit.ts';
import { udpAsk } from '../../proto/talk.ts';
import { tftpRequest } from '../../proto/tftp.ts';

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
    'The TFTP server accepted a write request for a new file from an unauthenticated client: anyone can plant files (boot images and device configurations fetched by other machines) or fill the disk. The test may leave an empty file named vigil-audit-*.txt behind: TFTP cannot delete.',
  solution: 'Disable uploads (tftpd-hpa: no --create in TFTP_OPTIONS) or restrict TFTP to the provisioning network.',
  ports: { udp: [69] },
  async run({ net, port }) {
    const file = `vigil-audit-${randomBytes(6).toString('hex')}.txt`;
    const r = await udpAsk(net, port, tftpRequest(2, file), { timeoutMs: 2500, anyPort: true });
    return r && r.length >= 4 && r.readUInt16BE(0) === 4 && r.readUInt16BE(2) === 0
      ? `WRQ "${file}" answered with ACK block 0 (an empty file of that name may remain)`
      : null;
  },
});
