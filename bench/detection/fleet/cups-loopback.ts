/**
 * CUPS planted directly on a loopback address, no namespace (unlike
 * cups.ts): Debian's cupsd on 127.14.95.N:631, as a scanner on the same
 * host meets it. cupsd answers the address as Host with 400 and lets a
 * `Host: localhost` client through whatever its rules say, so Vigil's
 * checks ask again with localhost and judge the configuration it states
 * (src/audit/proto/cups.ts). A(1): Allow all, no login on /, /admin and
 * /admin/conf (cupsd.conf served); A(2): what `cupsctl --remote-admin
 * --remote-any` leaves, a login for /admin/conf (the Administration page
 * states the settings); both with one shared queue. The twin A(100):
 * Debian's locations and the same shared queue.
 */
import { cupsdLoopbackArgs } from '../../../test/helpers/sharing-daemons.ts';
import { addr, none, type Daemon, type Weakness } from './kit.ts';

const K = 95;
const A = (n: number) => addr(K, n);
const PORT = 631;

const weak = (n: number, how: string): Weakness[] => [
  {
    id: `cups-loopback-remote-admin-${n}`,
    family: 'auth',
    label: `CUPS on a loopback address: administration open to the network (${how})`,
    daemon: 'cupsd',
    address: A(n),
    port: PORT,
    proto: 'tcp',
    vigil: { id: /^vigil\.cups\.remote-admin$/ },
    // nmap's cups-info and http scripts send the address as Host: cupsd answers 400.
    nmap: none,
  },
  {
    id: `cups-loopback-shared-${n}`,
    family: 'ident',
    label: `CUPS on a loopback address: shared queue (${how})`,
    daemon: 'cupsd',
    address: A(n),
    port: PORT,
    proto: 'tcp',
    vigil: { id: /^vigil\.ipp\.printers-shared$/ },
    nmap: none,
  },
];

export const CUPS_LOOPBACK: Daemon = {
  kind: 'cups-loopback',
  binaries: ['cupsd'],
  ports: { tcp: [PORT], udp: [] },
  weaknesses: [...weak(1, 'Allow all, cupsd.conf served'), ...weak(2, 'cupsctl --remote-admin --remote-any')],
  twins: [{ address: A(100), note: "Debian's locations (a login for /admin/conf), the same shared queue" }],
  async start(ctx) {
    for (const [n, mode] of [
      [1, 'open'],
      [2, 'remote-admin'],
      [100, 'local'],
    ] as const) {
      const dir = ctx.dir(A(n));
      const child = ctx.spawn(`cupsd-${A(n)}`, 'cupsd', cupsdLoopbackArgs(dir, A(n), PORT, mode));
      await ctx.waitTcp(A(n), PORT, child);
    }
  },
};
