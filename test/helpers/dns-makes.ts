/**
 * Authoritative DNS servers of other makes than BIND (NSD, Knot DNS,
 * dnsmasq), configured weak or hardened, shared by the DNS check tests and
 * the detection bench (bench/detection/fleet/dns-makes.ts) so that both
 * plant the same thing. Each serves a zone `zone` and the reverse zone of
 * its own address, whose PTR names ns1.<zone>: where a scanner learns the
 * zone's name, as it would of a real server.
 *
 * Hardened means: transfers only to 127.0.0.200 (a secondary that is not
 * the scanner's source address: loopback clients come from 127.0.0.1),
 * updates only with a TSIG key the scanner does not have, version hidden.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** A secondary that is not the scanner (loopback connections come from 127.0.0.1). */
export const PEER = '127.0.0.200';
/** A TSIG secret (hmac-sha256, 32 bytes): updates signed with it only, and the scanner never has it. */
const TSIG = 'dmlnaWwtYmVuY2gtdHNpZy1rZXktbm90LWEtc2VjcmV0IQ==';

export interface DnsPolicy {
  /** AXFR for anyone (the weakness) or for PEER only. */
  transfer: boolean;
  /** UPDATE from anyone (the weakness) or with the TSIG key only; not every make has it. */
  update?: boolean;
  /** version.bind answered with the product's version (every make's default). */
  version: boolean;
}

const reverseOf = (address: string) => {
  const b = address.split('.');
  return { zone: `${b[2]}.${b[1]}.${b[0]}.in-addr.arpa`, label: b[3]! };
};

/** Writes `<zone>.zone` and `rev.zone` into dir; the names of the two zones. */
export function writeZones(dir: string, address: string, zone: string): { zone: string; rev: string } {
  const soa = `@ 3600 IN SOA ns1.${zone}. hostmaster.${zone}. 2026112701 3600 600 86400 300\n@ IN NS ns1.${zone}.\n`;
  const r = reverseOf(address);
  writeFileSync(
    join(dir, `${zone}.zone`),
    `$ORIGIN ${zone}.\n${soa}ns1 IN A ${address}\nwww IN A ${address}\nintranet IN A 10.1.2.3\nvpn IN A 10.1.2.4\n`,
  );
  writeFileSync(join(dir, 'rev.zone'), `$ORIGIN ${r.zone}.\n${soa}${r.label} IN PTR ns1.${zone}.\n`);
  return { zone, rev: r.zone };
}

/** NSD 4 (`nsd -d -c FILE`): provide-xfr per zone, hide-version. */
export function nsdConf(address: string, port: number, dir: string, zone: string, p: DnsPolicy): string {
  const z = writeZones(dir, address, zone);
  const xfr = p.transfer ? ['0.0.0.0/0 NOKEY', '::0/0 NOKEY'] : [`${PEER} NOKEY`];
  return `server:
  ip-address: ${address}@${port}
  zonesdir: "${dir}"
  database: ""
  pidfile: "${dir}/nsd.pid"
  username: ""
  xfrdfile: "${dir}/xfrd.state"
  zonelistfile: "${dir}/zone.list"
  server-count: 1
  hide-version: ${p.version ? 'no' : 'yes'}
  hide-identity: ${p.version ? 'no' : 'yes'}
remote-control:
  control-enable: no
zone:
  name: ${z.zone}
  zonefile: ${z.zone}.zone
${xfr.map((x) => `  provide-xfr: ${x}`).join('\n')}
zone:
  name: ${z.rev}
  zonefile: rev.zone
`;
}

/** Knot DNS 3 (`knotd -c FILE`): ACLs by address (0.0.0.0/0 and ::/0 is anyone) and by TSIG key. */
export function knotConf(address: string, port: number, dir: string, zone: string, p: DnsPolicy): string {
  const z = writeZones(dir, address, zone);
  const anyone = 'address: [0.0.0.0/0, ::/0]';
  return `server:
  rundir: "${dir}"
  listen: ${address}@${port}
${p.version ? '' : '  version: ""\n  identity: ""\n'}database:
  storage: "${dir}"
log:
  - target: stderr
    any: info
key:
  - id: updater
    algorithm: hmac-sha256
    secret: ${TSIG}
acl:
  - id: transfer
    ${p.transfer ? anyone : `address: ${PEER}`}
    action: transfer
  - id: update
    ${p.update ? anyone : 'key: updater'}
    action: update
template:
  - id: default
    storage: "${dir}"
    zonefile-sync: -1
    journal-content: changes
zone:
  - domain: ${z.zone}
    file: ${z.zone}.zone
    acl: [transfer, update]
  - domain: ${z.rev}
    file: rev.zone
`;
}

/**
 * dnsmasq (`dnsmasq -k -C FILE`) as an authoritative server (auth-zone).
 * With auth-sec-servers and no auth-peer, dnsmasq accepts AXFR from anyone
 * (dnsmasq(8), --auth-peer); the twin names its peer. `no-ident` hides
 * version.bind (answered "dnsmasq-2.90" by default). No upstream: nothing
 * is ever forwarded.
 */
export function dnsmasqConf(
  address: string,
  port: number,
  dir: string,
  zone: string,
  p: DnsPolicy,
  extra: readonly string[] = [],
): string {
  const b = address.split('.');
  return [
    `listen-address=${address}`,
    'bind-interfaces',
    `port=${port}`,
    'no-resolv',
    'no-hosts',
    `auth-server=ns1.${zone},${address}`,
    `auth-zone=${zone},${b[0]}.${b[1]}.${b[2]}.0/24`,
    `auth-sec-servers=ns2.${zone}`,
    ...(p.transfer ? [] : [`auth-peer=${PEER}`]),
    ...(p.version ? [] : ['no-ident']),
    `host-record=ns1.${zone},${address}`,
    `host-record=intranet.${zone},10.1.2.3`,
    `host-record=vpn.${zone},10.1.2.4`,
    `pid-file=${dir}/dnsmasq.pid`,
    'user=root',
    ...extra,
    '',
  ].join('\n');
}

/**
 * dnsmasq as the resolver of a small network (`dnsmasq -k -C FILE`): it forwards every question to
 * `upstream` (address#port: in tests an NSD authoritative for example.com on loopback, so nothing leaves
 * it) for any client, having no client ACL, and caches the answers.
 */
export const dnsmasqForwarderConf = (address: string, port: number, dir: string, upstream: string) =>
  [
    `listen-address=${address}`,
    'bind-interfaces',
    `port=${port}`,
    'no-resolv',
    'no-hosts',
    `server=${upstream}`,
    `pid-file=${dir}/dnsmasq.pid`,
    'user=root',
    '',
  ].join('\n');

/**
 * dnsmasq's TFTP server (a PXE boot server's), serving tftp-root `dir`/tftp on UDP 69 of its listen
 * address, with a pxelinux.cfg/default that carries an installer's secrets. Run as root, dnsmasq serves
 * only world-readable files (dnsmasq(8), --tftp-secure): `readable` false is the twin, whose file is 0600.
 * The lines to add to dnsmasqConf.
 */
export function dnsmasqTftp(dir: string, readable: boolean): string[] {
  const root = join(dir, 'tftp');
  mkdirSync(join(root, 'pxelinux.cfg'), { recursive: true });
  writeFileSync(
    join(root, 'pxelinux.cfg', 'default'),
    'default install\nlabel install\n kernel vmlinuz\n append initrd=initrd.gz url=http://10.1.2.3/preseed.cfg passwd/root-password=planted\n',
    { mode: readable ? 0o644 : 0o600 },
  );
  return ['enable-tftp', `tftp-root=${root}`];
}
