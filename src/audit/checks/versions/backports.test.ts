import assert from 'node:assert/strict';
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { QOD_THRESHOLD, settle } from '../../engine/qod.ts';
import type { Check, Net, Service } from '../../engine/types.ts';
import { compareDebian } from './lib/backports-dpkg.ts';
import { judge, placeRelease, revisionOf } from './lib/backports.ts';
import bindVersion from '../dns/bind-version.ts';
import outdatedProducts from './outdated-products.ts';

const VERSION_CHECKS = [...outdatedProducts, bindVersion];

/**
 * SIGTERM, then wait: Apache's and nginx's masters stop their workers on it,
 * where a SIGKILL to the master leaves the workers running.
 */
function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

const svc = (over: Partial<Service>): Service => ({
  port: 22,
  protocol: 'tcp',
  name: 'ssh',
  product: null,
  version: null,
  banner: null,
  tls: null,
  http: null,
  extra: {},
  ...over,
});
const noNet = null as unknown as Net;

/** Every version-table finding for one service, with what the report would make of it. */
async function versionFindings(s: Service) {
  const out: { id: string; cves: readonly string[]; qod: number; type: string; detail: string }[] = [];
  for (const check of VERSION_CHECKS.filter((c) => c.categories.includes('passive'))) {
    for (const f of await check.runOn({ address: '127.0.0.1', openPorts: [s.port], services: [s] }, noNet)) {
      const { qod, type } = settle(check, f);
      out.push({ id: check.id, cves: f.cves ?? check.cves, qod, type, detail: f.detail });
    }
  }
  return out;
}

test('dpkg version ordering (deb-version(7) examples and dpkg --compare-versions)', () => {
  const lt = (a: string, b: string) => assert.ok(compareDebian(a, b) < 0 && compareDebian(b, a) > 0, `${a} < ${b}`);
  lt('9.2p1-2+deb12u3', '9.2p1-2+deb12u10');
  lt('1.0~rc1-1', '1.0-1');
  lt('1.0-1', '1.0-1+b1');
  lt('2.4.59-1~deb12u1', '2.4.59-1');
  lt('9.18.24-1', '9.18.28-1~deb12u1');
  lt('8.9p1-3ubuntu0.5', '8.9p1-3ubuntu0.10');
  lt('1:0.1-1', '2:0.0-1');
  lt('1.0', '1.0-0.1');
  assert.equal(compareDebian('1:9.2p1-2+deb12u2', '1:9.2p1-2+deb12u2'), 0);
  assert.equal(compareDebian('1.00', '1.0'), 0);
  let dpkg = false;
  try {
    execFileSync('dpkg', ['--version']);
    dpkg = true;
  } catch {}
  if (!dpkg) return;
  const pairs = [
    ['9.2p1-2+deb12u10', '9.2p1-2+deb12u9'],
    ['1.0~', '1.0'],
    ['1.0a', '1.0+'],
    ['1.0.', '1.0a'],
    ['0ubuntu0.22.04.1', '0ubuntu0.22.04.10'],
  ];
  for (const [a, b] of pairs) {
    const dpkgSays = (op: string) => {
      try {
        execFileSync('dpkg', ['--compare-versions', a!, op, b!]);
        return true;
      } catch {
        return false;
      }
    };
    assert.equal(compareDebian(a!, b!) < 0, dpkgSays('lt'), `${a} lt ${b}`);
  }
});

test('package revisions and releases are read off banners', () => {
  assert.equal(revisionOf('SSH-2.0-OpenSSH_9.2p1 Debian-2+deb12u10', '9.2p1', 'Debian'), '2+deb12u10');
  assert.equal(revisionOf('9.18.28-1~deb12u2-Debian', '9.18.28', 'Debian'), '1~deb12u2');
  assert.equal(revisionOf('5.5.5-10.11.6-MariaDB-0+deb12u1', '10.11.6', 'Debian'), '0+deb12u1');
  assert.equal(revisionOf('SSH-2.0-OpenSSH_8.9p1 Ubuntu-3ubuntu0.10', '8.9p1', 'Ubuntu'), '3ubuntu0.10');
  assert.equal(revisionOf('5.7.44-log', '5.7.44', null), null);
  assert.equal(revisionOf('Server: Apache/2.4.62 (Debian)', '2.4.62', 'Debian'), null);
  assert.equal(placeRelease('openssh', '9.2p1', '2+deb12u10', 'Debian')?.id, 'debian12');
  assert.equal(placeRelease('openssh', '8.9p1', '3ubuntu0.10', 'Ubuntu')?.id, 'ubuntu2204');
  assert.equal(placeRelease('openssh', '10.0p1', '7', 'Debian')?.id, 'debian13');
  assert.equal(placeRelease('apache', '2.4.62', null, 'Debian'), null);
});

