/**
 * Debian OpenSSH (9.2p1, Debian-2+deb12u10 here: fully patched, its fixes
 * backported, so no version-table HOLE may come of its banner). Weak:
 * password authentication offered (scanners report it as information);
 * legacy algorithms re-enabled (diffie-hellman-group1-sha1, CBC ciphers,
 * hmac-md5); a DSA host key enabled again (HostKeyAlgorithms +ssh-dss); an
 * RSA host key restricted to SHA-1 signatures (HostKeyAlgorithms ssh-rsa). Twin: keys only, Debian's default algorithms.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { addr, any, script, type Daemon } from './kit.ts';

const K = 8;
export const SSHD: Daemon = {
  kind: 'sshd',
  binaries: ['sshd', 'ssh-keygen'],
  ports: { tcp: [22], udp: [] },
  // CBC-mode plaintext recovery (CVE-2008-5161) belongs to findings that name a CBC cipher, never to kex or MAC ones;
  // Terrapin (CVE-2023-48795) not at all: Debian's 9.2p1-2+deb12u2 and later offer strict kex.
  wrongCves: (cves, text) => cves.includes('CVE-2023-48795') || (cves.includes('CVE-2008-5161') && !/cbc/i.test(text)),
  weaknesses: [
    {
      id: 'ssh-password-auth',
      family: 'cleartext',
      label: 'SSH accepts passwords (information)',
      daemon: 'sshd',
      address: addr(K, 1),
      port: 22,
      proto: 'tcp',
      vigil: { text: /password/i },
      nmap: script('ssh-auth-methods', /password/),
    },
    {
      id: 'ssh-weak-algorithms',
      family: 'tls',
      label: 'SSH legacy algorithms (group1-sha1 kex, CBC, hmac-md5)',
      daemon: 'sshd',
      address: addr(K, 2),
      port: 22,
      proto: 'tcp',
      vigil: { text: /algorithm|cbc|sha1|md5|group1|weak/i },
      nmap: any(script('ssh2-enum-algos', /diffie-hellman-group1-sha1|aes128-cbc|hmac-md5/)),
    },
    {
      id: 'ssh-dsa-hostkey',
      family: 'tls',
      label: 'SSH DSA host key (HostKeyAlgorithms +ssh-dss)',
      daemon: 'sshd',
      address: addr(K, 3),
      port: 22,
      proto: 'tcp',
      vigil: { id: /^vigil\.ssh\.weak-hostkey$/ },
      nmap: script('ssh2-enum-algos', /ssh-dss/),
    },
    {
      id: 'ssh-rsa-sha1-only',
      family: 'tls',
      label: 'SSH RSA host key with SHA-1 signatures only (HostKeyAlgorithms ssh-rsa)',
      daemon: 'sshd',
      address: addr(K, 4),
      port: 22,
      proto: 'tcp',
      vigil: { id: /^vigil\.ssh\.weak-hostkey$/ },
      nmap: () => null,
    },
  ],
  twins: [{ address: addr(K, 100), note: 'patched Debian OpenSSH, public keys only, default algorithms' }],
  async start(ctx) {
    if (!existsSync('/run/sshd')) mkdirSync('/run/sshd', { mode: 0o755 }); // sshd's privilege separation directory (the package makes it at boot)
    const keys = ctx.dir('keys');
    ctx.run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', join(keys, 'ed25519')]);
    ctx.run('ssh-keygen', ['-q', '-t', 'rsa', '-b', '3072', '-N', '', '-f', join(keys, 'rsa')]);
    ctx.run('ssh-keygen', ['-q', '-t', 'dsa', '-N', '', '-f', join(keys, 'dsa')]);
    const keysOnly = 'PasswordAuthentication no\nKbdInteractiveAuthentication no\n';
    const configs: [number, string][] = [
      [1, 'PasswordAuthentication yes\nKbdInteractiveAuthentication yes\n'],
      [
        2,
        'PasswordAuthentication no\nKbdInteractiveAuthentication no\nKexAlgorithms +diffie-hellman-group1-sha1,diffie-hellman-group14-sha1\nCiphers +aes128-cbc,3des-cbc\nMACs +hmac-md5,hmac-sha1\n',
      ],
      [3, `${keysOnly}HostKey ${keys}/dsa\nHostKeyAlgorithms +ssh-dss\n`],
      [4, `${keysOnly}HostKeyAlgorithms ssh-rsa,ssh-ed25519\n`],
      [100, 'PasswordAuthentication no\nKbdInteractiveAuthentication no\nPermitRootLogin prohibit-password\n'],
    ];
    for (const [n, conf] of configs) {
      const address = addr(K, n);
      const dir = ctx.dir(address);
      const file = ctx.write(
        join(dir, 'sshd_config'),
        `ListenAddress ${address}:22\nHostKey ${keys}/ed25519\nHostKey ${keys}/rsa\nPidFile ${dir}/sshd.pid\nUsePAM no\n${conf}`,
        0o600,
      );
      const child = ctx.spawn(`sshd-${address}`, '/usr/sbin/sshd', ['-D', '-e', '-f', file]);
      await ctx.waitTcp(address, 22, child);
    }
  },
};
