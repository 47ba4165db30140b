/**
 * The FTP checks on the second and third products of the family, real
 * Debian daemons started once for the file (test/helpers/ftp-configs.ts,
 * shared with the bench): ProFTPD (proftpd-basic) and Pure-FTPd (pure-ftpd),
 * each as people configure it (anonymous read with local logins in clear
 * text; an anonymous drop box) and hardened (no anonymous, AUTH TLS
 * required; ProFTPD without mod_copy). ProFTPD's mod_copy: Debian's 1.3.8
 * with mod_copy loaded refuses SITE CPFR before login (the fix of
 * CVE-2015-3306) and must not be reported; the positive case is a loopback
 * replay of ProFTPD 1.3.5's documented replies, since no vulnerable
 * ProFTPD is packaged.
 */
import assert from 'node:assert/strict';
import { chmodSync } from 'node:fs';
import { createServer } from 'node:net';
import { test } from 'node:test';
import { daemon, tempDir } from '../../../../test/helpers/daemons-kit.ts';
import {
  type FtpPlan,
  PROFTPD,
  PROFTPD_TLS,
  PUREFTPD,
  proftpdConf,
  pureFtpdCommand,
} from '../../../../test/helpers/ftp-configs.ts';
import { certificate, hostOf, netFor, service } from '../../../../test/helpers/web-daemons.ts';
import { checkById } from '../catalogue.ts';

const A = (n: number) => `127.0.215.${n}`;

type Plan = Omit<FtpPlan, 'port' | 'dir'>;
const dirFor = (tag: string) => {
  const d = tempDir(tag);
  chmodSync(d, 0o755); // the daemons chroot the anonymous user below it
  return d;
};
const tls = () => certificate(dirFor('ftp-cert'));

const proftpd = (plan: Plan) => {
  const dir = dirFor('proftpd');
  return daemon(plan.address, PROFTPD!, (port) => ['-n', '-q', '-c', proftpdConf({ ...plan, port, dir })]);
};
const pureftpd = (plan: Plan) => {
  const dir = dirFor('pureftpd');
  const cmd = pureFtpdCommand({ ...plan, port: 0, dir })[0];
  return daemon(plan.address, cmd, (port) => pureFtpdCommand({ ...plan, port, dir })[1]);
};

/** Weak read (anonymous, local logins in clear text), weak write (an anonymous drop box), hardened; once per product. */
type Trio = { read: number; write: number; hard: number; a: [string, string, string] };
const started = new Map<string, Promise<Trio>>();
function trio(name: string, start: (p: Plan) => Promise<number>, base: number, modCopy: boolean): Promise<Trio> {
  let t = started.get(name);
  if (!t) {
    const a: [string, string, string] = [A(base), A(base + 1), A(base + 2)];
    t = (async () => {
      const [read, write, hard] = await Promise.all([
        start({ address: a[0], anon: 'read', modCopy }),
        start({ address: a[1], anon: 'write' }),
        // ProFTPD's mod_tls is a package of its own (proftpd-mod-crypto): without it, logins only from 10/8.
        start(
          name === 'ProFTPD' && !PROFTPD_TLS
            ? { address: a[2], anon: 'off', loginsFrom: '10.0.0.0/8' }
            : { address: a[2], anon: 'off', tls: tls() },
        ),
      ]);
      return { read, write, hard, a };
    })();
    started.set(name, t);
  }
  return t;
}

const run = (id: string, address: string, port: number) =>
  checkById(id).runOn(hostOf(address, [service(port, 'ftp')]), netFor(address));

for (const [name, bin, start, base, pkg] of [
  ['ProFTPD', PROFTPD, proftpd, 10, 'proftpd-basic'],
  ['Pure-FTPd', PUREFTPD, pureftpd, 20, 'pure-ftpd'],
] as const) {
  const skip = bin ? false : `${name} is not installed (apt-get install ${pkg})`;
  const up = () => trio(name, start, base, name === 'ProFTPD');

  test(`${name}: anonymous login is found on both weak servers; the hardened one is silent`, { skip }, async () => {
    const { read, write, hard, a } = await up();
    assert.match((await run('vigil.ftp.anonymous', a[0], read))[0]!.detail, /USER anonymous was logged in \(230\)/);
    assert.equal((await run('vigil.ftp.anonymous', a[1], write)).length, 1);
    assert.deepEqual(await run('vigil.ftp.anonymous', a[2], hard), []);
  });

  test(`${name}: an anonymous upload into incoming/ is found; read-only anonymous and the hardened server are not`, {
    skip,
  }, async () => {
    const { read, write, hard, a } = await up();
    const [f] = await run('vigil.ftp.anonymous-write', a[1], write);
    assert.match(f!.detail, /^anonymous STOR of vigil-audit-[0-9a-f]+\.txt in \/incoming succeeded \(226\)/);
    assert.deepEqual(await run('vigil.ftp.anonymous-write', a[0], read), []);
    assert.deepEqual(await run('vigil.ftp.anonymous-write', a[2], hard), []);
  });

  test(`${name}: logins in clear text are found; the hardened server is not`, { skip }, async () => {
    const { read, hard, a } = await up();
    const [f] = await run('vigil.ftp.cleartext-login', a[0], read);
    // Pure-FTPd built with TLS lists AUTH TLS in FEAT even when it has no certificate to offer (--tls 0).
    assert.match(
      f!.detail,
      /^USER before any TLS answered "331.*(FEAT offers no AUTH TLS|AUTH TLS is offered but not required)/,
    );
    assert.deepEqual(await run('vigil.ftp.cleartext-login', a[2], hard), []);
  });

  test(`${name}: SITE CPFR before login is refused (no mod_copy finding) on every configuration`, {
    skip,
  }, async () => {
    const { read, write, hard, a } = await up();
    for (const [address, port] of [
      [a[0], read],
      [a[1], write],
      [a[2], hard],
    ] as const)
      assert.deepEqual(await run('vigil.ftp.mod-copy-unauthenticated', address, port), [], `${address}:${port}`);
  });
}

test('mod_copy before 1.3.5a (a replay of its documented replies): SITE CPFR before login answered 350 is found, and no CPTO is sent', async (t) => {
  const address = A(30);
  const seen: string[] = [];
  const server = createServer((s) => {
    s.on('error', () => {});
    s.write('220 ProFTPD 1.3.5 Server (Debian) [127.0.215.30]\r\n');
    s.on('data', (d) => {
      for (const cmd of d.toString('latin1').split('\r\n').filter(Boolean)) {
        seen.push(cmd);
        if (cmd.startsWith('SITE CPFR')) s.write('350 File or directory exists, ready for destination name\r\n');
        else if (cmd === 'QUIT') s.end('221 Goodbye.\r\n');
        else s.write('500 Unknown command\r\n');
      }
    });
  });
  const port = await new Promise<number>((r) =>
    server.listen(0, address, () => r((server.address() as { port: number }).port)),
  );
  t.after(() => server.close());
  const [f] = await run('vigil.ftp.mod-copy-unauthenticated', address, port);
  assert.equal(
    f!.detail,
    '"SITE CPFR /etc/passwd" before any USER was answered "350 File or directory exists, ready for destination name": the copy source was accepted without a login (the copy was not completed: no CPTO was sent).',
  );
  assert.ok(!seen.some((c) => /CPTO|USER|PASS/.test(c)), seen.join(' | '));
});