test('Debian 12 OpenSSH: the fully patched package raises nothing; an old revision only what it lacks', async () => {
  const patched = await versionFindings(svc({ banner: 'SSH-2.0-OpenSSH_9.2p1 Debian-2+deb12u10' }));
  assert.deepEqual(
    patched.filter((f) => f.type !== 'LOG'),
    [],
    JSON.stringify(patched),
  );
  const old = await versionFindings(svc({ banner: 'SSH-2.0-OpenSSH_9.2p1 Debian-2+deb12u2' }));
  // deb12u2 has the Terrapin and 38408 fixes, not regreSSHion (deb12u3) nor CVE-2025-26465 (deb12u5).
  assert.equal(old.length, 1, 'one finding for the one sshd');
  assert.deepEqual([...old[0]!.cves].sort(), ['CVE-2024-6387', 'CVE-2025-26465']);
  assert.ok(old.every((f) => f.type === 'HOLE' && f.qod >= QOD_THRESHOLD));
  assert.match(old[0]!.detail, /^CVE-2024-6387 .*\[distribution fix: 9\.2p1-2\+deb12u3\]$/m);
  assert.match(old[0]!.detail, /predates the distribution's fix of CVE-2024-6387, CVE-2025-26465/);
  // Upstream 9.3p1 (no distribution ships it) without a mark: every row's CVE in one HOLE at the banner's QoD.
  const upstream = await versionFindings(svc({ banner: 'SSH-2.0-OpenSSH_9.3p1' }));
  assert.deepEqual(
    upstream.map((f) => [f.type, f.qod, f.cves.length]),
    [['HOLE', 80, 5]],
  );
});

test('a distribution mark without a revision (Apache "(Debian)", a bare nginx 1.22.1) is LOG at QoD 30, never a HOLE', async () => {
  const apache = await versionFindings(
    svc({ port: 80, name: 'http', http: { status: 200, headers: { server: 'Apache/2.4.62 (Debian)' }, body: '' } }),
  );
  assert.ok(apache.length > 0);
  for (const f of apache) {
    assert.deepEqual([f.type, f.qod], ['LOG', 30], f.id);
    assert.match(f.detail, /whose revision the banner does not show/);
  }
  const nginx = await versionFindings(
    svc({ port: 80, name: 'http', http: { status: 200, headers: { server: 'nginx/1.22.1' }, body: '' } }),
  );
  assert.ok(nginx.some((f) => f.cves.includes('CVE-2023-44487')));
  for (const f of nginx) assert.deepEqual([f.type, f.qod], ['LOG', 30], f.id);
  assert.match(nginx[0]!.detail, /exactly the version Debian 12 \(bookworm\) ships/);
  // A version no tracked distribution ships stays a HOLE.
  const old = await versionFindings(
    svc({ port: 80, name: 'http', http: { status: 200, headers: { server: 'nginx/1.21.0' }, body: '' } }),
  );
  assert.ok(old.some((f) => f.type === 'HOLE' && f.qod === 80));
});

test('judge: a CVE the release table does not know is undecided, not dropped', () => {
  const s = {
    product: 'openssh' as const,
    version: '8.4p1',
    seen: 'SSH-2.0-OpenSSH_8.4p1 Debian-5+deb11u3',
    distro: 'Debian',
  };
  assert.deepEqual(judge('openssh', s, ['CVE-2023-48795']), { kind: 'fixed' });
  const v = judge('openssh', s, ['CVE-2025-26465']);
  assert.equal(v.kind === 'report' && v.qod, 30);
});

test("the real local sshd's banner: no version-table HOLE on this host's package", async (t) => {
  const sshd = '/usr/sbin/sshd';
  if (!existsSync(sshd) || !existsSync('/usr/bin/ssh-keygen')) return t.skip('openssh-server not installed');
  const dir = mkdtempSync(join(tmpdir(), 'vigil-sshd-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', join(dir, 'key')]);
  const address = '127.0.41.22';
  const child = spawn(
    sshd,
    ['-D', '-e', '-f', '/dev/null', '-h', join(dir, 'key'), '-o', `ListenAddress=${address}:22`, '-o', 'PidFile=none'],
    { stdio: 'ignore' },
  );
  t.after(() => stop(child));
  let banner = '';
  for (let i = 0; i < 50 && !banner; i++) {
    banner = await new Promise<string>((resolve) => {
      const s = connect(22, address);
      s.once('data', (d) => {
        resolve(d.toString('latin1').split('\r\n')[0]!);
        s.destroy();
      });
      s.once('error', () => setTimeout(() => resolve(''), 100));
    });
  }
  assert.match(banner, /^SSH-2\.0-OpenSSH_/);
  const found = await versionFindings(svc({ banner }));
  const installed = execFileSync('dpkg-query', ['-W', '-f=${Version}', 'openssh-server'], { encoding: 'utf8' });
  t.diagnostic(
    `${banner} (package ${installed}): ${found.length} findings, ${found.filter((f) => f.type === 'HOLE').length} HOLE`,
  );
  // This host's package is current: nothing it fixed may come out as a HOLE.
  if (/Debian-2\+deb12u(\d+)/.exec(banner) && Number(/deb12u(\d+)/.exec(banner)![1]) >= 5)
    assert.deepEqual(
      found.filter((f) => f.type === 'HOLE'),
      [],
    );
});

/** The Server header of a real Debian web server started on `address`, or null when its binary is missing. */
async function realServerHeader(t: TestContext, which: 'apache2' | 'nginx', address: string): Promise<string | null> {
  const bin = `/usr/sbin/${which}`;
  if (!existsSync(bin)) return null;
  const dir = mkdtempSync(join(tmpdir(), `vigil-${which}-`));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'index.html'), 'hello\n');
  const conf = join(dir, 'server.conf');
  if (which === 'nginx') {
    // Debian's nginx.conf leaves server_tokens at its default (on): "nginx/1.22.1", no distribution mark.
    writeFileSync(
      conf,
      `pid ${dir}/pid; error_log ${dir}/err; events {} http { access_log off; server { listen ${address}:80; root ${dir}; } }`,
    );
  } else {
    // Debian's security.conf says ServerTokens OS: "Apache/2.4.x (Debian)".
    writeFileSync(
      conf,
      [
        `ServerRoot ${dir}`,
        `PidFile ${dir}/pid`,
        `ErrorLog ${dir}/err`,
        'LoadModule mpm_event_module /usr/lib/apache2/modules/mod_mpm_event.so',
        'LoadModule authz_core_module /usr/lib/apache2/modules/mod_authz_core.so',
        `Listen ${address}:80`,
        'User nobody',
        'Group nogroup',
        'ServerName localhost',
        'ServerTokens OS',
        `DocumentRoot ${dir}`,
        `<Directory ${dir}>`,
        'Require all granted',
        '</Directory>',
      ].join('\n'),
    );
  }
  const args = which === 'nginx' ? ['-p', dir, '-c', conf, '-g', 'daemon off;'] : ['-f', conf, '-DFOREGROUND'];
  const child = spawn(bin, args, { stdio: 'ignore' });
  t.after(() => stop(child));
  for (let i = 0; i < 50; i++) {
    const server = await new Promise<string | null>((resolve) => {
      get({ host: address, port: 80, path: '/' }, (res) => {
        res.resume();
        resolve(String(res.headers.server ?? ''));
      }).on('error', () => setTimeout(() => resolve(null), 100));
    });
    if (server !== null) return server;
  }
  throw new Error(`${which} did not start on ${address}`);
}

