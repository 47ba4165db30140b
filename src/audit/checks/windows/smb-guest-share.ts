import { randomBytes } from 'node:crypto';
import { defineCheck } from '../kit.ts';
import { tryShares } from './lib/shares.ts';
import { shown } from '../../proto/talk.ts';

export default defineCheck({
  id: 'vigil.smb.guest-share',
  shortid: 'SMB-GUEST',
  title: 'SMB share open to guest or anonymous users',
  family: 'Windows',
  categories: ['safe', 'desktop', 'auth', 'default'],
  risk: 'high',
  cves: ['CVE-1999-0519'],
  type: 'HOLE',
  qod: 99,
  description:
    'The SMB server let an anonymous session or an unknown user (mapped to guest) connect to a file share: anyone who reaches it can read (and, if writable, plant) files.',
  solution:
    'Turn off guest access ("map to guest = never", no "guest ok" shares in Samba; disable the Guest account and insecure guest logons on Windows).',
  ports: { services: ['microsoft-ds', 'smb'], ports: [445], fallback: { services: ['netbios-ssn'], ports: [139] } },
  run: async ({ net, port }) => {
    const anon = await tryShares(net, port, null);
    if (anon?.shares.length) return `an anonymous session connected to: ${shown(anon.shares.join(', '))}`;
    const user = `vigil-${randomBytes(4).toString('hex')}`;
    const guest = await tryShares(net, port, user);
    if (guest?.shares.length)
      return `the unknown user "${user}" was logged in as guest (SessionFlags 0x${guest.login.flags.toString(16)}) and connected to: ${shown(guest.shares.join(', '))}`;
    return null;
  },
});
