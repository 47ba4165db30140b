/**
 * SMB findings from the protocol itself (issue 14 replaced the generic
 * "SMB exposed" note with these): message signing not required, read from
 * the NEGOTIATE response; guest or anonymous access to a disk share, by an
 * actual session setup and tree connect; and SMBv1 with the EternalBlue
 * CVEs only where the server is not Samba (MS17-010 is a Windows srv.sys
 * flaw; Samba never had it).
 */
import { randomBytes } from 'node:crypto';
import type { Check, HostFacts, Net } from '../types.ts';
import { smb1Accepted } from './remote-probes.ts';
import { portCheck, portsOf, shown, talk } from './services-kit.ts';
import { listShares } from './smb-rpc.ts';
import { login, negotiate, SIGNING_REQUIRED, STATUS, treeConnect, type Login } from './smb-wire.ts';

const smbPorts = (h: HostFacts) =>
  portsOf(h, ['microsoft-ds', 'smb', 'netbios-ssn'], [445, 139]).filter(
    (p) => p !== 139 || portsOf(h, ['microsoft-ds', 'smb'], [445]).length === 0,
  );

export const smbSigningNotRequired: Check = portCheck(
  {
    id: 'vigil.smb.signing-not-required',
    shortid: 'SMB-SIGNING',
    title: 'SMB message signing not required',
    category: 'Windows',
    risk: 'medium',
    cves: [],
    type: 'NOTE',
    desktop: true,
    qod: 95,
    description:
      'The SMB server does not require message signing (its NEGOTIATE response leaves SIGNING_REQUIRED unset): a machine in the middle can relay or alter SMB sessions (NTLM relay).',
    solution:
      'Require signing ("server signing = mandatory" in Samba; "Microsoft network server: Digitally sign communications (always)" on Windows).',
  },
  smbPorts,
  (net, port) =>
    talk(net, port, async (c) => {
      const n = await negotiate(c);
      if (!n) return null;
      return n.securityMode & SIGNING_REQUIRED
        ? null
        : `NEGOTIATE answered dialect 0x${n.dialect.toString(16).padStart(4, '0')} with SecurityMode 0x${n.securityMode.toString(16)} (signing enabled, not required)`;
    }),
);

/** Share names tried when the session may not list them (srvsvc refused). */
const SHARES = [
  'public',
  'share',
  'shared',
  'shares',
  'guest',
  'pub',
  'data',
  'files',
  'tmp',
  'temp',
  'anonymous',
  'backup',
  'docs',
  'media',
  'users',
  'homes',
  'print$',
  'netlogon',
  'sysvol',
];

/** One session on its own connection: login as `user` (null: anonymous), then connect to each share. */
function tryShares(net: Net, port: number, user: string | null): Promise<{ login: Login; shares: string[] } | null> {
  return talk(
    net,
    port,
    async (c) => {
      const n = await negotiate(c);
      if (!n) return null;
      const l = await login(n, user);
      if (!l || l.status !== STATUS.SUCCESS) return l ? { login: l, shares: [] } : null;
      // The real list when the session may read it (srvsvc through IPC$), else the usual names.
      const listed = await listShares(n, net.address).catch(() => null);
      const shares: string[] = [];
      for (const s of listed?.length ? listed.slice(0, 20) : SHARES) {
        const t = await treeConnect(n, net.address, s);
        if (!t) break;
        if (t.status === STATUS.SUCCESS && t.type === 1) shares.push(s);
      }
      return { login: l, shares };
    },
    10_000,
  );
}

export const smbGuestShare: Check = portCheck(
  {
    id: 'vigil.smb.guest-share',
    shortid: 'SMB-GUEST',
    title: 'SMB share open to guest or anonymous users',
    category: 'Windows',
    risk: 'high',
    cves: ['CVE-1999-0519'],
    type: 'HOLE',
    desktop: true,
    qod: 99,
    description:
      'The SMB server let an anonymous session or an unknown user (mapped to guest) connect to a file share: anyone who reaches it can read (and, if writable, plant) files.',
    solution:
      'Turn off guest access ("map to guest = never", no "guest ok" shares in Samba; disable the Guest account and insecure guest logons on Windows).',
  },
  smbPorts,
  async (net, port) => {
    const anon = await tryShares(net, port, null);
    if (anon?.shares.length) return `an anonymous session connected to: ${shown(anon.shares.join(', '))}`;
    const user = `vigil-${randomBytes(4).toString('hex')}`;
    const guest = await tryShares(net, port, user);
    if (guest?.shares.length)
      return `the unknown user "${user}" was logged in as guest (SessionFlags 0x${guest.login.flags.toString(16)}) and connected to: ${shown(guest.shares.join(', '))}`;
    return null;
  },
);

/**
 * Samba's NTLMSSP CHALLENGE carries Version 6.1 build 0 (source3/auth: no real build); Windows sends its
 * build number.
 */
async function isSamba(net: Net, port: number): Promise<boolean> {
  const l = await talk(net, port, async (c) => {
    const n = await negotiate(c);
    return n ? login(n, null) : null;
  });
  return !!l?.osVersion && l.osVersion.build === 0;
}

const ETERNALBLUE = ['CVE-2017-0143', 'CVE-2017-0144', 'CVE-2017-0145'];

export const smbV1Dialect: Check = portCheck(
  {
    id: 'vigil.smb.v1',
    shortid: 'SMBV1',
    title: 'SMB version 1 enabled',
    category: 'Windows',
    risk: 'high',
    cves: ETERNALBLUE,
    type: 'HOLE',
    desktop: true,
    description:
      'The server accepts the SMBv1 dialect "NT LM 0.12": an obsolete protocol without pre-authentication integrity, and on Windows the protocol of the EternalBlue/WannaCry attacks (MS17-010).',
    solution:
      'Disable SMBv1 (Samba: "server min protocol = SMB2_10" in smb.conf; Windows: Set-SmbServerConfiguration -EnableSMB1Protocol $false) and install MS17-010 on Windows.',
  },
  (h) => portsOf(h, ['microsoft-ds', 'smb', 'netbios-ssn'], [445, 139]),
  async (net, port) =>
    (await smb1Accepted(net, port)) ? 'an SMB1 NEGOTIATE with only "NT LM 0.12" was accepted' : null,
);

/** The SMBv1 finding without Windows CVEs on Samba, and a lower risk: Samba's SMB1 has no MS17-010. */
export const smbV1: Check = {
  ...smbV1Dialect,
  async run(host, net) {
    const found = await smbV1Dialect.run(host, net);
    for (const f of found) {
      if (!(await isSamba(net, f.port).catch(() => false))) continue;
      Object.assign(f, {
        cves: [],
        risk: 'medium',
        detail: `${f.detail} (Samba: MS17-010/EternalBlue does not apply)`,
      });
    }
    return found;
  },
};

export const SMB_CHECKS: readonly Check[] = [smbSigningNotRequired, smbGuestShare, smbV1];
