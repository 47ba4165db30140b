import { defineCheck } from '../kit.ts';
import { isSamba, smb1Accepted } from '../../proto/smb.ts';

const ETERNALBLUE = ['CVE-2017-0143', 'CVE-2017-0144', 'CVE-2017-0145'];

export default defineCheck({
  id: 'vigil.smb.v1',
  shortid: 'SMBV1',
  title: 'SMB version 1 enabled',
  family: 'Windows',
  categories: ['safe', 'desktop', 'vuln', 'default'],
  risk: 'high',
  cves: ETERNALBLUE,
  type: 'HOLE',
  description:
    'The server accepts the SMBv1 dialect "NT LM 0.12": an obsolete protocol without pre-authentication integrity, and on Windows the protocol of the EternalBlue/WannaCry attacks (MS17-010).',
  solution:
    'Disable SMBv1 (Samba: "server min protocol = SMB2_10" in smb.conf; Windows: Set-SmbServerConfiguration -EnableSMB1Protocol $false) and install MS17-010 on Windows.',
  ports: { services: ['microsoft-ds', 'smb', 'netbios-ssn'], ports: [445, 139] },
  run: async ({ net, port }) => {
    if (!(await smb1Accepted(net, port))) return null;
    const detail = 'an SMB1 NEGOTIATE with only "NT LM 0.12" was accepted';
    // Samba's SMB1 has no MS17-010: no Windows CVEs there, and a lower risk.
    if (!(await isSamba(net, port).catch(() => false))) return detail;
    return { detail: `${detail} (Samba: MS17-010/EternalBlue does not apply)`, cves: [], risk: 'medium' };
  },
});
