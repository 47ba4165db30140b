/**
 * Weak and hardened twins of real Debian daemons that hold data or
 * control: rsyncd, Xvfb, slapd, PostgreSQL, MariaDB. Each start function
 * returns the port it listens on, on `addr`.
 */
import { execFile, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, chownSync, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { daemon, freePort, listening, tempDir, which } from './daemons-kit.ts';

const run = promisify(execFile);

/** rsync --daemon with one module "pub": open, or behind "auth users" and not listed. */
export function rsyncd(addr: string, open: boolean, port?: number): Promise<number> {
  const dir = tempDir('rsyncd');
  mkdirSync(join(dir, 'pub'));
  writeFileSync(join(dir, 'pub', 'backup.tar'), 'planted\n');
  writeFileSync(join(dir, 'secrets'), 'backup:a-long-rsync-secret\n', { mode: 0o600 });
  const module = open
    ? ['[pub]', `path = ${dir}/pub`, 'read only = yes']
    : ['[pub]', `path = ${dir}/pub`, 'auth users = backup', `secrets file = ${dir}/secrets`];
  writeFileSync(
    join(dir, 'rsyncd.conf'),
    ['use chroot = no', `pid file = ${dir}/pid`, 'uid = root', 'gid = root', ...module, ''].join('\n'),
  );
  return daemon(
    addr,
    'rsync',
    (port) => ['--daemon', '--no-detach', `--config=${dir}/rsyncd.conf`, `--address=${addr}`, `--port=${port}`],
    { port },
  );
}

/**
 * Xvfb listening on TCP 6000+n (it binds every address; no option narrows
 * it): with -ac, or with an MIT-MAGIC-COOKIE-1 authority file. Without
 * either, X still admits every client from the local host (its host list
 * starts with the machine's own addresses), which a loopback test is.
 */
export async function xvfb(addr: string, anyClient: boolean): Promise<number> {
  for (let n = 41 + Math.floor(Math.random() * 20); ; n++) {
    if (existsSync(`/tmp/.X${n}-lock`) || (await listening('0.0.0.0', 6000 + n))) continue;
    const auth = join(tempDir('xauth'), 'Xauthority');
    writeFileSync(auth, xauthEntry(String(n)));
    const args = [
      `:${n}`,
      '-listen',
      'tcp',
      '-nolisten',
      'unix',
      '-screen',
      '0',
      '320x200x8',
      ...(anyClient ? ['-ac'] : ['-auth', auth]),
    ];
    return daemon(addr, 'Xvfb', () => args, { port: 6000 + n });
  }
}

/**
 * One Xauthority entry (family FamilyWild 0xffff, display n, MIT-MAGIC-COOKIE-1, 16 random bytes), as
 * xauth(1) writes it.
 */
function xauthEntry(display: string): Buffer {
  const field = (b: Buffer) => Buffer.concat([Buffer.from([b.length >> 8, b.length & 0xff]), b]);
  return Buffer.concat([
    Buffer.from([0xff, 0xff]),
    field(Buffer.alloc(0)),
    field(Buffer.from(display)),
    field(Buffer.from('MIT-MAGIC-COOKIE-1')),
    field(randomBytes(16)),
  ]);
}

/** slapd with dc=example,dc=test and two people; weak: `by * read`; hardened: root DSE public, data for users only. */
export async function slapd(addr: string, anonymousRead: boolean, port?: number): Promise<number> {
  const dir = tempDir('slapd');
  mkdirSync(join(dir, 'db'));
  const acl = anonymousRead
    ? ['access to * by * read']
    : ['access to dn.base="" by * read', 'access to * by users read by anonymous auth'];
  const conf = [
    ...['core', 'cosine', 'inetorgperson'].map((s) => `include /etc/ldap/schema/${s}.schema`),
    'modulepath /usr/lib/ldap',
    'moduleload back_mdb',
    `pidfile ${dir}/slapd.pid`,
    'database mdb',
    'suffix "dc=example,dc=test"',
    'rootdn "cn=admin,dc=example,dc=test"',
    'rootpw a-long-ldap-secret',
    `directory ${dir}/db`,
    'maxsize 10485760',
    ...acl,
    '',
  ].join('\n');
  writeFileSync(join(dir, 'slapd.conf'), conf);
  const ldif = [
    'dn: dc=example,dc=test\nobjectClass: dcObject\nobjectClass: organization\ndc: example\no: Example\n',
    'dn: ou=people,dc=example,dc=test\nobjectClass: organizationalUnit\nou: people\n',
    ...['alice', 'bob'].map(
      (u) =>
        `dn: uid=${u},ou=people,dc=example,dc=test\nobjectClass: inetOrgPerson\nuid: ${u}\ncn: ${u}\nsn: ${u}\nmail: ${u}@example.test\n`,
    ),
  ].join('\n');
  writeFileSync(join(dir, 'data.ldif'), ldif);
  execFileSync('slapadd', ['-f', join(dir, 'slapd.conf'), '-l', join(dir, 'data.ldif')], { stdio: 'pipe' });
  const bound = await daemon(
    addr,
    'slapd',
    (p) => ['-f', join(dir, 'slapd.conf'), '-h', `ldap://${addr}:${p}/`, '-d', '0'],
    {
      port,
    },
  );
  // Its port accepts before slapd answers: with four test files at once, service detection's LDAP probe
  // (1.5 s) once met a slapd that had not answered yet, and the port went unnamed. Ready when the root DSE
  // answers an anonymous search, as a client would first ask.
  for (let i = 0; ; i++) {
    try {
      await run('ldapsearch', ['-x', '-H', `ldap://${addr}:${bound}/`, '-b', '', '-s', 'base', '-l', '2']);
      return bound;
    } catch (err) {
      if (i >= 50) throw err;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

export function pgBin(): string | null {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const v = readdirSync(root)
    .sort((a, b) => Number(b) - Number(a))
    .find((x) => existsSync(join(root, x, 'bin', 'initdb')));
  return v ? join(root, v, 'bin') : null;
}

/** A PostgreSQL cluster of its own; pg_hba "host all all 0.0.0.0/0 trust" or "scram-sha-256". */
export async function postgres(
  addr: string,
  trust: boolean,
  port?: number,
  password = 'a-long-postgres-secret',
): Promise<number> {
  const bin = pgBin()!;
  const dir = tempDir('pg');
  const { uid, gid } = pgUser();
  chownSync(dir, uid, gid);
  writeFileSync(join(dir, 'pw'), `${password}\n`);
  chownSync(join(dir, 'pw'), uid, gid);
  const as = { uid, gid, stdio: 'pipe' as const };
  execFileSync(
    join(bin, 'initdb'),
    ['-D', join(dir, 'data'), '-U', 'postgres', '--pwfile', join(dir, 'pw'), '-A', 'scram-sha-256'],
    as,
  );
  writeFileSync(join(dir, 'data', 'pg_hba.conf'), `host all all 0.0.0.0/0 ${trust ? 'trust' : 'scram-sha-256'}\n`);
  return daemon(
    addr,
    join(bin, 'postgres'),
    (port) => [
      '-D',
      join(dir, 'data'),
      '-c',
      `listen_addresses=${addr}`,
      '-p',
      String(port),
      '-k',
      dir,
      '-c',
      'fsync=off',
      '-c',
      'shared_buffers=8MB',
    ],
    { uid, gid, port },
  );
}

function pgUser(): { uid: number; gid: number } {
  const line = execFileSync('getent', ['passwd', 'postgres'], { encoding: 'utf8' }).split(':');
  return { uid: Number(line[2]), gid: Number(line[3]) };
}

/** MariaDB with a network root account: empty password (weak) or a long one. */
export async function mariadb(
  addr: string,
  emptyRoot: boolean,
  fixedPort?: number,
  password = 'a-long-mariadb-secret',
  extra: string[] = [],
): Promise<number> {
  const dir = tempDir('mariadb');
  chmodSync(dir, 0o755);
  const data = join(dir, 'data');
  // Its own tmpdir: with the default /tmp, a CI run failed with "Error on delete of
  // '/tmp/#sql-temptable-…'" while another test's daemon shared the directory.
  execFileSync(
    which('mariadb-install-db') ?? 'mysql_install_db',
    [
      '--no-defaults',
      `--datadir=${data}`,
      `--tmpdir=${dir}`,
      '--user=root',
      '--auth-root-authentication-method=normal',
      '--skip-test-db',
    ],
    { stdio: 'pipe' },
  );
  const pw = emptyRoot ? '' : password;
  // mariadb-install-db also makes root@127.0.0.1, root@::1 and root@<hostname> without a password; a
  // connection to 127.0.41.x comes from 127.0.0.1, so the hardened twin keeps root@localhost (socket) only.
  const drop = emptyRoot
    ? ''
    : "DELETE FROM mysql.global_priv WHERE User = 'root' AND Host <> 'localhost';\nFLUSH PRIVILEGES;\n";
  writeFileSync(
    join(dir, 'init.sql'),
    `${drop}CREATE USER IF NOT EXISTS 'root'@'%' IDENTIFIED BY '${pw}';\nGRANT ALL ON *.* TO 'root'@'%';\n`,
  );
  const port = fixedPort ?? (await freePort(addr));
  return daemon(
    addr,
    which('mariadbd') ?? 'mysqld',
    (p) => [
      '--no-defaults',
      `--datadir=${data}`,
      `--tmpdir=${dir}`,
      '--user=root',
      `--bind-address=${addr}`,
      `--port=${p}`,
      `--socket=${dir}/sock`,
      `--pid-file=${dir}/pid`,
      `--init-file=${dir}/init.sql`,
      '--skip-name-resolve',
      '--innodb-buffer-pool-size=8M',
      `--log-error=${dir}/err.log`,
      ...extra,
    ],
    { port },
  );
}

/** OpenSSH's sshd as Debian ships it (PasswordAuthentication yes, the default) or keys only. */
export function sshd(addr: string, passwords: boolean, port?: number): Promise<number> {
  const dir = tempDir('sshd');
  mkdirSync('/run/sshd', { recursive: true });
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', join(dir, 'key')]);
  const auth = passwords
    ? 'PasswordAuthentication yes\nKbdInteractiveAuthentication no'
    : 'PasswordAuthentication no\nKbdInteractiveAuthentication no';
  return daemon(
    addr,
    '/usr/sbin/sshd',
    (port) => {
      writeFileSync(
        join(dir, 'sshd.conf'),
        `Port ${port}\nListenAddress ${addr}\nHostKey ${join(dir, 'key')}\nPidFile ${dir}/sshd.pid\nUsePAM no\nStrictModes no\n${auth}\n`,
      );
      return ['-D', '-e', '-f', join(dir, 'sshd.conf')];
    },
    { port },
  );
}
