/**
 * Debian distcc's distccd, K = 88, in the foreground on distcc's port.
 * Weak: --allow 0.0.0.0/0 with Debian's compiler whitelist (compile jobs
 * from anyone: CVE-2004-2687's missing authorization); --allow 0.0.0.0/0
 * --make-me-a-botnet (no whitelist: any command, as distcc before 3.3 ran
 * it). Twin: --allow a documentation network only (the scanner is closed
 * before any byte).
 */
import { DISTCCD_ENV, PASSWORD_SHELL, distccdArgs } from '../../../test/helpers/exec-daemons.ts';
import { addr, none, script, type Daemon } from './kit.ts';

const K = 88;
const A = (n: number) => addr(K, n);
const PORT = 3632;

export const DISTCC: Daemon = {
  kind: 'distcc',
  binaries: ['distccd', 'cc'],
  ports: { tcp: [PORT], udp: [] },
  weaknesses: [
    {
      id: 'distcc-open',
      family: 'auth',
      label: 'distccd compiles jobs from anyone (--allow 0.0.0.0/0, compiler whitelist on)',
      daemon: 'distccd',
      address: A(1),
      port: PORT,
      proto: 'tcp',
      vigil: { id: /^vigil\.distcc\.open$/ },
      // nmap's script runs `id` through sh, which the whitelist refuses.
      nmap: script('distcc-cve2004-2687', /VULNERABLE|uid=/),
    },
    {
      id: 'distcc-any-command',
      family: 'auth',
      label: 'distccd runs any command (--allow 0.0.0.0/0 --make-me-a-botnet, CVE-2004-2687)',
      daemon: 'distccd',
      address: A(2),
      port: PORT,
      proto: 'tcp',
      vigil: { id: /^vigil\.distcc\.(open|exec)$/ },
      nmap: script('distcc-cve2004-2687', /VULNERABLE|uid=/),
    },
  ],
  twins: [{ address: A(100), note: '--allow 192.0.2.0/24 (the scanner is not admitted)' }],
  async start(ctx) {
    for (const [n, allow, insecure] of [
      [1, '0.0.0.0/0', false],
      [2, '0.0.0.0/0', true],
      [100, '192.0.2.0/24', false],
    ] as const) {
      const child = ctx.spawn(`distccd-${A(n)}`, 'distccd', distccdArgs(A(n), PORT, allow, insecure), {
        env: DISTCCD_ENV,
      });
      await ctx.waitTcp(A(n), PORT, child);
    }
  },
};

const SHELL_PORT = 31337;

/**
 * A shell bound to a port (socat EXEC:/bin/sh, as `nc -l -e /bin/sh`
 * leaves one; here as nobody), K = 88 (N = 3 and 103). Twin: the same
 * shell behind a password (the first line must be it, else the connection
 * closes).
 */
export const BIND_SHELL: Daemon = {
  kind: 'bind-shell',
  binaries: ['socat'],
  ports: { tcp: [SHELL_PORT], udp: [] },
  weaknesses: [
    {
      id: 'bind-shell',
      family: 'auth',
      label: 'a shell bound to a TCP port (socat EXEC:/bin/sh)',
      daemon: 'socat',
      address: A(3),
      port: SHELL_PORT,
      proto: 'tcp',
      vigil: { id: /^vigil\.shell\.bind$/ },
      nmap: none,
    },
  ],
  twins: [{ address: A(103), note: 'the shell behind a password' }],
  async start(ctx) {
    for (const [n, exec] of [
      [3, 'EXEC:/bin/sh,stderr,su=nobody'],
      [103, `${PASSWORD_SHELL},su=nobody`],
    ] as const) {
      const child = ctx.spawn(`socat-${A(n)}`, 'socat', [`TCP-LISTEN:${SHELL_PORT},bind=${A(n)},fork,reuseaddr`, exec]);
      await ctx.waitTcp(A(n), SHELL_PORT, child);
    }
  },
};
