import { defineCheck } from '../kit.ts';
import { SIGNING_REQUIRED, negotiate } from '../../proto/smb.ts';
import { talk } from '../../proto/talk.ts';

/** One session per server: port 139 only where there is no 445 (the same SMB server behind NetBIOS). */
export default defineCheck({
  id: 'vigil.smb.signing-not-required',
  shortid: 'SMB-SIGNING',
  title: 'SMB message signing not required',
  family: 'Windows',
  categories: ['safe', 'desktop', 'default'],
  risk: 'medium',
  type: 'NOTE',
  qod: 95,
  description:
    'The SMB server does not require message signing (its NEGOTIATE response leaves SIGNING_REQUIRED unset): a machine in the middle can relay or alter SMB sessions (NTLM relay).',
  solution:
    'Require signing ("server signing = mandatory" in Samba; "Microsoft network server: Digitally sign communications (always)" on Windows).',
  ports: { services: ['microsoft-ds', 'smb'], ports: [445], fallback: { services: ['netbios-ssn'], ports: [139] } },
  run: ({ net, port }) =>
    talk(net, port, async (c) => {
      const n = await negotiate(c);
      if (!n) return null;
      return n.securityMode & SIGNING_REQUIRED
        ? null
        : `NEGOTIATE answered dialect 0x${n.dialect.toString(16).padStart(4, '0')} with SecurityMode 0x${n.securityMode.toString(16)} (signing enabled, not required)`;
    }),
});
