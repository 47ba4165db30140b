import { defineCheck } from '../kit.ts';
import { shown } from '../../proto/talk.ts';
import { tftpRead } from '../../proto/tftp.ts';

export default defineCheck({
  id: 'vigil.tftp.read',
  shortid: 'TFTP-READ',
  title: 'TFTP server gives files to anyone',
  family: 'General',
  categories: ['safe', 'discovery', 'default'],
  risk: 'medium',
  cves: ['CVE-1999-0498'],
  type: 'HOLE',
  qod: 99,
  description:
    'The TFTP server sent a file to an unauthenticated request (TFTP has no authentication at all): configurations, boot images and the secrets in them are readable by anyone who can reach UDP port 69.',
  solution:
    'Serve TFTP only on the provisioning network, from a directory that holds nothing sensitive, or turn it off.',
  ports: { udp: [69] },
  async run({ net }) {
    const r = await tftpRead(net);
    return r
      ? `RRQ "${r.file}" answered with DATA block 1 (${r.data.length} bytes: "${shown(r.data.toString('latin1'), 60)}")`
      : null;
  },
});
