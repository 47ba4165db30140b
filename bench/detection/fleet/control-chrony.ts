/**
 * Debian chrony's command port (cmdmon, UDP 323), K = 83, N = 1 and 101,
 * with no time source, no NTP port and the clock left alone (-x). Weak:
 * `cmdallow all`. Twin: chrony's default, which admits 127.0.0.1 and ::1
 * only. chronyd tells localhost by the source 127.0.0.1, so both
 * addresses go on lo: the scanner's packets then come from the address
 * itself, not from 127.0.0.1, as a remote client's would.
 */
import { existsSync } from 'node:fs';
import { chronyArgs, chronyConf, chronySocket } from '../../../test/helpers/control-daemons.ts';
import { trackingRequest } from '../../../src/audit/proto/chrony.ts';
import { addr, sleep, type Daemon } from './kit.ts';

const K = 83;
const A = (n: number) => addr(K, n);

export const CHRONY: Daemon = {
  kind: 'chrony',
  binaries: ['chronyd'],
  onLo: [A(1), A(101)],
  ports: { tcp: [], udp: [323] },
  weaknesses: [
    {
      id: 'chrony-cmdallow-all',
      family: 'udp',
      label: 'chrony command port answering monitoring requests from the network (cmdallow all)',
      daemon: 'chronyd',
      address: A(1),
      port: 323,
      proto: 'udp',
      vigil: { id: /^vigil\.chrony\.cmdmon-open$/ },
      nmap: () => null,
    },
  ],
  twins: [{ address: A(101), note: "chrony's default (cmdallow none: 127.0.0.1 and ::1 only)" }],
  async start(ctx) {
    for (const [n, open] of [
      [1, true],
      [101, false],
    ] as const) {
      const dir = ctx.dir(`chrony-${n}`);
      const child = ctx.spawn(`chronyd-${A(n)}`, 'chronyd', chronyArgs(chronyConf(dir, A(n), 323, open)));
      if (open) await ctx.waitUdp(A(n), 323, trackingRequest(1), child);
      else {
        // The twin answers nobody but localhost: its Unix command socket says it is up.
        for (let i = 0; i < 150 && !existsSync(chronySocket(dir)); i++) {
          if (child.exitCode !== null) throw new Error(`chronyd on ${A(n)} exited (${child.exitCode})`);
          await sleep(100);
        }
        if (!existsSync(chronySocket(dir))) throw new Error(`chronyd on ${A(n)}: no command socket after 15 s`);
      }
    }
  },
};
