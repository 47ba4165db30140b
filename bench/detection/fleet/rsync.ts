/**
 * Debian rsync in daemon mode. Weak: a module listed and readable by
 * anyone (no "auth users"), holding a backup. Twin: the same module behind
 * auth users + a secrets file. The port must be named "rsync" by service
 * detection (it came out `unknown` before): the daemon greets with
 * "@RSYNCD: <protocol>".
 */
import { join } from 'node:path';
import { addr, any, script, svc, type Daemon } from './kit.ts';

const K = 14;
const A = (n: number) => addr(K, n);

export const RSYNC: Daemon = {
  kind: 'rsync',
  binaries: ['rsync'],
  ports: { tcp: [873], udp: [] },
  weaknesses: [
    {
      id: 'rsync-open-module',
      family: 'auth',
      label: 'rsync module readable without authentication',
      daemon: 'rsync',
      address: A(1),
      port: 873,
      proto: 'tcp',
      vigil: { text: /rsync/i },
      nmap: any(script('rsync-list-modules', /backup/)),
    },
    {
      id: 'ident-rsync',
      family: 'ident',
      label: 'rsync named as rsync by service detection',
      daemon: 'rsync',
      address: A(1),
      port: 873,
      proto: 'tcp',
      vigil: { service: /^rsync$/ },
      nmap: svc(/^rsync/),
    },
  ],
  twins: [{ address: A(100), note: 'module behind auth users and a secrets file' }],
  async start(ctx) {
    for (const n of [1, 100]) {
      const root = ctx.dir(A(n));
      const data = ctx.dir(`${A(n)}-data`);
      ctx.write(join(data, 'db-2026-11-22.sql'), '-- nightly dump\nCREATE TABLE customers (id int, email text);\n');
      const auth =
        n === 100
          ? `auth users = backup\nsecrets file = ${ctx.write(join(root, 'secrets'), 'backup:bench-Rs8-not-a-secret\n', 0o600)}\nstrict modes = yes\n`
          : '';
      const conf = ctx.write(
        join(root, 'rsyncd.conf'),
        `pid file = ${root}/rsyncd.pid\nuse chroot = no\nuid = nobody\ngid = nogroup\n[backup]\npath = ${data}\ncomment = nightly backup\nread only = yes\n${auth}`,
      );
      const child = ctx.spawn(`rsync-${A(n)}`, 'rsync', [
        '--daemon',
        '--no-detach',
        `--config=${conf}`,
        `--address=${A(n)}`,
        '--port=873',
      ]);
      await ctx.waitTcp(A(n), 873, child);
    }
  },
};
