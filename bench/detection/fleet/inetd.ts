/**
 * inetd's small services: Debian openbsd-inetd in the foreground with a
 * configuration of its own. Weak: echo, daytime, chargen and time over TCP
 * on 127.14.29.1 itself, and over UDP from a second inetd in a namespace of
 * its own relayed there (OpenBSD inetd answers no UDP small service from a
 * 127/8 source, an anti-loop rule: inside, its clients come from
 * 192.0.2.7 on that namespace's own loopback; fleet/ns.ts). Twin: inetd
 * serving only discard (silent by design) and in.fingerd -u.
 */
import { inetdCommand, NS_ADDR } from '../../../test/helpers/legacy-daemons.ts';
import { addr, any, grep, script, svc, type Daemon } from './kit.ts';
import { startNs } from './ns.ts';

const K = 29;
const A = (n: number) => addr(K, n);
const SMALL = { echo: 7, daytime: 13, chargen: 19, time: 37 } as const;

export const INETD: Daemon = {
  kind: 'inetd',
  binaries: ['inetd', 'in.fingerd', 'finger', 'socat', 'unshare'],
  ports: { tcp: [7, 9, 13, 19, 37, 79], udp: [7, 9, 13, 19, 37] },
  weaknesses: [
    {
      id: 'chargen-udp',
      family: 'dos',
      label: 'UDP chargen answers anyone (amplification)',
      daemon: 'inetd',
      address: A(1),
      port: 19,
      proto: 'udp',
      vigil: { id: /^vigil\.dos\.udp-small-services$/ },
      nmap: any(svc(/chargen/), grep(/chargen/)),
    },
    {
      id: 'echo-udp',
      family: 'dos',
      label: 'UDP echo reflects anything (reflection, echo-chargen loop)',
      daemon: 'inetd',
      address: A(1),
      port: 7,
      proto: 'udp',
      vigil: { id: /^vigil\.dos\.udp-small-services$/ },
      nmap: any(svc(/echo/), grep(/echo/)),
    },
    {
      id: 'chargen-tcp',
      family: 'ident',
      label: 'TCP chargen open',
      daemon: 'inetd',
      address: A(1),
      port: 19,
      proto: 'tcp',
      vigil: { id: /^vigil\.inetd\.small-services$/ },
      nmap: svc(/chargen/),
    },
    {
      id: 'daytime-tcp',
      family: 'ident',
      label: 'TCP daytime open (tells the clock)',
      daemon: 'inetd',
      address: A(1),
      port: 13,
      proto: 'tcp',
      vigil: { id: /^vigil\.inetd\.small-services$/ },
      nmap: any(svc(/daytime/), script('daytime', /\S/)),
    },
  ],
  twins: [{ address: A(100), note: 'inetd with discard (silent) and in.fingerd -u only' }],
  async start(ctx) {
    const weak = A(1);
    const tcp = inetdCommand(ctx.dir('inetd-tcp'), {
      lines: Object.keys(SMALL).map((s) => `${weak}:${s} stream tcp nowait root internal`),
    });
    const child = ctx.spawn('inetd-1', tcp.cmd, tcp.args);
    for (const p of Object.values(SMALL)) await ctx.waitTcp(weak, p, child);

    const dir = ctx.dir('ns-udp');
    const conf = Object.keys(SMALL).map((s) => `'${NS_ADDR}:${s} dgram udp wait root internal'`);
    await startNs(
      ctx,
      'inetd-udp',
      dir,
      {
        setup: [`printf '%s\\n' ${conf.join(' ')} > /run/inetd.conf`, '/usr/sbin/inetd -i /run/inetd.conf &'],
        relays: Object.fromEntries(Object.entries(SMALL).map(([s, p]) => [`udp-${s}`, `UDP:${NS_ADDR}:${p}`])),
        ready: `ss -Hlnu | grep -q '${NS_ADDR}:37 '`,
      },
      weak,
      () => Object.entries(SMALL).map(([s, port]) => ({ proto: 'udp' as const, port, socket: `udp-${s}` })),
    );

    const twin = A(100);
    const quiet = inetdCommand(ctx.dir('inetd-twin'), {
      lines: [
        `${twin}:discard stream tcp nowait root internal`,
        `${twin}:discard dgram udp wait root internal`,
        `${twin}:finger stream tcp nowait nobody /usr/sbin/in.fingerd in.fingerd -u`,
      ],
    });
    const t = ctx.spawn('inetd-100', quiet.cmd, quiet.args);
    await ctx.waitTcp(twin, 9, t);
    await ctx.waitTcp(twin, 79, t);
  },
};
