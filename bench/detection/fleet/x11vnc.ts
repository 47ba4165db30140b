/**
 * Debian x11vnc (0.9.16) sharing an Xvfb display, a VNC server of another
 * make than the RFB imitations (issue 27). Weak: -nopw (security type None:
 * anyone sees and drives the desktop). Twin: a password (-rfbauth), which
 * offers "VNC Authentication" only (reported as information, never as an
 * alarm). Each x11vnc listens on its own address only (-listen, -no6, -noipv6; on port 5901, display 1's: on 5900 this build still opened [::]:5900, which the bench must leave out as a wildcard listener).
 */
import { join } from 'node:path';
import { addr, script, sleep, svc, type Daemon } from './kit.ts';
import { existsSync } from 'node:fs';

const K = 40;
const A = (n: number) => addr(K, n);
const DISPLAY = 87;

export const X11VNC: Daemon = {
  kind: 'x11vnc',
  binaries: ['x11vnc', 'Xvfb'],
  ports: { tcp: [5901], udp: [] },
  weaknesses: [
    {
      id: 'vnc-noauth-x11vnc',
      family: 'auth',
      label: 'x11vnc without a password (-nopw: security type None)',
      daemon: 'x11vnc',
      address: A(1),
      port: 5901,
      proto: 'tcp',
      vigil: { id: /^vigil\.vnc\.noauth$/ },
      nmap: script('vnc-info', /does not require authentication|None \(1\)/),
    },
    {
      id: 'ident-vnc-x11vnc',
      family: 'ident',
      label: 'x11vnc named as VNC by service detection',
      daemon: 'x11vnc',
      address: A(1),
      port: 5901,
      proto: 'tcp',
      vigil: { service: /^vnc$/i },
      nmap: svc(/^vnc/),
    },
  ],
  twins: [{ address: A(100), note: 'password required (-rfbauth): VNC Authentication only' }],
  async start(ctx) {
    const dir = ctx.dir('x11vnc');
    const x = ctx.spawn(`Xvfb-${DISPLAY}`, 'Xvfb', [`:${DISPLAY}`, '-nolisten', 'tcp', '-screen', '0', '640x480x16']);
    for (let i = 0; i < 200 && !existsSync(`/tmp/.X11-unix/X${DISPLAY}`); i++) {
      if (x.exitCode !== null) throw new Error(`Xvfb :${DISPLAY} exited (${x.exitCode})`);
      await sleep(100);
    }
    const pass = join(dir, 'passwd');
    ctx.run('x11vnc', ['-storepasswd', 'a-vnc-bench-secret', pass]);
    for (const [n, auth] of [
      [1, ['-nopw']],
      [100, ['-rfbauth', pass]],
    ] as const) {
      const child = ctx.spawn(`x11vnc-${A(n)}`, 'x11vnc', [
        ...['-display', `:${DISPLAY}`, '-listen', A(n), '-rfbport', '5901', '-no6', '-noipv6', '-nolookup'],
        ...['-forever', '-shared', '-quiet', ...auth],
      ]);
      await ctx.waitTcp(A(n), 5901, child, 30_000);
    }
  },
};
