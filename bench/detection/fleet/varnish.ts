/**
 * Debian varnish, K = 70 (N = 1 and 101), in the foreground (-F, no jail).
 * Weak: the management CLI on -T with `-S none` (varnishd makes a secret
 * of its own when -S is not given, so turning authentication off takes
 * `-S none`, or an old varnishd). Twin: the same -T with a secret file
 * (the 107 challenge). Only the CLI port is scanned: the cache's HTTP port
 * (its backend down, 503) is not this kind's weakness.
 */
import { varnishArgs } from '../../../test/helpers/ops-daemons.ts';
import { addr, script, type Daemon } from './kit.ts';

const K = 70;
const A = (n: number) => addr(K, n);

export const VARNISH: Daemon = {
  kind: 'varnish',
  binaries: ['varnishd'],
  ports: { tcp: [6082], udp: [] },
  weaknesses: [
    {
      id: 'varnish-cli-noauth',
      family: 'auth',
      label: 'Varnish management CLI without authentication (-S none)',
      daemon: 'varnishd',
      address: A(1),
      port: 6082,
      proto: 'tcp',
      vigil: { id: /^vigil\.varnish\.cli-open$/ },
      // nmap's banner script prints the greeting: status 200 and the CLI banner, not the 107 challenge (measured).
      nmap: script('banner', /^200 \d+ .*Varnish Cac/),
    },
  ],
  twins: [{ address: A(101), note: '-S secret file (107 challenge)' }],
  async start(ctx) {
    for (const [n, open] of [
      [1, true],
      [101, false],
    ] as const) {
      const args = varnishArgs(ctx.dir(`varnish-${n}`), A(n), { http: 6081, cli: 6082 }, !open);
      const child = ctx.spawn(`varnishd-${A(n)}`, 'varnishd', args);
      await ctx.waitTcp(A(n), 6082, child, 30_000);
    }
  },
};
