/**
 * Debian Dropbear (2022.83), an SSH server of another make than OpenSSH
 * (issue 27: the SSH checks must hold for the family). Weak: password
 * logins, root's too (Dropbear's default without -s and -w); a DSA host key
 * served (-r with a dropbearkey -t dss key). Twin: keys only (-s), no root
 * login (-w), an Ed25519 host key. Dropbear offers
 * diffie-hellman-group14-sha1 and hmac-sha1 whatever its options: neither
 * is an alarm (RFC 9142 §4 keeps group14-sha1 at MAY).
 */
import { join } from 'node:path';
import { addr, script, type Daemon } from './kit.ts';

const K = 39;
const A = (n: number) => addr(K, n);

export const DROPBEAR: Daemon = {
  kind: 'dropbear',
  binaries: ['dropbear', 'dropbearkey'],
  ports: { tcp: [22], udp: [] },
  weaknesses: [
    {
      id: 'ssh-password-dropbear',
      family: 'cleartext',
      label: 'Dropbear accepts passwords, root too (information)',
      daemon: 'dropbear',
      address: A(1),
      port: 22,
      proto: 'tcp',
      vigil: { id: /^vigil\.ssh\.password-auth$/ },
      nmap: script('ssh-auth-methods', /password/),
    },
    {
      id: 'ssh-dsa-hostkey-dropbear',
      family: 'tls',
      label: 'Dropbear serves a DSA host key (-r dss key)',
      daemon: 'dropbear',
      address: A(2),
      port: 22,
      proto: 'tcp',
      vigil: { id: /^vigil\.ssh\.weak-hostkey$/ },
      nmap: script('ssh2-enum-algos', /ssh-dss/),
    },
  ],
  twins: [{ address: A(100), note: 'keys only (-s), no root login (-w), Ed25519 host key' }],
  async start(ctx) {
    const keys = ctx.dir('keys');
    const key = (type: string) => (ctx.run('dropbearkey', ['-t', type, '-f', join(keys, type)]), join(keys, type));
    const [ed, dss] = [key('ed25519'), key('dss')];
    for (const [n, args] of [
      [1, ['-r', ed]],
      [2, ['-r', ed, '-r', dss, '-s', '-w']],
      [100, ['-r', ed, '-s', '-w']],
    ] as const) {
      const child = ctx.spawn(`dropbear-${A(n)}`, 'dropbear', ['-F', '-E', '-p', `${A(n)}:22`, ...args]);
      await ctx.waitTcp(A(n), 22, child);
    }
  },
};
