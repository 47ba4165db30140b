/**
 * File, media and device sharing daemons as Debian ships them, configured
 * for the tests (src/audit/checks/general/{nfs,sane,mpd,jetdirect}.test.ts)
 * and the detection bench (bench/detection/fleet/{nfs,sane,mpd,p910nd}.ts)
 * alike: NFS-Ganesha (nfs-ganesha, nfs-ganesha-vfs) with rpcbind, saned
 * (sane-utils) with sane-backends' `test` device, mpd with a null output,
 * and p910nd writing to a file.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MOUNTD_PORT } from '../../src/audit/proto/nfs-mount.ts';
import { MPD_PORT } from '../../src/audit/proto/mpd.ts';
import { SANE_PORT } from '../../src/audit/proto/sane.ts';
import { NS_ADDR, type NsPlan } from './legacy-daemons.ts';
import { cupsdConf, cupsFilesConf, cupsPrintersConf } from './voip-configs.ts';

export { MOUNTD_PORT, MPD_PORT, SANE_PORT };

// ---- NFS (NFS-Ganesha, userspace) -------------------------------------------------------------------

export const GANESHA_BINARIES = ['ganesha.nfsd', 'rpcbind', 'socat', 'unshare'];
/** The exported directory, on a tmpfs of the namespace. */
export const NFS_SHARE = '/srv/share';
/** The client the restricted export admits: TEST-NET-1, nobody here (RFC 5737). */
export const NFS_OTHER_CLIENT = '192.0.2.99';

/**
 * ganesha.conf: one NFSv3/v4 export of `share` (FSAL VFS), read-only, to
 * everyone (no CLIENT block, Access_Type RO), or restricted: Access_Type
 * None for everyone and a CLIENT block for NFS_OTHER_CLIENT only, so EXPORT
 * lists that client and MNT from anyone else is MNT3ERR_ACCES. NLM off, no
 * cluster; NFSv4 recovery under `dir`.
 */
export function ganeshaConf(dir: string, share: string, restricted: boolean): string {
  // MNT_Port pinned: the host's relay and the portmapper's answer must agree.
  return `NFS_CORE_PARAM {
  Protocols = 3, 4;
  NFS_Port = 2049;
  MNT_Port = ${MOUNTD_PORT};
  Enable_NLM = false;
  Clustered = false;
}
NFSV4 {
  Graceless = true;
  RecoveryRoot = "${join(dir, 'recovery')}";
}
EXPORT {
  Export_Id = 1;
  Path = "${share}";
  Pseudo = "${share}";
  Protocols = 3, 4;
  Transports = TCP, UDP;
  SecType = sys;
  Squash = root_squash;
  Access_Type = ${restricted ? 'None' : 'RO'};
  FSAL { Name = VFS; }
${restricted ? `  CLIENT {\n    Clients = ${NFS_OTHER_CLIENT};\n    Access_Type = RO;\n  }\n` : ''}}
LOG {
  Default_Log_Level = WARN;
}
`;
}

/**
 * rpcbind and ganesha.nfsd in a namespace of their own (one rpcbind owns
 * /run/rpcbind.sock, legacy-daemons.ts), the export on a tmpfs of that
 * namespace holding one file. Offered: tcp-111, udp-111, tcp-mountd,
 * udp-mountd, tcp-nfs; the relays reach them on NS_ADDR, so Ganesha sees a
 * client from the network. Restricted: the export as ganeshaConf says, and
 * rpcbind behind TCP wrappers ("rpcbind: ALL"), since an open portmapper's
 * list is a finding of its own (vigil.rpcbind.dump).
 */
