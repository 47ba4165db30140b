/**
 * NBD: Debian nbd-server (3.24), one per address,
 * each exporting 8 MB sparse files that the bench never reads. Weak 1:
 * exports listed (`allowlist = true`) and opened by anyone (no authfile, no
 * TLS). Weak 2: exports listed, but each export's `authfile` shuts the
 * scanner out (the names leak, the disk does not open). Twin: listing off
 * (nbd-server's default) and an authfile without the scanner's address: the
 * list is refused (NBD_REP_ERR_POLICY) and so is NBD_OPT_GO.
 */
import { readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { heldByOther } from '../../../test/helpers/listeners.ts';
import { addr, canConnect, script, sleep, svc, type Daemon } from './kit.ts';

const K = 121;
const A = (n: number) => addr(K, n);
const PORT = 10809;

export const NBD_SERVER: Daemon = {
  kind: 'nbd-server',
  binaries: ['nbd-server'],
  ports: { tcp: [PORT], udp: [] },
  weaknesses: [
    {
      id: 'nbd-noauth',
      family: 'auth',
      label: 'NBD export opened by anyone (nbd-server, no authfile, no TLS)',
      daemon: 'nbd-server',
      address: A(1),
      port: PORT,
      proto: 'tcp',
      vigil: { id: /^vigil\.nbd\.noauth$/ },
      // nbd-info is in `discovery,intrusive`, outside the bench's default,vuln,safe: it may print nothing.
      nmap: script('nbd-info', /size|export/i),
    },
    {
      id: 'ident-nbd',
      family: 'ident',
      label: 'nbd-server named as NBD by service detection (handshake flags 3)',
      daemon: 'nbd-server',
      address: A(1),
      port: PORT,
      proto: 'tcp',
      vigil: { service: /^nbd$/ },
      nmap: svc(/nbd/i),
    },
    {
      id: 'nbd-export-list-open',
      family: 'ident',
      label: 'NBD exports listed to anyone (allowlist = true), beside the open export',
      daemon: 'nbd-server',
      address: A(1),
      port: PORT,
      proto: 'tcp',
      vigil: { id: /^vigil\.nbd\.export-list$/ },
      nmap: script('nbd-info', /disk/),
    },
    {
      id: 'nbd-export-list',
      family: 'ident',
      label: 'NBD exports listed to anyone (allowlist = true; the exports themselves behind an authfile)',
      daemon: 'nbd-server',
      address: A(2),
      port: PORT,
      proto: 'tcp',
      vigil: { id: /^vigil\.nbd\.export-list$/ },
      nmap: script('nbd-info', /disk/),
    },
  ],
  twins: [{ address: A(100), note: 'listing off and an authfile without the scanner (list and GO refused)' }],
  async start(ctx) {
    for (const [n, generic, authfile] of [
      [1, 'allowlist = true', false],
      [2, 'allowlist = true', true],
      [100, '', true],
    ] as const) {
      const dir = ctx.dir(`nbd-${n}`);
      const disk = join(dir, 'disk.img');
      writeFileSync(disk, '');
      truncateSync(disk, 8 << 20);
      const deny = ctx.write(join(dir, 'deny'), '192.0.2.10\n');
      const conf = ctx.write(
        join(dir, 'config'),
        `[generic]\n    listenaddr = ${A(n)}\n    port = ${PORT}\n    ${generic}\n` +
          `[disk]\n    exportname = ${disk}\n${authfile ? `    authfile = ${deny}\n` : ''}`,
      );
      // Daemonized, as in production: -d (no fork) serves one client and exits (3.24, measured). The
      // spawned parent exits once forked; the daemon carries the fleet's tag and is stopped by its pid file.
      const pid = join(dir, 'nbd.pid');
      ctx.spawn(`nbd-server-${n}`, 'nbd-server', ['-C', conf, '-p', pid]);
      ctx.onStop(() => {
        try {
          process.kill(Number(readFileSync(pid, 'utf8')), 'SIGTERM');
        } catch {}
      });
      // ctx.waitTcp wants the listener in the fleet's process groups, which a daemon that forked away leaves:
      // the listener is checked against the pid file instead.
      for (let i = 0; i < 150 && !(await canConnect(A(n), PORT)); i++) await sleep(100);
      const held = heldByOther('tcp', A(n), PORT, [Number(readFileSync(pid, 'utf8'))]);
      if (held) throw new Error(`${held}, not by this fleet's nbd-server`);
    }
  },
};
