/**
 * Printing: Debian CUPS (cupsd) on 631 with one shared raw queue, each in a
 * network namespace of its own relayed from its 127.14 address (cupsd
 * trusts 127/8 clients whatever its rules say, and takes only "localhost"
 * as their Host: inside, requests come from the namespace's TEST-NET
 * address, as from the network). A(1): `Allow all` on /, /admin and
 * /admin/conf and no login (remote administration and printer sharing, the
 * configuration file readable); the twin A(100): Debian's locations (local
 * clients only). test/helpers/voip-configs.ts, shared with the tests.
 */
import { cupsPlan } from '../../../test/helpers/voip-configs.ts';
import { addr, none, script, svc, type Daemon } from './kit.ts';
import { startNs } from './ns.ts';

const K = 66;
const A = (n: number) => addr(K, n);
const PORT = 631;

export const CUPS: Daemon = {
  kind: 'cups',
  binaries: ['cupsd'],
  ports: { tcp: [PORT], udp: [] },
  weaknesses: [
    {
      id: 'cups-remote-admin',
      family: 'auth',
      label: 'CUPS administration and cupsd.conf open without a login (Allow all on /admin)',
      daemon: 'cupsd',
      address: A(1),
      port: PORT,
      proto: 'tcp',
      vigil: { id: /^vigil\.cups\.remote-admin$/ },
      // cups-info and cups-queue-info read the queues; no script asks for /admin.
      nmap: none,
    },
    {
      id: 'ipp-printers-shared',
      family: 'ident',
      label: 'IPP queues listed to anyone (CUPS-Get-Printers)',
      daemon: 'cupsd',
      address: A(1),
      port: PORT,
      proto: 'tcp',
      vigil: { id: /^vigil\.ipp\.printers-shared$/ },
      nmap: script('cups-info', /lab-laser/),
    },
    {
      id: 'ipp-service',
      family: 'ident',
      label: 'IPP on 631 named (CUPS)',
      daemon: 'cupsd',
      address: A(1),
      port: PORT,
      proto: 'tcp',
      vigil: { service: /^ipp$/ },
      nmap: svc(/ipp|cups/i),
    },
  ],
  twins: [{ address: A(100), note: "cupsd: Debian's locations (local clients only)" }],
  async start(ctx) {
    for (const [n, open] of [
      [1, true],
      [100, false],
    ] as const) {
      const dir = ctx.dir(A(n));
      await startNs(ctx, `cupsd-${A(n)}`, dir, cupsPlan(dir, open), A(n), () => [
        { proto: 'tcp', port: PORT, socket: 'tcp-631' },
      ]);
    }
  },
};
