/**
 * atftpd (0.8.0), the third TFTP make after tftpd-hpa and dnsmasq. Debian's
 * package conflicts with tftpd-hpa: .ci/run unpacks it and links
 * /usr/local/sbin/atftpd (EXTRACT). In the foreground (--daemon
 * --no-fork), on port 69 of its own address, as nobody.
 * - Weak 1: a world-writable root with a router configuration: read and
 *   write (atftpd creates new files where its user may write).
 * - Twin 100: a boot server's root that nobody may not write, serving only
 *   its boot loader (pxelinux.0): what TFTP is for. atftpd answers a WRQ
 *   there with ACK 0 too and refuses only the DATA (the write check's proof
 *   is the ACK of block 1).
 */
import { chmodSync } from 'node:fs';
import { join } from 'node:path';
import { addr, any, grep, script, type Daemon } from './kit.ts';

const K = 122;
const A = (n: number) => addr(K, n);

export const ATFTPD: Daemon = {
  kind: 'atftpd',
  binaries: ['/usr/local/sbin/atftpd'],
  ports: { tcp: [], udp: [69] },
  weaknesses: [
    {
      id: 'tftp-read-atftpd',
      family: 'udp',
      label: 'atftpd serves a router configuration to anyone',
      daemon: 'atftpd',
      address: A(1),
      port: 69,
      proto: 'udp',
      vigil: { id: /^vigil\.tftp\.read$/ },
      nmap: any(script('tftp-enum', /startup-config|\S/), grep(/tftp/)),
    },
    {
      id: 'tftp-write-atftpd',
      family: 'udp',
      label: 'atftpd accepts uploads (world-writable root)',
      daemon: 'atftpd',
      address: A(1),
      port: 69,
      proto: 'udp',
      vigil: { id: /^vigil\.tftp\.write$/ },
      nmap: () => null,
    },
  ],
  twins: [{ address: A(100), note: 'serves only pxelinux.0 from a root its user cannot write' }],
  async start(ctx) {
    const RRQ = Buffer.concat([Buffer.from([0, 1]), Buffer.from('nothing-here\0octet\0')]);
    for (const n of [1, 100]) {
      const dir = ctx.dir(`atftpd-${n}`);
      if (n === 1)
        ctx.write(join(dir, 'startup-config'), 'hostname edge-router\nenable secret 5 $1$bench$notasecret\n');
      else ctx.write(join(dir, 'pxelinux.0'), 'a boot loader (bench)\n');
      chmodSync(dir, n === 1 ? 0o777 : 0o755);
      const child = ctx.spawn(`atftpd-${n}`, '/usr/local/sbin/atftpd', [
        ...['--daemon', '--no-fork', '--bind-address', A(n), '--port', '69'],
        ...['--user', 'nobody.nogroup', '--logfile', '/dev/null', dir],
      ]);
      await ctx.waitUdp(A(n), 69, RRQ, child);
    }
  },
};