export function ganeshaPlan(dir: string, restricted: boolean): NsPlan {
  for (const d of ['recovery', 'run']) mkdirSync(join(dir, d), { recursive: true });
  writeFileSync(join(dir, 'ganesha.conf'), ganeshaConf(dir, NFS_SHARE, restricted));
  return {
    setup: [
      // A tmpfs of the namespace over /srv (the host's is untouched): VFS needs file handles
      // (name_to_handle_at), which tmpfs gives, and the export's path reads as on a server.
      'mount -t tmpfs -o mode=0755 none /srv',
      `mkdir ${NFS_SHARE}`,
      `echo 'quarterly figures' > ${NFS_SHARE}/payroll-2026.csv`,
      'rpcbind -f &',
      "for i in $(seq 100); do ss -Hlnt | grep -q ':111 ' && break; sleep 0.1; done",
      `ganesha.nfsd -F -f ${join(dir, 'ganesha.conf')} -L /dev/stderr -p ${join(dir, 'run', 'ganesha.pid')} -N NIV_WARN &`,
    ],
    relays: {
      'tcp-111': `TCP:${NS_ADDR}:111`,
      'udp-111': `UDP:${NS_ADDR}:111`,
      'tcp-mountd': `TCP:${NS_ADDR}:${MOUNTD_PORT}`,
      'udp-mountd': `UDP:${NS_ADDR}:${MOUNTD_PORT}`,
      'tcp-nfs': `TCP:${NS_ADDR}:2049`,
    },
    // Up once mountd and NFS listen (rpcinfo would be refused by the restricted portmapper's wrappers).
    ready: `ss -Hlnt | grep -q ':${MOUNTD_PORT} ' && ss -Hlnt | grep -q ':2049 '`,
    ...(restricted ? { files: { '/etc/hosts.allow': '', '/etc/hosts.deny': 'rpcbind: ALL\n' } } : {}),
  };
}

// ---- SANE (saned) -----------------------------------------------------------------------------------

export const SANED_BINARIES = ['saned', 'socat', 'unshare'];

/**
 * saned in a namespace of its own: it admits every 127/8 client whatever
 * saned.conf says (check_host: IN_LOOPBACK), so the relay reaches it on
 * NS_ADDR, as a client from the network. Its configuration directory
 * (SANE_CONFIG_DIR, no trailing colon: Debian's /etc/sane.d is not read)
 * enables only sane-backends' `test` backend, whose virtual devices need
 * no hardware. Open: saned.conf `+` (any host); restricted: only
 * 192.0.2.99, so SANE_NET_INIT is answered ACCESS_DENIED. Offered: tcp-6566.
 */
export function sanedPlan(dir: string, open: boolean): NsPlan {
  const conf = join(dir, 'sane.d');
  mkdirSync(conf, { recursive: true });
  writeFileSync(join(conf, 'dll.conf'), 'test\n');
  writeFileSync(join(conf, 'test.conf'), 'number_of_devices 1\n');
  writeFileSync(join(conf, 'saned.conf'), open ? '+\n' : '192.0.2.99\n');
  return {
    setup: [`SANE_CONFIG_DIR=${conf} saned -l -e -d 1 -b ${NS_ADDR} -p ${SANE_PORT} &`],
    relays: { 'tcp-6566': `TCP:${NS_ADDR}:${SANE_PORT}` },
    ready: `ss -Hlnt | grep -q '${NS_ADDR}:${SANE_PORT} '`,
  };
}

// ---- MPD ----------------------------------------------------------------------------------------------

/**
 * mpd.conf: bound to `address`:`port`, a music directory and database
 * under `dir`, one `null` audio output (no sound device), no zeroconf.
 * `password`: one password for every permission, and no default
 * permissions, so a client that has not sent it is answered
 * "ACK [4@0] {status} you don't have permission".
 */
export function mpdConf(dir: string, address: string, port: number, password?: string): string {
  mkdirSync(join(dir, 'music'), { recursive: true });
  mkdirSync(join(dir, 'playlists'), { recursive: true });
  return [
    `music_directory "${join(dir, 'music')}"`,
    `playlist_directory "${join(dir, 'playlists')}"`,
    `db_file "${join(dir, 'database')}"`,
    `state_file "${join(dir, 'state')}"`,
    `bind_to_address "${address}"`,
    `port "${port}"`,
    'zeroconf_enabled "no"',
    ...(password ? [`password "${password}@read,add,control,admin"`, 'default_permissions ""'] : []),
    'audio_output {',
    '  type "null"',
    '  name "bench null output"',
    '}',
    '',
  ].join('\n');
}

