/**
 * Debian Xvfb behind a TCP relay. An X server's TCP listener binds every
 * address (no bind option), so Xvfb keeps to its Unix socket and socat
 * relays 127.14.16.N:6000 to it: the server sees a local client, which is
 * exactly what makes the twin meaningful. Weak: -ac (access control off:
 * any client may connect, read the screen, inject keys). Twin: an
 * MIT-MAGIC-COOKIE-1 in -auth that the scanner does not have: the server
 * answers "Authorization required". The port must be named X11.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { addr, script, svc, sleep, type Daemon } from './kit.ts';

const K = 16;
const A = (n: number) => addr(K, n);

/** One Xauthority entry (FamilyLocal, display, MIT-MAGIC-COOKIE-1): Xau's file format, each field length-prefixed. */
function xauthority(display: number): Buffer {
  const field = (b: Buffer) => Buffer.concat([Buffer.from([b.length >> 8, b.length & 255]), b]);
  return Buffer.concat([
    Buffer.from([1, 0]),
    field(Buffer.from('bench')),
    field(Buffer.from(String(display))),
    field(Buffer.from('MIT-MAGIC-COOKIE-1')),
    field(randomBytes(16)),
  ]);
}

export const XVFB: Daemon = {
  kind: 'x11',
  binaries: ['Xvfb', 'socat'],
  ports: { tcp: [6000], udp: [] },
  weaknesses: [
    {
      id: 'x11-open',
      family: 'auth',
      label: 'X server accepts any client (xhost +, -ac)',
      daemon: 'Xvfb',
      address: A(1),
      port: 6000,
      proto: 'tcp',
      vigil: { text: /x11|x server|display/i },
      nmap: script('x11-access', /X server access is granted/),
    },
    {
      id: 'ident-x11',
      family: 'ident',
      label: 'X11 named as X11 by service detection',
      daemon: 'Xvfb',
      address: A(1),
      port: 6000,
      proto: 'tcp',
      vigil: { service: /^x11$/i },
      nmap: svc(/^X11/),
    },
  ],
  twins: [{ address: A(100), note: 'MIT-MAGIC-COOKIE-1 required (-auth)' }],
  async start(ctx) {
    for (const [n, display] of [
      [1, 41],
      [100, 42],
    ] as const) {
      const root = ctx.dir(A(n));
      const args = [`:${display}`, '-nolisten', 'tcp', '-screen', '0', '640x480x24'];
      if (n === 1) args.push('-ac');
      else args.push('-auth', ctx.write(join(root, 'Xauthority'), xauthority(display), 0o600));
      const x = ctx.spawn(`Xvfb-${display}`, 'Xvfb', args);
      const sock = `/tmp/.X11-unix/X${display}`;
      for (let i = 0; i < 100 && !existsSync(sock); i++) {
        if (x.exitCode !== null) throw new Error(`Xvfb :${display} exited (${x.exitCode})`);
        await sleep(100);
      }
      const relay = ctx.spawn(`socat-${display}`, 'socat', [
        `TCP-LISTEN:6000,bind=${A(n)},reuseaddr,fork`,
        `UNIX-CONNECT:${sock}`,
      ]);
      await ctx.waitTcp(A(n), 6000, relay);
    }
  },
};
