/** Remote access: Telnet, SSH protocol 1 and weak algorithms, RDP, VNC (SMB: smb.ts). */
import type { Check, Finding, HostFacts } from '../types.ts';
import { sshAlgorithms, vncSecurityTypes } from './remote-probes.ts';
import { portCheck, portsOf, shown, talk } from './services-kit.ts';

type Meta = Omit<Check, 'run' | 'active' | 'intrusive' | 'dos'>;

/** A passive check: flags every port `match` returns a detail for. */
function seen(meta: Meta, match: (host: HostFacts) => Finding[]): Check {
  return { ...meta, active: false, intrusive: false, dos: false, run: async (host) => match(host) };
}

const exposed = (host: HostFacts, names: string[], usual: number[], what: string): Finding[] =>
  portsOf(host, names, usual).map((port) => ({ port, detail: `${what} answers on port ${port}` }));

export const telnetOpen: Check = portCheck(
  {
    // No CVE: CVE-1999-0619 ("The Telnet service is running") is REJECTED in NVD, a configuration, not a flaw
    // (read 2026-11-23).
    id: 'vigil.telnet.open',
    shortid: 'TELNET',
    title: 'Telnet service open',
    category: 'Remote Access',
    risk: 'medium',
    cves: [],
    type: 'HOLE',
    description: 'Telnet sends logins and everything typed in clear text, readable by anyone on the path.',
    solution: 'Turn the telnet service off (inetd/systemd socket) and use SSH instead.',
  },
  (h) => portsOf(h, ['telnet'], [23, 2323]),
  async (net, port, host) => {
    if (host.services.find((s) => s.port === port)?.name === 'telnet') return `a Telnet server answers on port ${port}`;
    // IAC (255) followed by DO/DONT/WILL/WONT opens every Telnet negotiation.
    const greeting = await talk(net, port, (c) => c.read(2500, (b) => b.length >= 3));
    return greeting && greeting[0] === 255 && greeting[1]! >= 251 ? `Telnet option negotiation on port ${port}` : null;
  },
);

export const sshProtocol1: Check = seen(
  {
    id: 'vigil.ssh.protocol1',
    shortid: 'SSH-V1',
    title: 'SSH protocol version 1 supported',
    category: 'Remote Access',
    risk: 'high',
    cves: ['CVE-2001-0572', 'CVE-2001-1473'],
    type: 'HOLE',
    description: 'SSH protocol 1 has broken integrity protection and known session-hijacking attacks.',
    solution:
      'Allow SSH protocol 2 only (sshd_config: Protocol 2, or upgrade to OpenSSH 7.4 or later, which has no protocol 1).',
  },
  (host) =>
    host.services
      .filter((s) => /^SSH-1\.\d+-/.test(s.banner ?? ''))
      .map((s) => ({ port: s.port, detail: `identification: ${shown(s.banner!.split(/\r?\n/)[0]!, 80)}` })),
);

const WEAK = {
  kex: /^(diffie-hellman-group1-sha1|diffie-hellman-group-exchange-sha1|diffie-hellman-group14-sha1|gss-group1-sha1-.*)$/,
  ciphers: /^(arcfour.*|.*-cbc(@.*)?|3des.*|blowfish.*|cast128.*|des.*|none)$/,
  // Not umac-64: OpenSSH's default MAC list has offered it since 6.2, and a fully
  // patched Debian sshd flagged for it was the false alarm of the outside bench.
  // The weak-MAC sets of Nessus and OpenVAS are MD5 and 96-bit truncations.
  macs: /^(hmac-md5.*|hmac-sha1-96.*|hmac-ripemd160.*|none)$/,
};

const sshWeakAlgorithmsProbe: Check = portCheck(
  {
    id: 'vigil.ssh.weak-algorithms',
    shortid: 'SSH-WEAK-ALGO',
    title: 'SSH server offers weak algorithms',
    category: 'Remote Access',
    risk: 'low',
    cves: [],
    type: 'NOTE',
    description:
      'The SSH server offers key exchange, ciphers or MACs that are broken or too weak (SHA-1 Diffie-Hellman groups, CBC-mode or RC4 ciphers, MD5 or 96-bit MACs).',
    solution:
      "Remove the weak algorithms from KexAlgorithms, Ciphers and MACs in sshd_config (or the server's equivalent) and restart sshd.",
  },
  (h) => portsOf(h, ['ssh'], [22]),
  async (net, port, host) => {
    const known = host.services.find((s) => s.port === port)?.extra;
    const lists = known?.kex ? known : await sshAlgorithms(net, port);
    if (!lists) return null;
    const weak = (list: string | undefined, re: RegExp) => (list ?? '').split(',').filter((a) => re.test(a));
    const found = [
      ...weak(lists.kex, WEAK.kex).map((a) => `kex ${a}`),
      ...[...new Set([...weak(lists.ciphers_c2s, WEAK.ciphers), ...weak(lists.ciphers_s2c, WEAK.ciphers)])].map(
        (a) => `cipher ${a}`,
      ),
      ...[...new Set([...weak(lists.macs_c2s, WEAK.macs), ...weak(lists.macs_s2c, WEAK.macs)])].map((a) => `mac ${a}`),
    ];
    return found.length ? `offered: ${shown(found.join(', '), 400)}` : null;
  },
);

