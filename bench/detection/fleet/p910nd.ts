/**
 * Raw printing: Debian's p910nd on 127.14.94.N:9100, writing what a client
 * sends to a FIFO whose reader appends every job to a file (the "printer"),
 * each in a private mount namespace
 * (test/helpers/sharing-daemons.ts). A(1): open to anyone; the twin
 * A(100): TCP wrappers refuse every client ("p910nd: ALL"), so each
 * connection is closed at once. What reached the printers is noted after
 * the run: detection's PJL status query, nothing from the checks.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { p910ndCommand, RAW_PRINT_PORT } from '../../../test/helpers/sharing-daemons.ts';
import { addr, none, svc, type Daemon } from './kit.ts';

const K = 94;
const A = (n: number) => addr(K, n);

export const P910ND: Daemon = {
  kind: 'p910nd',
  binaries: ['p910nd', 'unshare'],
  ports: { tcp: [RAW_PRINT_PORT], udp: [] },
  weaknesses: [
    {
      id: 'raw-print-open',
      family: 'auth',
      label: 'raw printing port (JetDirect/AppSocket) takes jobs from anyone (p910nd)',
      daemon: 'p910nd',
      address: A(1),
      port: RAW_PRINT_PORT,
      proto: 'tcp',
      vigil: { id: /^vigil\.jetdirect\.open$/ },
      // nmap leaves 9100-9107 out of -sV and runs no script there by default.
      nmap: none,
    },
    {
      id: 'ident-jetdirect',
      family: 'ident',
      label: 'raw printing port named jetdirect',
      daemon: 'p910nd',
      address: A(1),
      port: RAW_PRINT_PORT,
      proto: 'tcp',
      vigil: { service: /^jetdirect$/ },
      nmap: svc(/jetdirect/),
    },
  ],
  twins: [{ address: A(100), note: 'TCP wrappers refuse every client (p910nd: ALL in hosts.deny)' }],
  async start(ctx) {
    for (const [n, wrapped] of [
      [1, false],
      [100, true],
    ] as const) {
      const dir = ctx.dir(A(n));
      const printer = join(dir, 'printed');
      const { cmd, args } = p910ndCommand(dir, A(n), join(dir, 'printer'), wrapped, printer);
      const child = ctx.spawn(`p910nd-${A(n)}`, cmd, args);
      await ctx.waitTcp(A(n), RAW_PRINT_PORT, child);
      ctx.onStop(() => {
        const got = existsSync(printer) ? readFileSync(printer) : Buffer.alloc(0);
        const text = JSON.stringify(got.toString('latin1').slice(0, 120));
        console.error(`p910nd ${A(n)}: ${got.length} bytes reached the printer: ${text}`);
      });
    }
  },
};
