import type { HostFacts, Net } from '../../engine/types.ts';
import {
  askMountd,
  type Export,
  findMountd,
  MOUNT_STATUS,
  MOUNTD_PORT,
  type Mountd,
  type MountdAnswers,
} from '../../proto/nfs-mount.ts';
import { shown } from '../../proto/talk.ts';
import { defineCheck } from '../kit.ts';

const PORTMAPPERS = new Set(['rpcbind', 'sunrpc']);

/** Ports of the host that may be its portmapper (named so by detection, or 111 open). */
const portmappers = (host: HostFacts, except: number) =>
  host.services.filter((s) => s.port !== except && (PORTMAPPERS.has(s.name) || s.port === 111)).map((s) => s.port);

const groupsOf = (e: Export) => (e.groups.length ? e.groups.join(', ') : 'no host list: everyone');
/** Exported to everyone as the list says it: no host list, or a wildcard (`*`, Ganesha's `*`, `0.0.0.0/0`). */
const everyone = (e: Export) =>
  !e.groups.length || e.groups.some((g) => /^(\*|0\.0\.0\.0\/0|::\/0|everyone)$/i.test(g));
const statusName = (n: number) => MOUNT_STATUS[n] ?? `status ${n}`;

/**
 * The finding from what mountd answered: a mount is the proof (HOLE); a
 * list saying "everyone" while every mount was refused is a LOG (a client
 * the server trusts more, e.g. from a privileged port, may still mount);
 * exports restricted to other hosts, with the mounts refused, are nothing.
 */
function verdict(where: string, a: MountdAnswers) {
  if (!a.exports) return null;
  const listed = a.exports.slice(0, 6).map((e) => `${e.dir} (${groupsOf(e)})`);
  const list = `EXPORT (procedure 5) answered ${a.exports.length} export${a.exports.length === 1 ? '' : 's'}: ${shown(listed.join('; '), 300)}`;
  const from = a.privileged ? 'from a privileged source port' : 'from an unprivileged source port';
  const ok = a.mounts.filter((m) => m.status === 0 && m.handle);
  if (ok.length) {
    const mounted = ok.map(
      (m) => `${m.dir} (a ${m.handle!.length}-byte root file handle, ${m.handle!.toString('hex').slice(0, 16)}...)`,
    );
    return `${where}: ${list}. MNT (procedure 1) ${from} answered MNT3_OK for ${shown(mounted.join('; '), 300)}: anyone who reaches the server mounts it and reads the files, as any uid it claims (AUTH_SYS). UMNT (procedure 3) took the mount off the server's list again.`;
  }
  const open = a.exports.filter(everyone);
  if (!open.length) return null;
  const refused = a.mounts.map((m) => `${m.dir}: ${statusName(m.status)}`).join('; ');
  return {
    detail: `${where}: ${list}; the list names no host for ${open.map((e) => e.dir).join(', ')}, but MNT ${from} was not granted${refused ? ` (${refused})` : ''}.`,
    type: 'LOG' as const,
    risk: 'other' as const,
  };
}

/** mountd on `port` itself (v3, else v1), when it is one: its EXPORT answered. */
async function direct(net: Net, port: number): Promise<MountdAnswers | null> {
  const v3 = await askMountd(net, { port, vers: 3 });
  if (v3?.exportStatus === 'prog-mismatch') return askMountd(net, { port, vers: 1 });
  return v3?.exportStatus === 'success' ? v3 : null;
}

/**
 * NFS exports anyone may mount (Greenbone's "NFS export world readable",
 * nmap's nfs-showmount and nfs-ls): mountd, found through the portmapper
 * (or on a port detection named mountd when no portmapper points at it),
 * lists its exports, and MNT of an export returns its root file handle.
 * That handle is all an NFS client needs to read the tree; MNT changes
 * no file, and UMNT takes the mount off the server's list after. A list
 * restricted to other hosts with the mount refused (MNT3ERR_ACCES) is not
 * reported; the export list alone is at most a LOG.
 */
export default defineCheck({
  id: 'vigil.nfs.exports-open',
  shortid: 'NFS-OPEN',
  title: 'NFS export mountable by anyone',
  family: 'General',
  categories: ['safe', 'discovery', 'default', 'auth'],
  risk: 'medium',
  type: 'HOLE',
  description:
    "The NFS server's mountd hands the root file handle of an export to this scanner: with it any NFS client on the network reads the exported files (and writes them on a read-write export), checked only against the user id the client claims for itself (AUTH_SYS), so file permissions do not stop an attacker who picks the owner's uid.",
  solution:
    'Export only to the hosts that need the share (exports(5): a host or network instead of `*`, then exportfs -ra; NFS-Ganesha: `Access_Type = None` on the EXPORT and a CLIENT block listing the clients), keep root_squash, prefer sec=krb5p, and firewall the portmapper (111), mountd and NFS (2049) from untrusted networks.',
  references: [
    'https://www.rfc-editor.org/rfc/rfc1813#appendix-I',
    'https://manpages.debian.org/exports.5',
    'https://nmap.org/nsedoc/scripts/nfs-showmount.html',
  ],
  ports: { services: ['rpcbind', 'sunrpc', 'mountd'], ports: [111, MOUNTD_PORT] },
  run: async ({ net, port, host }) => {
    // A portmapper: mountd is where it says.
    const found: Mountd | null = await findMountd(net, port);
    if (found) {
      const a = await askMountd(net, found);
      const where = `mountd (program 100005 v${found.vers}, tcp/${found.port}, found through the portmapper on ${port})`;
      return a ? verdict(where, a) : null;
    }
    // Else mountd itself, asked only when no portmapper of the host points at it (that run reports it): asked
    // first, before any MNT of ours reaches the server's mount list twice.
    for (const pm of portmappers(host, port)) if ((await findMountd(net, pm))?.port === port) return null;
    const a = await direct(net, port);
    return a ? verdict(`mountd (program 100005, tcp/${port}, asked directly)`, a) : null;
  },
});
