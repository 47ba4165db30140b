/**
 * Debian PostgreSQL 15 and MariaDB, one cluster or server per config.
 * PostgreSQL: `trust` for every host (no password asked) vs scram-sha-256
 * over TLS only; a third cluster asks for passwords but offers an expired
 * certificate on its SSLRequest upgrade (a TLS weakness on a STARTTLS-style
 * service); a fourth asks for passwords and postgres's is "postgres"
 * (found in advanced: guessing is intrusive). MariaDB: root@'%' with an empty password, and with the
 * default-list password "root" (advanced: guessing is intrusive), and TLS
 * with a self-signed certificate (SSLRequest upgrade), vs a long password.
 */
import { join } from 'node:path';
import { readdirSync } from 'node:fs';
import { leaf } from '../certs.ts';
import { addr, any, grep, makeDir, script, userIds, type Ctx, type Daemon } from './kit.ts';

const PG_BIN = (() => {
  try {
    const v = readdirSync('/usr/lib/postgresql').sort().at(-1);
    return v ? `/usr/lib/postgresql/${v}/bin` : '/usr/lib/postgresql/15/bin';
  } catch {
    return '/usr/lib/postgresql/15/bin';
  }
})();

const PK = 9;
export const POSTGRES: Daemon = {
  kind: 'postgresql',
  binaries: [`${PG_BIN}/postgres`, `${PG_BIN}/initdb`],
  ports: { tcp: [5432], udp: [] },
  weaknesses: [
    {
      id: 'pg-trust',
      family: 'auth',
      label: 'PostgreSQL trust authentication (any user, no password)',
      daemon: 'postgresql',
      address: addr(PK, 1),
      port: 5432,
      proto: 'tcp',
      vigil: { text: /postgres|pgsql/i },
      nmap: any(script('pgsql-brute', /Valid credentials|postgres/), grep(/trust/i)),
    },
    {
      id: 'pg-tls-expired',
      family: 'tls',
      label: 'PostgreSQL TLS (SSLRequest) with an expired certificate',
      daemon: 'postgresql',
      address: addr(PK, 2),
      port: 5432,
      proto: 'tcp',
      vigil: { text: /expired/i },
      nmap: any(script('ssl-cert', /Not valid after:\s*20(1|2[0-5])/)),
    },
    {
      id: 'pg-default-password',
      family: 'auth',
      label: 'PostgreSQL superuser postgres with the password "postgres" (SCRAM-SHA-256)',
      daemon: 'postgresql',
      address: addr(PK, 3),
      port: 5432,
      proto: 'tcp',
      vigil: { id: /^vigil\.db\.default-credentials$/ },
      nmap: script('pgsql-brute', /postgres:postgres/),
    },
  ],
  twins: [{ address: addr(PK, 100), note: 'scram-sha-256, TLS required (hostssl only), good certificate' }],
  async start(ctx) {
    const pg = userIds('postgres');
    await cluster(ctx, pg, addr(PK, 1), 'host all all 0.0.0.0/0 trust', null);
    await cluster(ctx, pg, addr(PK, 2), 'host all all 0.0.0.0/0 scram-sha-256', { expired: true });
    await cluster(ctx, pg, addr(PK, 3), 'host all all 0.0.0.0/0 scram-sha-256', {}, 'postgres');
    await cluster(
      ctx,
      pg,
      addr(PK, 100),
      'hostssl all all 0.0.0.0/0 scram-sha-256\nhostnossl all all 0.0.0.0/0 reject',
      {},
    );
  },
};

async function cluster(
  ctx: Ctx,
  pg: { uid: number; gid: number },
  address: string,
  hba: string,
  tls: { expired?: boolean } | null,
  password = 'bench-Xq7-not-a-secret',
): Promise<void> {
  const base = makeDir(join(ctx.dir(address), 'pg'), pg, 0o700);
  const data = join(base, 'data');
  const pw = ctx.write(join(base, 'pw'), `${password}\n`, 0o600);
  makeDir(base, pg, 0o700);
  ctx.run(`${PG_BIN}/initdb`, ['-D', data, '-U', 'postgres', '--pwfile', pw, '-A', 'scram-sha-256', '--no-sync'], {
    ...pg,
    env: { ...process.env, LC_ALL: 'C' },
  });
  ctx.write(join(data, 'pg_hba.conf'), `local all all trust\n${hba}\n`);
  const args = [
    '-D',
    data,
    '-k',
    base,
    '-p',
    '5432',
    '-c',
    `listen_addresses=${address}`,
    '-c',
    'fsync=off',
    '-c',
    'shared_buffers=16MB',
    '-c',
    'max_connections=40',
  ];
  if (tls) {
    const pem = await leaf(address, tls);
    ctx.write(join(data, 'server.crt'), pem.cert);
    ctx.write(join(data, 'server.key'), pem.key, 0o600);
    makeDir(data, pg, 0o700);
    args.push('-c', 'ssl=on');
  }
  const child = ctx.spawn(`postgres-${address}`, `${PG_BIN}/postgres`, args, { ...pg });
  await ctx.waitTcp(address, 5432, child, 30_000);
}

