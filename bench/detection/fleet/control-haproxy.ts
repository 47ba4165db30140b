/**
 * Debian haproxy's runtime API, K = 82: `stats socket ipv4@…:9999` at
 * level admin (a HOLE), at level user (a disclosure, NOTE), and the master
 * CLI of `haproxy -W -S ipv4@…:9999` (a HOLE: it reloads HAProxy). Twin: the
 * socket on a Unix path (Debian's own haproxy.cfg does so), with a TCP
 * listener left on 9999 that rejects every connection, so that the port
 * is open and the check has to stay silent on it.
 */
import { haproxyRuntimeConf } from '../../../test/helpers/control-daemons.ts';
import { addr, type Daemon } from './kit.ts';

const K = 82;
const A = (n: number) => addr(K, n);

export const HAPROXY_RUNTIME: Daemon = {
  kind: 'haproxy-runtime',
  binaries: ['haproxy'],
  ports: { tcp: [9999], udp: [] },
  weaknesses: [
    {
      id: 'haproxy-runtime-admin',
      family: 'auth',
      label: 'HAProxy runtime API on TCP at level admin',
      daemon: 'haproxy',
      address: A(1),
      port: 9999,
      proto: 'tcp',
      vigil: { id: /^vigil\.haproxy\.runtime-api-open$/ },
      nmap: () => null,
    },
    {
      id: 'haproxy-runtime-user',
      family: 'auth',
      label: 'HAProxy runtime API on TCP at level user (information)',
      daemon: 'haproxy',
      address: A(2),
      port: 9999,
      proto: 'tcp',
      vigil: { id: /^vigil\.haproxy\.runtime-api-open$/ },
      nmap: () => null,
    },
    {
      id: 'haproxy-master-cli',
      family: 'auth',
      label: 'HAProxy master CLI on TCP (haproxy -W -S)',
      daemon: 'haproxy',
      address: A(3),
      port: 9999,
      proto: 'tcp',
      vigil: { id: /^vigil\.haproxy\.runtime-api-open$/ },
      nmap: () => null,
    },
  ],
  twins: [{ address: A(101), note: 'stats socket on a Unix path; 9999 rejects connections' }],
  async start(ctx) {
    for (const [n, api] of [
      [1, 'admin'],
      [2, 'user'],
      [101, 'unix'],
    ] as const) {
      const conf = haproxyRuntimeConf(ctx.dir(`haproxy-${n}`), A(n), 9999, api);
      const child = ctx.spawn(`haproxy-${A(n)}`, 'haproxy', ['-db', '-f', conf]);
      await ctx.waitTcp(A(n), 9999, child);
    }
    // The master CLI on TCP, the worker's only listener on 9998 (not scanned) and its stats socket on a Unix path.
    const conf = haproxyRuntimeConf(ctx.dir('haproxy-3'), A(3), 9998, 'unix');
    const master = ctx.spawn(`haproxy-master-${A(3)}`, 'haproxy', ['-W', '-db', '-S', `ipv4@${A(3)}:9999`, '-f', conf]);
    await ctx.waitTcp(A(3), 9999, master);
  },
};
