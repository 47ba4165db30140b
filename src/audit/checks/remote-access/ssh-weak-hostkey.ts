import { defineCheck } from '../kit.ts';
import { sshAlgorithms } from '../../proto/ssh.ts';

/**
 * Weak SSH host key algorithms, read off the server's KEXINIT
 * (server_host_key_algorithms, RFC 4253 §7.1): the server lists only the
 * algorithms it holds a key for, so the list is its host keys.
 * - ssh-dss: DSA, 1024-bit keys with SHA-1 (RFC 4253 §6.6); disabled by
 *   default since OpenSSH 7.0 and no longer allowed by FIPS 186-5.
 * - ssh-rsa without rsa-sha2-256/512 (RFC 8332): the RSA key can only sign
 *   with SHA-1, whose chosen-prefix collisions (SHA-1 is a Shambles, 2020)
 *   made OpenSSH 8.8 disable it. ssh-rsa offered beside rsa-sha2-* is not
 *   reported: every current client picks SHA-2 then (OpenSSH up to 8.7
 *   offered both by default).
 */
export default defineCheck({
  id: 'vigil.ssh.weak-hostkey',
  shortid: 'SSH-WEAK-HOSTKEY',
  title: 'SSH server uses a weak host key algorithm (DSA, or RSA with SHA-1 only)',
  family: 'Remote Access',
  categories: ['safe', 'vuln', 'default'],
  risk: 'medium',
  type: 'HOLE',
  description:
    "The SSH server proves its identity with a DSA host key, or with an RSA key it can only sign with SHA-1 (ssh-rsa without rsa-sha2-256/512). Both rest on SHA-1 and DSA's 1024-bit keys, so the host key no longer protects clients from an impostor; current clients refuse them, and users get used to overriding the warning.",
  solution:
    'Remove DSA host keys (HostKey lines and ssh_host_dsa_key*) and drop ssh-dss and ssh-rsa from HostKeyAlgorithms; keep Ed25519 or ECDSA keys, and RSA keys of 3072 bits or more with rsa-sha2-512/rsa-sha2-256 (OpenSSH 7.2 or later).',
  references: [
    'https://www.rfc-editor.org/rfc/rfc8332',
    'https://www.rfc-editor.org/rfc/rfc9142',
    'https://www.openssh.com/txt/release-8.8',
  ],
  ports: { services: ['ssh'], ports: [22] },
  run: async ({ net, port, host }) => {
    const known = host.services.find((s) => s.port === port)?.extra;
    const hostkey = known?.hostkey ?? (await sshAlgorithms(net, port))?.hostkey;
    if (!hostkey) return null;
    const algs = hostkey.split(',');
    const weak: string[] = [];
    if (algs.some((a) => /^ssh-dss(-cert-v01@openssh\.com)?$/.test(a))) weak.push('a DSA host key (ssh-dss)');
    if (algs.includes('ssh-rsa') && !algs.some((a) => /^rsa-sha2-(256|512)$/.test(a)))
      weak.push('an RSA host key signed with SHA-1 only (ssh-rsa, no rsa-sha2-256/512)');
    return weak.length ? `The server's KEXINIT offers host key algorithms "${hostkey}": ${weak.join(' and ')}.` : null;
  },
});