const MK = 10;
export const MARIADB: Daemon = {
  kind: 'mariadb',
  binaries: ['mariadbd', 'mariadb-install-db'],
  ports: { tcp: [3306], udp: [] },
  weaknesses: [
    {
      id: 'mysql-empty-root',
      family: 'auth',
      label: "MariaDB root@'%' with an empty password",
      daemon: 'mariadb',
      address: addr(MK, 1),
      port: 3306,
      proto: 'tcp',
      vigil: { text: /mysql|mariadb/i },
      nmap: any(script('mysql-empty-password', /root account has empty password/i), script('mysql-info', /root/)),
    },
    {
      id: 'mysql-default-password',
      family: 'auth',
      label: 'MariaDB root@\'%\' with the password "root"',
      daemon: 'mariadb',
      address: addr(MK, 2),
      port: 3306,
      proto: 'tcp',
      vigil: { id: /^vigil\.db\.default-credentials$/ },
      nmap: () => null,
    },
    {
      id: 'mysql-tls-self-signed',
      family: 'tls',
      label: 'MariaDB TLS (SSLRequest) with a self-signed certificate',
      daemon: 'mariadb',
      address: addr(MK, 3),
      port: 3306,
      proto: 'tcp',
      vigil: { id: /^vigil\.tls\.cert-self-signed$/ },
      nmap: script('ssl-cert', /Issuer: commonName=127\.14\.10\.3/),
    },
  ],
  twins: [{ address: addr(MK, 100), note: "root@'%' with a long password; no anonymous users" }],
  async start(ctx) {
    const my = userIds('mysql');
    for (const [address, password] of [
      [addr(MK, 1), ''],
      [addr(MK, 2), 'root'],
      [addr(MK, 3), 'bench-Kd9-not-a-secret'],
      [addr(MK, 100), 'bench-Kd9-not-a-secret'],
    ] as const) {
      const base = makeDir(ctx.dir(address), my, 0o750);
      const data = join(base, 'data');
      ctx.run('mariadb-install-db', [
        '--no-defaults',
        `--datadir=${data}`,
        '--user=mysql',
        '--auth-root-authentication-method=socket',
        '--skip-test-db',
        `--tmpdir=${base}`,
      ]);
      const init = ctx.write(
        join(base, 'init.sql'),
        `CREATE USER IF NOT EXISTS 'root'@'%' IDENTIFIED BY '${password}';\nGRANT ALL ON *.* TO 'root'@'%' WITH GRANT OPTION;\nDELETE FROM mysql.global_priv WHERE User='';\nFLUSH PRIVILEGES;\n`,
      );
      const tls: string[] = [];
      if (address === addr(MK, 3)) {
        const pem = await leaf(address, { selfSigned: true });
        tls.push(`--ssl-cert=${ctx.write(join(base, 'cert.pem'), pem.cert)}`);
        tls.push(`--ssl-key=${ctx.write(join(base, 'key.pem'), pem.key, 0o644)}`);
      }
      makeDir(base, my, 0o750);
      const child = ctx.spawn(`mariadbd-${address}`, 'mariadbd', [
        '--no-defaults',
        `--datadir=${data}`,
        `--socket=${base}/sock`,
        `--pid-file=${base}/pid`,
        `--tmpdir=${base}`,
        '--port=3306',
        `--bind-address=${address}`,
        '--user=mysql',
        `--init-file=${init}`,
        '--innodb-buffer-pool-size=16M',
        '--skip-name-resolve',
        '--log-error=' + join(base, 'error.log'),
        ...tls, // after --no-defaults, which must come first
      ]);
      await ctx.waitTcp(address, 3306, child, 30_000);
    }
  },
};
