/**
 * Debian firebird3.0-server (Firebird 3 SuperServer), one per address in
 * the foreground: a root directory of its own ($FIREBIRD: firebird.conf,
 * an empty databases.conf, links to Debian's plugins and messages) and a
 * security database made fresh from Debian's security.sql by embedded
 * isql-fb (the host's own security3.fdb is never read). K = 36, N = 2 and
 * 101.
 * Weak: SYSDBA with the vendor default password "masterkey". Twin: SYSDBA
 * with a password of its own (the login answers isc_login).
 */
import { readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { addr, type Ctx, type Daemon } from './kit.ts';

const K = 36;
const A = (n: number) => addr(K, n);
const PORT = 3050;
const LIB = '/usr/lib/x86_64-linux-gnu/firebird/3.0';

async function instance(ctx: Ctx, address: string, password: string): Promise<void> {
  const root = ctx.dir(address);
  for (const x of ['firebird.msg', 'plugins', 'intl', 'UDF', 'lib', 'plugins.conf'])
    symlinkSync(join(LIB, x), join(root, x));
  const security = join(root, 'security3.fdb');
  ctx.write(
    join(root, 'firebird.conf'),
    [
      `RemoteBindAddress = ${address}`,
      `RemoteServicePort = ${PORT}`,
      `SecurityDatabase = ${security}`,
      'AuthServer = Srp',
      'UserManager = Srp',
      'WireCrypt = Enabled',
    ].join('\n'),
  );
  ctx.write(join(root, 'databases.conf'), '');
  const env = { ...process.env, FIREBIRD: root, FIREBIRD_LOCK: ctx.dir(`${address}-lock`) };
  ctx.run('isql-fb', ['-user', 'SYSDBA', '-q'], {
    env,
    input: [
      `CREATE DATABASE '${security}';`,
      readFileSync('/usr/share/firebird/3.0/security.sql', 'utf8'),
      `CREATE USER SYSDBA PASSWORD '${password}';`,
      'COMMIT;',
    ].join('\n'),
  });
  const child = ctx.spawn(`firebird-${address}`, '/usr/sbin/firebird', [], { env, cwd: root });
  await ctx.waitTcp(address, PORT, child, 30_000);
}

export const FIREBIRD: Daemon = {
  kind: 'firebird',
  binaries: ['/usr/sbin/firebird', 'isql-fb', '/usr/share/firebird/3.0/security.sql'],
  ports: { tcp: [PORT], udp: [] },
  weaknesses: [
    {
      id: 'firebird-masterkey',
      family: 'auth',
      label: 'Firebird SYSDBA with the default password "masterkey"',
      daemon: 'firebird3.0-server',
      address: A(2),
      port: PORT,
      proto: 'tcp',
      vigil: { id: /^vigil\.firebird\.default-credentials$/ },
      nmap: () => null,
    },
  ],
  twins: [{ address: A(101), note: 'SYSDBA with a password of its own' }],
  async start(ctx) {
    await instance(ctx, A(2), 'masterkey');
    await instance(ctx, A(101), 'bench-F1b-not-a-secret');
  },
};
