/**
 * Debian xrdp (0.9.21), a Remote Desktop server. Weak: Debian's shipped
 * security_layer=negotiate, which grants Standard RDP Security (no TLS,
 * no server authentication) to a client that offers only that. Twin:
 * security_layer=tls (the same offer is refused, SSL_REQUIRED_BY_SERVER).
 * xrdp keeps its PID file in /run/xrdp, so each runs in a mount namespace
 * with a /run/xrdp of its own; the listener is on its 127.14.73.N address.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { addr, script, svc, type Daemon } from './kit.ts';

const K = 73;
const A = (n: number) => addr(K, n);

export const XRDP: Daemon = {
  kind: 'xrdp',
  binaries: ['xrdp', 'unshare'],
  ports: { tcp: [3389], udp: [] },
  weaknesses: [
    {
      id: 'rdp-standard-security',
      family: 'tls',
      label: 'xrdp grants Standard RDP Security (security_layer=negotiate, the shipped default)',
      daemon: 'xrdp',
      address: A(1),
      port: 3389,
      proto: 'tcp',
      vigil: { id: /^vigil\.rdp\.standard-security$/ },
      nmap: script('rdp-enum-encryption', /Native RDP: SUCCESS|RDP Protocol: SUCCESS|RDP: SUCCESS/i),
    },
    {
      id: 'ident-rdp-xrdp',
      family: 'ident',
      label: 'xrdp named as RDP by service detection',
      daemon: 'xrdp',
      address: A(1),
      port: 3389,
      proto: 'tcp',
      vigil: { service: /^(ms-wbt-server|rdp)$/ },
      nmap: svc(/^ms-wbt-server/),
    },
  ],
  twins: [{ address: A(101), note: 'security_layer=tls: Standard RDP Security refused' }],
  async start(ctx) {
    for (const [n, layer] of [
      [1, 'negotiate'],
      [101, 'tls'],
    ] as const) {
      const ini = join(ctx.dir(`xrdp-${n}`), 'xrdp.ini');
      writeFileSync(
        ini,
        readFileSync('/etc/xrdp/xrdp.ini', 'utf8')
          .replace(/^port=3389$/m, `port=tcp://${A(n)}:3389`)
          .replace(/^security_layer=.*$/m, `security_layer=${layer}`),
      );
      const child = ctx.spawn(`xrdp-${n}`, 'unshare', [
        '-m',
        'sh',
        '-c',
        `mount -t tmpfs none /run/xrdp && exec xrdp -n -c ${ini}`,
      ]);
      await ctx.waitTcp(A(n), 3389, child);
    }
  },
};
