/**
 * Debian nats-server, one per address in the foreground. Shares K = 35
 * with etcd (this engineer's block of addresses), on N = 2 and 101.
 * Weak: no authorization block (nats-server's default): INFO without
 * auth_required, CONNECT + PING answered PONG. Twin: `authorization {
 * token: … }` (INFO says auth_required; -ERR 'Authorization Violation').
 */
import { join } from 'node:path';
import { addr, type Daemon } from './kit.ts';

const K = 35;
const A = (n: number) => addr(K, n);
const PORT = 4222;

export const NATS: Daemon = {
  kind: 'nats',
  binaries: ['nats-server'],
  ports: { tcp: [PORT], udp: [] },
  weaknesses: [
    {
      id: 'nats-noauth',
      family: 'auth',
      label: 'NATS server accepting clients without authentication',
      daemon: 'nats-server',
      address: A(2),
      port: PORT,
      proto: 'tcp',
      vigil: { id: /^vigil\.nats\.noauth$/ },
      nmap: () => null,
    },
  ],
  twins: [{ address: A(101), note: 'authorization { token } required' }],
  async start(ctx) {
    for (const [address, open] of [
      [A(2), true],
      [A(101), false],
    ] as const) {
      const dir = ctx.dir(address);
      const conf = ctx.write(
        join(dir, 'nats.conf'),
        [`listen: "${address}:${PORT}"`, ...(open ? [] : ['authorization { token: "bench-N4t-not-a-secret" }'])].join(
          '\n',
        ),
      );
      const child = ctx.spawn(`nats-${address}`, 'nats-server', ['-c', conf]);
      await ctx.waitTcp(address, PORT, child);
    }
  },
};
