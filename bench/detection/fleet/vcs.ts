/**
 * Version control servers open to anonymous writes, K = 71.
 * git daemon (Debian git; git-daemon-sysvinit only adds its init script),
 * N = 1 and 101: a bare /project.git with one commit under --base-path,
 * --export-all. Weak: --enable=receive-pack (anyone may push). Twin: the
 * same without it (read-only git://, which is what git daemon is for).
 * svnserve (Debian subversion), N = 2 and 102: -r ROOT over ROOT/repo.
 * Weak: anon-access = write. Twin: anon-access = read, committers in a
 * password-db.
 */
import { gitDaemonArgs, gitProject, svnRepo, svnserveArgs } from '../../../test/helpers/ops-daemons.ts';
import { addr, none, type Daemon } from './kit.ts';

const K = 71;
const A = (n: number) => addr(K, n);

export const GIT_DAEMON: Daemon = {
  kind: 'git-daemon',
  binaries: ['git'],
  ports: { tcp: [9418], udp: [] },
  weaknesses: [
    {
      id: 'git-anonymous-push',
      family: 'auth',
      label: 'git daemon with receive-pack enabled (anyone may push)',
      daemon: 'git daemon',
      address: A(1),
      port: 9418,
      proto: 'tcp',
      vigil: { id: /^vigil\.git\.anonymous-push$/ },
      // nmap names git? and svnserve (-sV, banner); no default, safe or vuln script asks for receive-pack or commit access.
      nmap: none,
    },
  ],
  twins: [{ address: A(101), note: 'upload-pack only (no --enable=receive-pack)' }],
  async start(ctx) {
    const base = ctx.dir('git');
    gitProject('git', base);
    for (const [n, push] of [
      [1, true],
      [101, false],
    ] as const) {
      const child = ctx.spawn(`git-daemon-${A(n)}`, 'git', gitDaemonArgs(A(n), 9418, base, push));
      await ctx.waitTcp(A(n), 9418, child);
    }
  },
};

export const SVNSERVE: Daemon = {
  kind: 'svnserve',
  binaries: ['svnserve', 'svnadmin'],
  ports: { tcp: [3690], udp: [] },
  weaknesses: [
    {
      id: 'svn-anonymous-write',
      family: 'auth',
      label: 'svnserve with anon-access = write (anyone may commit)',
      daemon: 'svnserve',
      address: A(2),
      port: 3690,
      proto: 'tcp',
      vigil: { id: /^vigil\.svn\.anonymous-write$/ },
      nmap: none,
    },
  ],
  twins: [{ address: A(102), note: 'anon-access = read, committers in a password-db' }],
  async start(ctx) {
    for (const [n, write] of [
      [2, true],
      [102, false],
    ] as const) {
      const root = ctx.dir(`svn-${n}`);
      svnRepo('svnadmin', root, write ? 'write' : 'read');
      const child = ctx.spawn(`svnserve-${A(n)}`, 'svnserve', svnserveArgs(A(n), 3690, root));
      await ctx.waitTcp(A(n), 3690, child);
    }
  },
};