// ---- CUPS on a loopback address, no namespace ---------------------------------------------------------

/**
 * cupsd on `address`:`port` of the host itself (voip-configs.ts's files:
 * one shared raw queue), its Unix socket in `dir`. `open`: Allow all and no
 * login on /, /admin and /admin/conf; `remote-admin`: what
 * `cupsctl --remote-admin --remote-any` leaves, Allow all on / and /admin
 * but a login for /admin/conf; `local`: Debian's locations. To a scanner on
 * the same host it answers the address as Host with 400 and lets a
 * `Host: localhost` request through whatever its rules say: what a cupsd
 * planted on a 127.x address looks like (src/audit/proto/cups.ts).
 */
export function cupsdLoopbackArgs(
  dir: string,
  address: string,
  port: number,
  mode: 'open' | 'remote-admin' | 'local',
): string[] {
  for (const d of ['spool', 'cache', 'state', 'tmp', 'ppd']) mkdirSync(join(dir, d), { recursive: true });
  writeFileSync(join(dir, 'printers.conf'), cupsPrintersConf());
  writeFileSync(join(dir, 'cups-files.conf'), cupsFilesConf(dir));
  let conf = cupsdConf([`${address}:${port}`, join(dir, 'cups.sock')], mode !== 'local');
  if (mode === 'remote-admin')
    conf = conf.replace(
      '<Location /admin/conf>\n',
      '<Location /admin/conf>\n  AuthType Default\n  Require user @SYSTEM\n',
    );
  writeFileSync(join(dir, 'cupsd.conf'), conf);
  return ['-f', '-c', join(dir, 'cupsd.conf'), '-s', join(dir, 'cups-files.conf')];
}

// ---- Raw printing (p910nd) ----------------------------------------------------------------------------

export const RAW_PRINT_PORT = 9100;

/**
 * p910nd in the foreground (-d) on `address`:9100, passing what a client
 * sends to `device` (a file: the printer), in a private mount namespace
 * with a tmpfs /run/lock (p910nd takes a lock file per port number there,
 * and a second instance would wait on the first's). `wrapped`: TCP
 * wrappers refuse every client ("p910nd: ALL" in a hosts.deny planted over
 * the host's for this process alone), so p910nd accepts and closes at
 * once (USE_LIBWRAP builds, as Debian's is).
 */
export function p910ndCommand(dir: string, address: string, device: string, wrapped: boolean, appendTo?: string) {
  // p910nd opens the device O_WRONLY for each job, from its start: a file keeps the last job only. With
  // `appendTo`, the device is a FIFO whose reader appends every job there.
  if (!appendTo) writeFileSync(device, '');
  // The lock file's directory: /var/lock/subsys upstream, /var/lock/p910nd in some distributions' builds.
  const script = ['set -e', 'mount -t tmpfs -o mode=1777 none /run/lock', 'mkdir -p /run/lock/subsys /run/lock/p910nd'];
  if (wrapped) {
    writeFileSync(join(dir, 'hosts.allow'), '');
    writeFileSync(join(dir, 'hosts.deny'), 'p910nd: ALL\n');
    script.push(
      `mount --bind ${join(dir, 'hosts.allow')} /etc/hosts.allow`,
      `mount --bind ${join(dir, 'hosts.deny')} /etc/hosts.deny`,
    );
  }
  if (appendTo) script.push(`mkfifo ${device}`, `(while :; do cat ${device} >> ${appendTo}; done) &`);
  script.push(`exec p910nd -d -f ${device} -i ${address} 0`);
  return { cmd: 'unshare', args: ['-m', '--propagation', 'private', 'sh', '-c', script.join('\n')] };
}
