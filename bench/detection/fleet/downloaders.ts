/**
 * Download managers' RPC, K = 91. aria2c (Debian aria2) binds its RPC to
 * 127.0.0.1 or to every interface, nothing between: it runs on 127.0.0.1
 * at a free port, and socat carries 127.14.91.N:6800 to it. Weak: no
 * --rpc-secret; twin: --rpc-secret. transmission-daemon (Debian) binds
 * its RPC to the address itself. Weak: authentication off, whitelist off;
 * twin: a whitelist of 127.0.0.2 (403). The authentication twin (401) is
 * tested in download-rpc.test.ts, not planted here: HTTP Basic over plain
 * HTTP is a finding of its own (vigil.http.basic-auth-cleartext).
 * Peers, DHT, LPD, PEX and port mapping off (exec-daemons.ts).
 */
import { join } from 'node:path';
import { aria2Args, freePort, transmissionSettings } from '../../../test/helpers/exec-daemons.ts';
import { addr, makeDir, none, type Daemon } from './kit.ts';

const K = 91;
const A = (n: number) => addr(K, n);
const ARIA2 = 6800;
const TRANSMISSION = 9091;

export const ARIA2C: Daemon = {
  kind: 'aria2',
  binaries: ['aria2c', 'socat'],
  ports: { tcp: [ARIA2], udp: [] },
  weaknesses: [
    {
      id: 'aria2-rpc-open',
      family: 'auth',
      label: 'aria2 JSON-RPC without --rpc-secret',
      daemon: 'aria2c',
      address: A(1),
      port: ARIA2,
      proto: 'tcp',
      vigil: { id: /^vigil\.download\.rpc-open$/ },
      nmap: none,
    },
  ],
  twins: [{ address: A(101), note: '--rpc-secret' }],
  async start(ctx) {
    for (const [n, secret] of [
      [1, false],
      [101, true],
    ] as const) {
      const inner = await freePort('127.0.0.1');
      const aria = ctx.spawn(`aria2c-${A(n)}`, 'aria2c', aria2Args(ctx.dir(`aria2-${n}`), inner, secret));
      await ctx.waitTcp('127.0.0.1', inner, aria);
      const relay = ctx.spawn(`aria2-socat-${A(n)}`, 'socat', [
        `TCP-LISTEN:${ARIA2},bind=${A(n)},fork,reuseaddr`,
        `TCP:127.0.0.1:${inner}`,
      ]);
      await ctx.waitTcp(A(n), ARIA2, relay);
    }
  },
};

export const TRANSMISSION_DAEMON: Daemon = {
  kind: 'transmission',
  binaries: ['transmission-daemon'],
  ports: { tcp: [TRANSMISSION], udp: [] },
  weaknesses: [
    {
      id: 'transmission-rpc-open',
      family: 'auth',
      label: 'Transmission RPC without authentication or whitelist',
      daemon: 'transmission-daemon',
      address: A(2),
      port: TRANSMISSION,
      proto: 'tcp',
      vigil: { id: /^vigil\.download\.rpc-open$/ },
      nmap: none,
    },
  ],
  // The authentication twin (401) is in download-rpc.test.ts only: Basic over plain HTTP is a finding of its own.
  twins: [{ address: A(103), note: 'rpc-whitelist 127.0.0.2 (403)' }],
  async start(ctx) {
    for (const [n, rpc] of [
      [2, 'open'],
      [103, 'whitelist'],
    ] as const) {
      const dir = ctx.dir(`transmission-${n}`);
      makeDir(join(dir, 'downloads'));
      transmissionSettings(dir, A(n), TRANSMISSION, await freePort(A(n)), rpc);
      const child = ctx.spawn(`transmission-${A(n)}`, 'transmission-daemon', ['-f', '-g', dir]);
      await ctx.waitTcp(A(n), TRANSMISSION, child);
    }
  },
};
