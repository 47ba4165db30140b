import { defineCheck } from '../kit.ts';
import { sshAlgorithms } from '../../proto/ssh.ts';
import { shown } from '../../proto/talk.ts';

const WEAK = {
  // RFC 9142 §4's SHOULD NOT and MUST NOT key exchanges. Not diffie-hellman-group14-sha1: RFC 9142
  // keeps it at MAY (a 2048-bit group; SHA-1 there is not used for signatures), Dropbear (2022.83)
  // offers it with no option to turn it off, and flagging it was an alarm on every hardened Dropbear.
  kex: /^(diffie-hellman-group1-sha1|diffie-hellman-group-exchange-sha1|gss-group1-sha1-.*|gss-gex-sha1-.*|rsa1024-sha1)$/,
  ciphers: /^(arcfour.*|.*-cbc(@.*)?|3des.*|blowfish.*|cast128.*|des.*|none)$/,
  // Not umac-64: OpenSSH's default MAC list has offered it since 6.2, and a fully
  // patched Debian sshd flagged for it was the false alarm of the outside bench.
  // The weak-MAC sets of Nessus and OpenVAS are MD5 and 96-bit truncations.
  macs: /^(hmac-md5.*|hmac-sha1-96.*|hmac-ripemd160.*|none)$/,
};

export default defineCheck({
  id: 'vigil.ssh.weak-algorithms',
  shortid: 'SSH-WEAK-ALGO',
  title: 'SSH server offers weak algorithms',
  family: 'Remote Access',
  categories: ['safe', 'vuln', 'default'],
  risk: 'low',
  type: 'NOTE',
  description:
    'The SSH server offers key exchange, ciphers or MACs that are broken or too weak (SHA-1 Diffie-Hellman groups, CBC-mode or RC4 ciphers, MD5 or 96-bit MACs).',
  solution:
    "Remove the weak algorithms from KexAlgorithms, Ciphers and MACs in sshd_config (or the server's equivalent) and restart sshd.",
  ports: { services: ['ssh'], ports: [22] },
  run: async ({ net, port, host }) => {
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
    if (!found.length) return null;
    const detail = `offered: ${shown(found.join(', '), 400)}`;
    // CVE-2008-5161 is the CBC-mode plaintext recovery: attached only when a CBC cipher is offered, never for kex or MACs.
    return /cipher [\w.-]*-cbc\b/.test(detail) ? { detail, cves: ['CVE-2008-5161'] } : detail;
  },
});
