/**
 * Name servers of other makes than BIND (issue 27: zone transfers and
 * dynamic updates on every make, not one product), each serving a zone and
 * the reverse zone of its address, whose PTR names the zone (where a
 * scanner learns it). The configurations are the tests' own
 * (test/helpers/dns-makes.ts).
 *
 * NSD 4.6: provide-xfr 0.0.0.0/0 and ::0/0 NOKEY; version.bind answered
 * (hide-version no, NSD's default). Knot DNS 3.2: transfer and update ACLs
 * for 0.0.0.0/0 and ::/0; version answered (Knot's default). dnsmasq 2.90
 * authoritative (auth-zone) with auth-sec-servers and no auth-peer, which
 * accepts AXFR from anyone (dnsmasq(8)); version.bind answered (the default
 * without no-ident); its TFTP server (PXE) serving a world-readable
 * pxelinux.cfg/default; a second dnsmasq that forwards for anyone (open
 * recursion, its upstream an NSD on loopback). Twins: the same servers with transfers to 127.0.0.200
 * only (a secondary that is not the scanner's source), updates with a TSIG
 * key only, version hidden.
 */
import { join } from 'node:path';
import {
  type DnsPolicy,
  dnsmasqConf,
  dnsmasqForwarderConf,
  dnsmasqTftp,
  knotConf,
  nsdConf,
} from '../../../test/helpers/dns-makes.ts';
import { addr, script, type Ctx, type Daemon, type Weakness } from './kit.ts';

const K = 38;
const A = (n: number) => addr(K, n);
/** The dnsmasq forwarder's upstream, not a target. */
const UPSTREAM = A(50);
const WEAK: DnsPolicy = { transfer: true, update: true, version: true };
const HARD: DnsPolicy = { transfer: false, update: false, version: false };

type Conf = (address: string, port: number, dir: string, zone: string, p: DnsPolicy, extra: string[]) => string;

/** The make's weak server on A(n) and its twin on A(twin). */
async function pair(
  ctx: Ctx,
  make: string,
  conf: Conf,
  cmd: string,
  args: (file: string) => string[],
  n: number,
  twin: number,
  extra: (dir: string, weak: boolean) => string[] = () => [],
) {
  for (const [address, policy] of [
    [A(n), WEAK],
    [A(twin), HARD],
  ] as const) {
    const dir = ctx.dir(address);
    const more = extra(dir, policy === WEAK);
    const file = ctx.write(join(dir, `${make}.conf`), conf(address, 53, dir, `shop-${make}.example`, policy, more));
    const child = ctx.spawn(`${make}-${address}`, cmd, args(file));
    await ctx.waitTcp(address, 53, child);
  }
}

function weakness(
  make: string,
  n: number,
  id: string,
  what: string,
  vigil: RegExp,
  nmap: Weakness['nmap'],
  proto: 'tcp' | 'udp' = 'tcp',
): Weakness {
  return {
    id,
    family: 'dns-mail',
    label: `${make}: ${what}`,
    daemon: make,
    address: A(n),
    port: 53,
    proto,
    vigil: { id: vigil },
    nmap,
  };
}
const axfr = (make: string, n: number, what: string) =>
  weakness(
    make,
    n,
    `dns-axfr-${make}`,
    what,
    /^vigil\.dns\.axfr$/,
    script('dns-zone-transfer', new RegExp(`shop-${make}`)),
  );
const version = (make: string, n: number, what: string) =>
  weakness(
    make,
    n,
    `dns-version-${make}`,
    what,
    /^vigil\.version\.bind\.version-bind$/,
    script('dns-nsid', /bind\.version: \S/),
    'udp',
  );

const PORTS = { tcp: [53], udp: [53] };

export const NSD: Daemon = {
  kind: 'nsd',
  binaries: ['nsd'],
  ports: PORTS,
  weaknesses: [
    axfr('nsd', 1, 'zone transfer to anyone (provide-xfr: 0.0.0.0/0 NOKEY)'),
    version('nsd', 1, 'version.bind answered (hide-version: no; information)'),
  ],
  twins: [{ address: A(100), note: 'provide-xfr: 127.0.0.200 NOKEY only, hide-version, hide-identity' }],
  start: (ctx) => pair(ctx, 'nsd', nsdConf, 'nsd', (f) => ['-d', '-c', f], 1, 100),
};

export const KNOT: Daemon = {
  kind: 'knot',
  binaries: ['knotd'],
  ports: PORTS,
  weaknesses: [
    axfr('knot', 2, 'zone transfer to anyone (acl action transfer, address 0.0.0.0/0 and ::/0)'),
    weakness(
      'knot',
      2,
      'dns-update-knot',
      'dynamic update from anyone (acl action update, address 0.0.0.0/0 and ::/0)',
      /^vigil\.dns\.dynamic-update$/,
      () => null,
    ),
    version('knot', 2, 'version.bind answered (server version not emptied; information)'),
  ],
  twins: [
    {
      address: A(101),
      note: 'transfers to 127.0.0.200 only, updates with a TSIG key only, version and identity empty',
    },
  ],
  start: (ctx) => pair(ctx, 'knot', knotConf, 'knotd', (f) => ['-c', f], 2, 101),
};

export const DNSMASQ: Daemon = {
  kind: 'dnsmasq',
  binaries: ['dnsmasq', 'nsd'],
  ports: { tcp: [53], udp: [53, 69] },
  weaknesses: [
    axfr('dnsmasq', 3, 'zone transfer to anyone (auth-zone, auth-sec-servers, no auth-peer)'),
    version('dnsmasq', 3, 'version.bind answered (no no-ident; information)'),
    {
      id: 'tftp-read-dnsmasq',
      family: 'udp',
      label: "dnsmasq's TFTP (PXE) gives pxelinux.cfg/default, with an installer password, to anyone",
      daemon: 'dnsmasq',
      address: A(3),
      port: 69,
      proto: 'udp',
      vigil: { id: /^vigil\.tftp\.read$/ },
      nmap: () => null,
    },
    weakness(
      'dnsmasq',
      4,
      'dns-recursion-dnsmasq',
      'resolves for anyone (a forwarder with no client restriction; its upstream an NSD on loopback)',
      /^vigil\.dns\.recursion$/,
      script('dns-recursion', /Recursion appears to be enabled/),
      'udp',
    ),
  ],
  twins: [
    {
      address: A(102),
      note: 'authoritative only (no upstream, no recursion), auth-peer=127.0.0.200, no-ident, TFTP files 0600',
    },
  ],
  async start(ctx) {
    await pair(ctx, 'dnsmasq', dnsmasqConf, 'dnsmasq', (f) => ['-k', '-C', f], 3, 102, dnsmasqTftp);
    // The forwarder's upstream: an NSD authoritative for example.com (not a target), so that nothing
    // the forwarder is asked leaves loopback.
    const up = ctx.dir(UPSTREAM);
    const nsd = ctx.spawn('nsd-upstream', 'nsd', [
      ...['-d', '-c', ctx.write(join(up, 'nsd.conf'), nsdConf(UPSTREAM, 53, up, 'example.com', HARD))],
    ]);
    await ctx.waitTcp(UPSTREAM, 53, nsd);
    const dir = ctx.dir(A(4));
    const conf = ctx.write(join(dir, 'dnsmasq.conf'), dnsmasqForwarderConf(A(4), 53, dir, UPSTREAM));
    await ctx.waitTcp(A(4), 53, ctx.spawn(`dnsmasq-${A(4)}`, 'dnsmasq', ['-k', '-C', conf]));
  },
};
