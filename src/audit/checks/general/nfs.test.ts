/**
 * NFS on Debian's NFS-Ganesha (userspace NFSv3/v4 with FSAL VFS; the
 * kernel's nfsd is the other product, and this machine's kernel has none:
 * no nfsd in /proc/filesystems), with rpcbind, each instance in a
 * namespace of its own relayed from its 127.14.92.x address
 * (test/helpers/sharing-daemons.ts), started once for the file: an export
 * to everyone, which is mounted (MNT3_OK) and unmounted again; and the
 * hardened twin, the export restricted to another client (Ganesha leaves
 * it out of the EXPORT list it answers us) and rpcbind behind TCP
 * wrappers, on which nothing is reported, asked through the portmapper or on mountd itself. Root
 * only (namespaces, privileged source ports).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { which } from '../../../../test/helpers/daemons-kit.ts';
import { nsDaemon, type Relay } from '../../../../test/helpers/ns-daemons.ts';
import { GANESHA_BINARIES, ganeshaPlan, MOUNTD_PORT } from '../../../../test/helpers/sharing-daemons.ts';
import { hostOf, netFor, service } from '../../../../test/helpers/web-daemons.ts';
import { nameRpcPorts } from '../../engine/detect/rpc-names.ts';
import { askMountd } from '../../proto/nfs-mount.ts';
import { checkById } from '../catalogue.ts';

const [OPEN, HARD] = ['127.14.92.201', '127.14.92.202'];
const READY = process.getuid?.() === 0 && GANESHA_BINARIES.every((b) => which(b));
const skip = READY
  ? false
  : `needs root and ${GANESHA_BINARIES.join(', ')} (Debian nfs-ganesha nfs-ganesha-vfs rpcbind socat)`;

const relays = (addr: string): Relay[] => [
  { proto: 'tcp', addr, port: 111, socket: 'tcp-111' },
  { proto: 'udp', addr, port: 111, socket: 'udp-111' },
  { proto: 'tcp', addr, port: MOUNTD_PORT, socket: 'tcp-mountd' },
  { proto: 'tcp', addr, port: 2049, socket: 'tcp-nfs' },
];
let started: Promise<unknown> | null = null;
const both = () =>
  (started ??= Promise.all([
    nsDaemon('ganesha-open', (dir) => ganeshaPlan(dir, false), relays(OPEN)),
    nsDaemon('ganesha-hard', (dir) => ganeshaPlan(dir, true), relays(HARD)),
  ]));
const hostAt = (addr: string) =>
  hostOf(addr, [service(111, 'rpcbind'), service(MOUNTD_PORT, 'mountd'), service(2049, 'nfs')]);
const run = (addr: string) => checkById('vigil.nfs.exports-open').runOn(hostAt(addr), netFor(addr));

test('an export to everyone is mounted through the portmapper (MNT3_OK), then unmounted', { skip }, async () => {
  await both();
  const found = await run(OPEN);
  // Reported once, on the portmapper's port: the run on mountd itself sees the portmapper point at it.
  assert.equal(found.length, 1);
  assert.equal(found[0]!.port, 111);
  assert.equal(found[0]!.type, undefined); // the check's own: HOLE
  assert.match(
    found[0]!.detail,
    new RegExp(
      `^mountd \\(program 100005 v3, tcp/${MOUNTD_PORT}, found through the portmapper on 111\\): EXPORT \\(procedure 5\\) answered 1 export: /srv/share \\([^)]*\\)\\. MNT \\(procedure 1\\) from a privileged source port answered MNT3_OK for /srv/share \\(a \\d+-byte root file handle, [0-9a-f]{16}\\.\\.\\.\\): anyone who reaches the server mounts it`,
    ),
  );
  assert.match(found[0]!.detail, /UMNT \(procedure 3\) took the mount off the server's list again\.$/);
});

test('the twin: export for another client only and rpcbind wrapped; nothing reported', { skip }, async () => {
  await both();
  assert.deepEqual(await run(HARD), []);
  // Hardened, not dead: mountd answers EXPORT, and Ganesha leaves out of it the export this client may
  // not mount (it is for NFS_OTHER_CLIENT only), so there is nothing to mount.
  const a = await askMountd(netFor(HARD), { port: MOUNTD_PORT, vers: 3 });
  assert.equal(a?.exportStatus, 'success');
  assert.deepEqual(a?.exports, []);
});

test("detection names mountd and nfs by the portmapper's list; a wrapped portmapper names nothing", {
  skip,
}, async () => {
  await both();
  const ports = () => [
    service(111, 'rpcbind', { extra: { rpc: 'NULL call answered (success)' } }),
    service(MOUNTD_PORT, 'unknown'),
    service(2049, 'rpcbind'), // nmap's RPCCheck probe names any RPC port so
  ];
  const open = ports();
  await nameRpcPorts(netFor(OPEN), open);
  assert.deepEqual(
    open.map((s) => s.name),
    ['rpcbind', 'mountd', 'nfs'],
  );
  assert.match(open[1]!.extra.rpc!, /^program 100005 v1,3 on tcp\/20048, as the portmapper on 111 lists it$/);
  const hard = ports();
  await nameRpcPorts(netFor(HARD), hard);
  assert.deepEqual(
    hard.map((s) => s.name),
    ['rpcbind', 'unknown', 'rpcbind'],
  );
});
