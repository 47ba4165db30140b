/**
 * NFS: Debian's NFS-Ganesha (userspace, FSAL VFS) with rpcbind, each pair
 * in a network, mount and PID namespace of its own relayed from its
 * 127.14.92.N address (one rpcbind owns /run/rpcbind.sock;
 * test/helpers/sharing-daemons.ts, shared with the tests). A(1): one
 * export read-only to everyone (no CLIENT block), mountd pinned on 20048.
 * The twin A(100): the export for 192.0.2.99 only (Ganesha leaves it out of
 * the export list it answers anyone else) and rpcbind behind TCP wrappers. The kernel's nfsd is the other
 * product of the family; this machine's kernel has none.
 */
import { ganeshaPlan, GANESHA_BINARIES, MOUNTD_PORT } from '../../../test/helpers/sharing-daemons.ts';
import { addr, any, script, svc, type Daemon } from './kit.ts';
import { startNs } from './ns.ts';

const K = 92;
const A = (n: number) => addr(K, n);
const RELAYS = [
  { proto: 'tcp' as const, port: 111, socket: 'tcp-111' },
  { proto: 'udp' as const, port: 111, socket: 'udp-111' },
  { proto: 'tcp' as const, port: MOUNTD_PORT, socket: 'tcp-mountd' },
  { proto: 'udp' as const, port: MOUNTD_PORT, socket: 'udp-mountd' },
  { proto: 'tcp' as const, port: 2049, socket: 'tcp-nfs' },
];

export const NFS_GANESHA: Daemon = {
  kind: 'nfs-ganesha',
  binaries: GANESHA_BINARIES,
  ports: { tcp: [111, 2049, MOUNTD_PORT], udp: [111] },
  weaknesses: [
    {
      id: 'nfs-export-open',
      family: 'auth',
      label: 'NFS export mountable by anyone (Ganesha export without a client list)',
      daemon: 'ganesha.nfsd',
      address: A(1),
      port: 111,
      proto: 'tcp',
      vigil: { id: /^vigil\.nfs\.exports-open$/ },
      nmap: any(script('nfs-ls', /payroll-2026\.csv/), script('nfs-showmount', /\/srv\/share(?![^\n]*192\.0\.2\.99)/)),
    },
    {
      id: 'ident-mountd',
      family: 'ident',
      label: 'mountd named on its port (by the portmapper list)',
      daemon: 'ganesha.nfsd',
      address: A(1),
      port: MOUNTD_PORT,
      proto: 'tcp',
      vigil: { service: /^mountd$/ },
      nmap: svc(/mountd/),
    },
  ],
  twins: [{ address: A(100), note: 'export for 192.0.2.99 only (not listed to others); rpcbind behind TCP wrappers' }],
  async start(ctx) {
    for (const [n, restricted] of [
      [1, false],
      [100, true],
    ] as const) {
      const dir = ctx.dir(`ns-${n}`);
      await startNs(ctx, `ganesha-${n}`, dir, ganeshaPlan(dir, restricted), A(n), () => RELAYS);
    }
  },
};
