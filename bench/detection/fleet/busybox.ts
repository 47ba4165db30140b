/**
 * BusyBox's telnetd, as routers, NAS boxes, cameras and IoT boards run it.
 * Debian's `busybox` builds no telnetd (1.35.0: `busybox --list`, measured);
 * `busybox-static` does (CONFIG_TELNETD, standalone), and conflicts with
 * `busybox`, so the kind needs it unpacked beside the system
 * (test/helpers/busybox.ts says where it is looked for) and is skipped as
 * "not installed" otherwise. Neither Debian build has ftpd, tftpd, tcpsvd,
 * udpsvd or inetd (CONFIG_FTPD, CONFIG_TFTPD … unset in both), so BusyBox's
 * FTP and TFTP servers cannot be planted from Debian packages.
 * - Weak 1: telnetd -l /bin/sh, a root shell with no login (and Telnet).
 * - Weak 2: telnetd -l /bin/login: Telnet in clear, a login prompt, which
 *   vigil.telnet.no-login must leave alone (a weak target, not a twin:
 *   Telnet itself is vigil.telnet.open's HOLE, and BusyBox's has no TLS).
 */
import { busyboxWith } from '../../../test/helpers/busybox.ts';
import { addr, svc, type Daemon } from './kit.ts';

const K = 123;
const A = (n: number) => addr(K, n);
const BUSYBOX = busyboxWith('telnetd');

export const BUSYBOX_TELNETD: Daemon = {
  kind: 'busybox-telnetd',
  binaries: [BUSYBOX ?? 'busybox-with-telnetd'],
  ports: { tcp: [23], udp: [] },
  weaknesses: [
    {
      id: 'telnet-no-login-busybox',
      family: 'auth',
      label: 'BusyBox telnetd -l /bin/sh: a shell without login',
      daemon: 'busybox telnetd',
      address: A(1),
      port: 23,
      proto: 'tcp',
      vigil: { id: /^vigil\.telnet\.no-login$/ },
      nmap: () => null,
    },
    {
      id: 'telnet-open-busybox',
      family: 'cleartext',
      label: 'BusyBox telnetd with /bin/login: Telnet in clear',
      daemon: 'busybox telnetd',
      address: A(2),
      port: 23,
      proto: 'tcp',
      vigil: { id: /^vigil\.telnet\.open$/ },
      nmap: svc(/telnet/),
    },
  ],
  twins: [],
  async start(ctx) {
    for (const [n, prog] of [
      [1, '/bin/sh'],
      [2, '/bin/login'],
    ] as const) {
      const child = ctx.spawn(`telnetd-${n}`, BUSYBOX!, ['telnetd', '-F', '-b', `${A(n)}:23`, '-l', prog]);
      await ctx.waitTcp(A(n), 23, child);
    }
  },
};
