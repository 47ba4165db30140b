/**
 * BSD remote services: Debian rsh-redone-server (in.rlogind, in.rshd) run
 * by openbsd-inetd in the foreground, each in a private mount namespace so
 * that its trust files are its own (test/helpers/legacy-daemons.ts).
 * Weak 1: "+ +" in root's .rhosts (rsh and rlogin let anyone in as root
 * without a password). Weak 2: the same services without trust (they
 * answer, then refuse: still cleartext logins). Twin: inetd -l with
 * hosts.deny "ALL: ALL" (TCP wrappers close every connection without a
 * byte).
 */
import { DENY_ALL, inetdCommand } from '../../../test/helpers/legacy-daemons.ts';
import { addr, svc, type Daemon } from './kit.ts';

const K = 28;
const A = (n: number) => addr(K, n);

export const RSH: Daemon = {
  kind: 'rsh',
  binaries: ['inetd', 'in.rlogind', 'in.rshd', 'unshare'],
  ports: { tcp: [513, 514], udp: [] },
  weaknesses: [
    {
      id: 'rsh-trust',
      family: 'auth',
      label: 'rsh runs commands as root without a password ("+ +" in /root/.rhosts)',
      daemon: 'rshd',
      address: A(1),
      port: 514,
      proto: 'tcp',
      vigil: { id: /^vigil\.rsh\.trust$/ },
      nmap: () => null,
    },
    {
      id: 'rlogin-open',
      family: 'cleartext',
      label: 'rlogin open (cleartext remote login)',
      daemon: 'rlogind',
      address: A(1),
      port: 513,
      proto: 'tcp',
      vigil: { id: /^vigil\.rservices\.open$/ },
      nmap: svc(/^login\b/),
    },
    {
      id: 'rsh-open',
      family: 'cleartext',
      label: 'rsh open without trust files (cleartext, address-based logins)',
      daemon: 'rshd',
      address: A(2),
      port: 514,
      proto: 'tcp',
      vigil: { id: /^vigil\.rservices\.open$/ },
      nmap: svc(/^shell\b/),
    },
  ],
  twins: [{ address: A(100), note: 'inetd -l, hosts.deny ALL: ALL (every connection closed without a byte)' }],
  async start(ctx) {
    for (const n of [1, 2, 100]) {
      const a = A(n);
      const { cmd, args } = inetdCommand(ctx.dir(`inetd-${n}`), {
        lines: [
          `${a}:login stream tcp nowait root /usr/sbin/in.rlogind in.rlogind`,
          `${a}:shell stream tcp nowait root /usr/sbin/in.rshd in.rshd`,
        ],
        ...(n === 1 ? { files: { '/root/.rhosts': '+ +\n' } } : {}),
        ...(n === 100 ? { wrap: true, files: DENY_ALL } : {}),
      });
      const child = ctx.spawn(`inetd-${n}`, cmd, args);
      await ctx.waitTcp(a, 513, child);
      await ctx.waitTcp(a, 514, child);
    }
  },
};
