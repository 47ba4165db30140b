/**
 * iSCSI: Debian tgt (tgtd in the foreground, one target set up with
 * tgtadm, an 8 MB file as its disk). Weak 2: every initiator may discover
 * and log in without credentials. Weak 3: CHAP on the target, but the
 * discovery session still lists it to anyone. Twin: CHAP and an
 * initiator-address ACL (SendTargets lists nothing to the scanner). The
 * brief gave this work K = 27–29 only: iSCSI shares K = 29 with inetd, at
 * N = 2, 3 and 102.
 */
import { truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tgtSetup } from '../../../test/helpers/legacy-daemons.ts';
import { addr, script, type Daemon } from './kit.ts';

const K = 29;
const A = (n: number) => addr(K, n);

export const ISCSI: Daemon = {
  kind: 'iscsi',
  binaries: ['tgtd', 'tgtadm'],
  ports: { tcp: [3260], udp: [] },
  weaknesses: [
    {
      id: 'iscsi-noauth',
      family: 'auth',
      label: 'iSCSI target logs in anyone without credentials (tgt, ACL ALL, no CHAP)',
      daemon: 'tgt',
      address: A(2),
      port: 3260,
      proto: 'tcp',
      vigil: { id: /^vigil\.iscsi\.noauth$/ },
      nmap: script('iscsi-info', /Authentication: NOT required/),
    },
    {
      id: 'iscsi-discovery',
      family: 'ident',
      label: 'iSCSI discovery lists the targets to anyone (CHAP on the target only)',
      daemon: 'tgt',
      address: A(3),
      port: 3260,
      proto: 'tcp',
      vigil: { id: /^vigil\.iscsi\.discovery$/ },
      nmap: script('iscsi-info', /iqn\./),
    },
  ],
  twins: [{ address: A(102), note: 'CHAP on the target and an initiator-address ACL (nothing listed, login refused)' }],
  async start(ctx) {
    for (const [n, opts] of [
      [2, {}],
      [3, { chap: true }],
      [102, { chap: true, acl: '192.0.2.10' }],
    ] as const) {
      const a = A(n);
      const disk = join(ctx.dir(`tgt-${n}`), 'disk.img');
      writeFileSync(disk, '');
      truncateSync(disk, 8 << 20);
      const ctl = 2900 + n;
      const child = ctx.spawn(`tgtd-${n}`, 'tgtd', ['-f', '-C', String(ctl), '--iscsi', `portal=${a}:3260`]);
      await ctx.waitTcp(a, 3260, child);
      for (const args of tgtSetup(ctl, disk, { iqn: `iqn.2026-11.bench.vigil:disk${n}`, ...opts }))
        ctx.run('tgtadm', args);
    }
  },
};