/**
 * CVE-2008-5161 is the CBC-mode plaintext recovery: attached only when a CBC cipher is offered, never for kex
 * or MACs.
 */
export const sshWeakAlgorithms: Check = {
  ...sshWeakAlgorithmsProbe,
  run: async (h, n) =>
    (await sshWeakAlgorithmsProbe.run(h, n)).map((f) =>
      /cipher [\w.-]*-cbc\b/.test(f.detail) ? { ...f, cves: ['CVE-2008-5161'] } : f,
    ),
};

export const rdpExposed: Check = seen(
  {
    id: 'vigil.rdp.exposed',
    shortid: 'RDP-EXPOSED',
    title: 'Remote Desktop (RDP) reachable',
    category: 'Windows',
    risk: 'medium',
    cves: [],
    type: 'NOTE',
    desktop: true,
    description:
      'Remote Desktop is reachable: it is a favourite target of password guessing and of worms (BlueKeep, CVE-2019-0708).',
    solution: 'Put it behind a VPN or gateway and require Network Level Authentication.',
  },
  (host) => exposed(host, ['ms-wbt-server', 'rdp'], [3389], 'Remote Desktop (RDP)'),
);

export const vncExposed: Check = seen(
  {
    id: 'vigil.vnc.exposed',
    shortid: 'VNC-EXPOSED',
    title: 'VNC remote desktop reachable',
    category: 'Remote Access',
    risk: 'other',
    cves: [],
    type: 'LOG',
    desktop: true,
    description:
      'A VNC server is reachable. Whether that is a weakness depends on what it offers: see the VNC authentication and encryption checks.',
    solution:
      'Reach VNC only through an SSH tunnel or VPN, and let the server listen on localhost or the private network only.',
  },
  (host) =>
    host.services
      .filter((s) => s.name === 'vnc')
      .map((s) => ({ port: s.port, detail: `VNC (${shown(s.extra.protocol ?? s.banner ?? 'RFB', 40)}) answers` })),
);

/** RFB security types that encrypt the session: RA2 (5), TLS (18), VeNCrypt (19). */
const VNC_ENCRYPTED = new Set([5, 18, 19]);

export const vncUnencrypted: Check = portCheck(
  {
    id: 'vigil.vnc.unencrypted',
    shortid: 'VNC-UNENCRYPTED',
    title: 'VNC server allows unencrypted sessions',
    category: 'Remote Access',
    risk: 'medium',
    cves: [],
    type: 'NOTE',
    desktop: true,
    description:
      'The VNC server offers a security type without encryption (classic "VNC Authentication" uses an 8-character password and a DES challenge that can be cracked offline; the session itself travels in clear).',
    solution: 'Offer only VeNCrypt/TLS or RA2, or tunnel VNC over SSH or a VPN.',
  },
  (h) => portsOf(h, ['vnc'], [5900, 5901]),
  async (net, port) => {
    const types = await vncSecurityTypes(net, port);
    const clear = types?.filter((t) => !VNC_ENCRYPTED.has(t)) ?? [];
    return clear.length
      ? `security types offered: ${types!.join(', ')}; without encryption: ${clear.join(', ')}`
      : null;
  },
);

export const vncNoAuth: Check = portCheck(
  {
    id: 'vigil.vnc.noauth',
    shortid: 'VNC-NOAUTH',
    title: 'VNC server without authentication',
    category: 'Remote Access',
    risk: 'high',
    cves: ['CVE-2006-2369'],
    type: 'HOLE',
    desktop: true,
    description: 'The VNC server offers the security type "None": anyone who connects sees and controls the desktop.',
    solution:
      "Require authentication in the VNC server's settings (a password, or VeNCrypt with user accounts), and reach it only through an SSH tunnel or VPN.",
  },
  (h) => portsOf(h, ['vnc'], [5900, 5901]),
  async (net, port) => {
    const types = await vncSecurityTypes(net, port);
    return types?.includes(1) ? `security types offered: ${types.join(', ')} (1 = None)` : null;
  },
);

// vigil.smb.exposed (a generic "SMB reachable" note) and vigil.smb.v1 moved to
// smb.ts in issue 14: SMB is judged by what the protocol answers (signing,
// guest shares, SMBv1 with the Windows CVEs only off Samba).

export const REMOTE_CHECKS: readonly Check[] = [
  telnetOpen,
  sshProtocol1,
  sshWeakAlgorithms,
  rdpExposed,
  vncExposed,
  vncNoAuth,
  vncUnencrypted,
];
