/**
 * Debian munin-node, one instance per address (`host`), in the foreground. Weak: `allow ^.*$` (the
 * regex that lets everyone in) and `cidr_allow 0.0.0.0/0`; twin: `allow ^127\.0\.0\.200$` (only a
 * master elsewhere: munin-node closes the scanner's connection before its greeting).
 */
import { join } from 'node:path';
import { addr, none, type Daemon, type Weakness } from './kit.ts';

const K = 41;
const A = (n: number) => addr(K, n);
const CONFIGS: [number, string][] = [
  [1, 'allow ^.*$'],
  [2, 'cidr_allow 0.0.0.0/0'],
  [100, 'allow ^127\\.0\\.0\\.200$'],
];

const weak = (n: number, label: string): Weakness => ({
  id: `munin-open-${n}`,
  family: 'auth',
  label,
  daemon: 'munin-node',
  address: A(n),
  port: 4949,
  proto: 'tcp',
  vigil: { id: /^vigil\.munin\.open$/ },
  // nmap names the service (-sV) but none of its default, safe or vuln scripts talks to a Munin node.
  nmap: none,
});

export const MUNIN: Daemon = {
  kind: 'munin-node',
  binaries: ['munin-node'],
  ports: { tcp: [4949], udp: [] },
  weaknesses: [
    weak(1, 'Munin node open to anyone (allow ^.*$)'),
    weak(2, 'Munin node open to anyone (cidr_allow 0.0.0.0/0)'),
  ],
  twins: [{ address: A(100), note: 'allow ^127\\.0\\.0\\.200$ (the master only)' }],
  async start(ctx) {
    for (const [n, allow] of CONFIGS) {
      const dir = ctx.dir(A(n));
      const conf = ctx.write(
        join(dir, 'munin-node.conf'),
        `log_file ${dir}/munin-node.log\npid_file ${dir}/munin-node.pid\nbackground 0\nsetsid 0\nuser root\ngroup root\n${allow}\nhost ${A(n)}\nport 4949\n`,
      );
      const child = ctx.spawn(`munin-node-${A(n)}`, 'munin-node', ['--config', conf, '--foreground']);
      await ctx.waitTcp(A(n), 4949, child);
    }
  },
};
