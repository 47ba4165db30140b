/**
 * A BusyBox binary that has the applets a test or a fleet kind needs.
 * Debian's `busybox` package builds no network daemon but httpd (1.35.0-4:
 * no telnetd, ftpd, tftpd, inetd, tcpsvd or udpsvd, measured with
 * `busybox --list`); `busybox-static` adds telnetd (its config sets
 * CONFIG_TELNETD, not FTPD, TFTPD, TCPSVD, UDPSVD or INETD) and conflicts
 * with `busybox`, so CI may unpack it beside the system
 * (/var/cache/vigil-ci/root, .ci/run EXTRACT) or link it as
 * /usr/local/sbin/busybox-static. The first candidate that lists every
 * applet wins; null when none does.
 */
import { spawnSync } from 'node:child_process';

const CANDIDATES = [
  'busybox',
  '/usr/local/sbin/busybox-static',
  '/usr/local/sbin/busybox',
  '/var/cache/vigil-ci/root/bin/busybox',
  '/var/cache/vigil-ci/root/usr/bin/busybox',
];

export function busyboxWith(...applets: string[]): string | null {
  for (const bin of CANDIDATES) {
    const r = spawnSync(bin, ['--list'], { encoding: 'utf8' });
    if (r.status !== 0) continue;
    const have = new Set(r.stdout.split('\n'));
    if (applets.every((a) => have.has(a))) return bin;
  }
  return null;
}