test('real Debian Apache and nginx banners: every version finding is LOG at QoD 30, never a HOLE', async (t) => {
  for (const [which, address] of [
    ['apache2', '127.0.41.80'],
    ['nginx', '127.0.41.81'],
  ] as const) {
    const server = await realServerHeader(t, which, address);
    if (server === null) {
      t.diagnostic(`${which} not installed: skipped`);
      continue;
    }
    const found = await versionFindings(
      svc({ port: 80, name: 'http', http: { status: 200, headers: { server }, body: '' } }),
    );
    t.diagnostic(
      `${which} "${server}": ${found.length} version findings, ${found.filter((f) => f.type !== 'LOG').length} above LOG`,
    );
    for (const f of found) assert.deepEqual([f.type, f.qod], ['LOG', 30], `${which} ${server}: ${f.id}`);
  }
});

test('settle: below the QoD threshold a finding is LOG with risk other', () => {
  const check = { type: 'HOLE', risk: 'high', categories: ['safe', 'passive'] } as unknown as Check;
  assert.deepEqual(settle(check, { port: 1, detail: '', qod: 30 }), { qod: 30, type: 'LOG', risk: 'other' });
  assert.deepEqual(settle(check, { port: 1, detail: '' }), { qod: 80, type: 'HOLE', risk: 'high' });
  assert.deepEqual(settle({ ...check, categories: ['safe'] }, { port: 1, detail: '', risk: 'low' }), {
    qod: 99,
    type: 'HOLE',
    risk: 'low',
  });
});
