import assert from 'node:assert/strict';
import { createSocket } from 'node:dgram';
import { test } from 'node:test';
import * as dnsPacket from 'dns-packet';
import { Fence } from '../../engine/fence.ts';
import type { HostFacts, Net, Service } from '../../engine/types.ts';
import { compareVersions, inRange, parseRanges } from './lib/version-compare.ts';
import { sightings } from './lib/version-extract.ts';
import bindVersion from '../dns/bind-version.ts';
import outdatedProducts from './outdated-products.ts';
import { VERSION_TABLE } from '../data/version-table.ts';

const VERSION_CHECKS = [...outdatedProducts, bindVersion];

const svc = (over: Partial<Service>): Service => ({
  port: 1,
  protocol: 'tcp',
  name: 'unknown',
  product: null,
  version: null,
  banner: null,
  tls: null,
  http: null,
  extra: {},
  ...over,
});
const web = (server: string, extra: Record<string, string> = {}) =>
  svc({ port: 80, name: 'http', http: { status: 200, headers: { server, ...extra }, body: '' } });

/** A service announcing `version` of `product` the way the real one does. */
const announce: Record<string, (v: string) => Service> = {
  apache: (v) => web(`Apache/${v} (Unix)`),
  nginx: (v) => web(`nginx/${v}`),
  openssl: (v) => web(`Apache/2.4.99 (Unix) OpenSSL/${v}`),
  php: (v) => web('Apache', { 'x-powered-by': `PHP/${v}` }),
  openssh: (v) => svc({ port: 22, name: 'ssh', banner: `SSH-2.0-OpenSSH_${v}` }),
  vsftpd: (v) => svc({ port: 21, name: 'ftp', banner: `220 (vsFTPd ${v})` }),
  proftpd: (v) =>
    svc({ port: 21, name: 'ftp', banner: `220 ProFTPD ${v} Server (ProFTPD Default Installation) [127.0.0.1]` }),
  exim: (v) =>
    svc({ port: 25, name: 'smtp', banner: `220 mail.example.com ESMTP Exim ${v} Mon, 01 Jan 2024 00:00:00 +0000` }),
  bind: (v) => svc({ port: 53, name: 'domain', extra: { 'version.bind': v } }),
  mysql: (v) => svc({ port: 3306, name: 'mysql', banner: `${v}-log` }),
  redis: (v) => svc({ port: 6379, name: 'redis', banner: `# Server\r\nredis_version:${v}\r\nredis_git_sha1:00000000` }),
};

async function flagged(product: string, cve: string, version: string): Promise<boolean> {
  const check = VERSION_CHECKS.find((c) => c.id === `vigil.version.${product}`);
  assert.ok(check, `no check for ${product}`);
  assert.ok(check.cves.includes(cve), `${product} has no row for ${cve}`);
  const s = announce[product]!(version);
  const found = await check.runOn({ address: '127.0.0.1', openPorts: [s.port], services: [s] }, null as unknown as Net);
  assert.ok(found.length <= 1, 'one finding per product per port');
  return found.some((f) => f.cves?.includes(cve));
}

// [product, cve, versions flagged, versions not flagged]: first/last affected and just outside.
const EDGES: [string, string, string[], string[]][] = [
  ['apache', 'CVE-2021-41773', ['2.4.49'], ['2.4.48', '2.4.50']],
  ['apache', 'CVE-2021-42013', ['2.4.49', '2.4.50'], ['2.4.48', '2.4.51']],
  ['apache', 'CVE-2017-7668', ['2.2.32', '2.4.24', '2.4.25'], ['2.2.31', '2.2.33', '2.4.23', '2.4.26']],
  ['apache', 'CVE-2011-3192', ['2.2.19', '2.0.64'], ['2.2.20', '2.4.1']],
  ['nginx', 'CVE-2021-23017', ['0.6.18', '1.20.0'], ['0.6.17', '1.20.1', '1.21.0']],
  ['nginx', 'CVE-2017-7529', ['0.5.6', '1.12.0', '1.13.2'], ['0.5.5', '1.12.1', '1.13.3']],
  ['openssl', 'CVE-2014-0160', ['1.0.1', '1.0.1a', '1.0.1f'], ['1.0.0t', '1.0.1g', '1.0.2']],
  ['openssl', 'CVE-2014-0224', ['0.9.8y', '1.0.0l', '1.0.1g'], ['0.9.8za', '1.0.0m', '1.0.1h', '1.0.2']],
  ['openssl', 'CVE-2022-0778', ['1.0.2zc', '1.1.1m', '3.0.1'], ['1.0.2zd', '1.1.1n', '3.0.2']],
  ['php', 'CVE-2019-11043', ['7.1.0', '7.1.32', '7.2.23', '7.3.10'], ['7.0.33', '7.1.33', '7.2.24', '7.3.11', '7.4.0']],
  ['openssh', 'CVE-2024-6387', ['4.3p2', '8.5p1', '9.7p1'], ['4.4p1', '8.4p1', '9.8p1', '9.8', '9.9p1']],
  ['openssh', 'CVE-2023-38408', ['9.3p1', '7.4'], ['9.3p2', '9.4p1']],
  ['openssh', 'CVE-2018-15473', ['7.7p1', '7.4'], ['7.8p1', '7.8']],
  ['vsftpd', 'CVE-2011-2523', ['2.3.4'], ['2.3.3', '2.3.5', '3.0.3']],
  ['proftpd', 'CVE-2015-3306', ['1.3.5', '1.3.5rc4', '1.3.4d'], ['1.3.5a', '1.3.6']],
  ['proftpd', 'CVE-2010-4221', ['1.3.2rc3', '1.3.3b'], ['1.3.2rc2', '1.3.3c']],
  ['exim', 'CVE-2019-10149', ['4.87', '4.91'], ['4.86.2', '4.92']],
  ['exim', 'CVE-2019-16928', ['4.92', '4.92.2'], ['4.91', '4.92.3']],
  ['bind', 'CVE-2015-5477', ['9.9.7-P1', '9.1.0', '9.10.2-P2'], ['9.0.1', '9.9.7-P2', '9.9.8', '9.10.2-P3']],
  ['bind', 'CVE-2023-50387', ['9.16.47', '9.18.23'], ['9.16.48', '9.18.24']],
  ['mysql', 'CVE-2012-2122', ['5.1.62', '5.5.0', '5.5.23'], ['5.1.63', '5.5.24', '5.6.6']],
  ['redis', 'CVE-2022-24834', ['6.0.19', '7.0.11', '2.6.0'], ['6.0.20', '6.2.13', '7.0.12', '7.2.0']],
  ['redis', 'CVE-2025-49844', ['6.2.19', '7.4.5', '8.2.1'], ['6.2.20', '7.2.11', '7.4.6', '8.2.2']],
];

test('table rows at their range edges', async () => {
  for (const [product, cve, yes, no] of EDGES) {
    for (const v of yes)
      assert.equal(await flagged(product, cve, v), true, `${product} ${v} should be flagged for ${cve}`);
    for (const v of no)
      assert.equal(await flagged(product, cve, v), false, `${product} ${v} should not be flagged for ${cve}`);
  }
});

test('every row: first affected version in range, fixed version out of range, ranges well formed', () => {
  let rows = 0;
  for (const table of VERSION_TABLE) {
    for (const row of table.rows) {
      rows++;
      assert.match(row.cve, /^CVE-\d{4}-\d{4,}( CVE-\d{4}-\d{4,})*$/);
      for (const r of parseRanges(row.affected)) {
        if (r.from)
          assert.ok(inRange(r.from, [r]) && compareVersions(r.from, r.fixed) < 0, `${row.cve} ${row.affected}`);
        assert.ok(!inRange(r.fixed, parseRanges(row.affected)), `${row.cve}: fixed ${r.fixed} still in range`);
      }
    }
  }
  assert.ok(rows >= 150, `only ${rows} rows`);
});

test('one check per product table, unique ids, passive HOLEs', () => {
  const ids = VERSION_CHECKS.map((c) => c.id);
  assert.equal(new Set(ids).size, ids.length);
  assert.equal(new Set(VERSION_CHECKS.map((c) => c.shortid)).size, ids.length);
  assert.equal(ids.length, VERSION_TABLE.length + 1);
  for (const c of VERSION_CHECKS) {
    if (c.id === 'vigil.version.bind.version-bind') continue;
    assert.ok(c.categories.includes('passive'));
    assert.equal(c.type, 'HOLE');
  }
  assert.ok(ids.includes('vigil.version.apache'));
  assert.ok(VERSION_CHECKS.find((c) => c.id === 'vigil.version.apache')!.cves.includes('CVE-2021-41773'));
});

test('comparator: real-world forms', () => {
  assert.ok(compareVersions('1.0.1', '1.0.1a') < 0);
  assert.ok(compareVersions('7.4', '7.4p1') < 0);
  assert.ok(compareVersions('7.4p1', '7.5') < 0);
  assert.ok(compareVersions('9.9.7', '9.9.7-P1') < 0 && compareVersions('9.9.7-P1', '9.9.8') < 0);
  assert.ok(compareVersions('1.3.6rc2', '1.3.6') < 0 && compareVersions('1.3.6', '1.3.6a') < 0);
  assert.ok(compareVersions('2.3.14.1', '2.3.14') > 0);
  assert.ok(compareVersions('0.9.8za', '0.9.8z') > 0 && compareVersions('1.0.2zd', '1.0.2k') > 0);
  assert.equal(compareVersions('2.4.49', '2.4.49'), 0);
});

const one = (s: Service) =>
  sightings(s)
    .map((x) => `${x.product} ${x.version}${x.distro ? ` [${x.distro}]` : ''}`)
    .sort();

test('extractors on real banners and headers', () => {
  assert.deepEqual(one(web('Apache/2.4.49 (Unix) OpenSSL/1.0.2k')), ['apache 2.4.49', 'openssl 1.0.2k']);
  assert.deepEqual(one(web('Apache/2.4.6 (CentOS) OpenSSL/1.0.2k-fips PHP/5.4.16')), [
    'apache 2.4.6 [CentOS]',
    'openssl 1.0.2k [CentOS]',
    'php 5.4.16 [CentOS]',
  ]);
  assert.deepEqual(one(web('Apache/2.4.38 (Debian)')), ['apache 2.4.38 [Debian]']);
  assert.deepEqual(one(web('nginx/1.18.0 (Ubuntu)')), ['nginx 1.18.0 [Ubuntu]']);
  assert.deepEqual(one(web('nginx')), []);
  assert.deepEqual(one(web('Microsoft-IIS/7.5')), ['iis 7.5']);
  assert.deepEqual(one(web('lighttpd/1.4.35')), ['lighttpd 1.4.35']);
  assert.deepEqual(one(web('Apache', { 'x-powered-by': 'PHP/5.6.40' })), ['php 5.6.40']);
  assert.deepEqual(one(web('Apache', { 'x-powered-by': 'PHP/7.4.3-4ubuntu2.18' })), ['php 7.4.3 [Ubuntu]']);
  assert.deepEqual(one(svc({ name: 'ssh', banner: 'SSH-2.0-OpenSSH_7.4' })), ['openssh 7.4']);
  assert.deepEqual(one(svc({ name: 'ssh', banner: 'SSH-2.0-OpenSSH_9.2p1 Debian-2+deb12u3' })), [
    'openssh 9.2p1 [Debian]',
  ]);
  assert.deepEqual(one(svc({ name: 'ssh', banner: 'SSH-2.0-OpenSSH_8.9p1 Ubuntu-3ubuntu0.10' })), [
    'openssh 8.9p1 [Ubuntu]',
  ]);
  assert.deepEqual(one(svc({ name: 'ftp', banner: '220 (vsFTPd 2.3.4)' })), ['vsftpd 2.3.4']);
  assert.deepEqual(one(svc({ name: 'ftp', banner: '220 ProFTPD 1.3.5 Server (Debian) [::ffff:10.0.0.5]' })), [
    'proftpd 1.3.5 [Debian]',
  ]);
  assert.deepEqual(one(svc({ name: 'ftp', banner: '220 ProFTPD 1.3.5a Server (ProFTPD)' })), ['proftpd 1.3.5a']);
  assert.deepEqual(
    one(svc({ name: 'ftp', banner: '220---------- Welcome to Pure-FTPd [privsep] [TLS] ----------' })),
    [],
  );
  assert.deepEqual(one(svc({ name: 'ftp', product: 'Pure-FTPd', version: '1.0.49' })), ['pureftpd 1.0.49']);
  assert.deepEqual(one(svc({ name: 'smtp', banner: '220 mail ESMTP Exim 4.89' })), ['exim 4.89']);
  assert.deepEqual(
    one(svc({ name: 'smtp', banner: '220 mx.example.org ESMTP Exim 4.92.3 #3 Thu, 10 Oct 2019 10:00:00 +0000' })),
    ['exim 4.92.3'],
  );
  assert.deepEqual(
    one(svc({ name: 'smtp', banner: '220 mail.example.com ESMTP Sendmail 8.14.4/8.14.4; Mon, 1 Jan 2018 00:00:00' })),
    ['sendmail 8.14.4'],
  );
  assert.deepEqual(one(svc({ name: 'smtp', banner: '220 mail.example.com ESMTP Postfix (Debian/GNU)' })), []);
  assert.deepEqual(
    one(svc({ name: 'imap', banner: '* OK [CAPABILITY IMAP4rev1 SASL-IR] Dovecot (Ubuntu) ready.' })),
    [],
  );
  assert.deepEqual(one(svc({ name: 'imap', product: 'Dovecot imapd', version: '2.3.4.1' })), ['dovecot 2.3.4.1']);
  assert.deepEqual(one(svc({ name: 'mysql', banner: '5.5.62-0+deb8u1' })), ['mysql 5.5.62 [Debian]']);
  assert.deepEqual(one(svc({ name: 'mysql', banner: 'J\n5.7.44-log\0\x08\0\0\0mysql_native_password' })), [
    'mysql 5.7.44',
  ]);
  assert.deepEqual(one(svc({ name: 'mysql', banner: '5.5.5-10.3.39-MariaDB-0+deb10u1' })), [
    'mariadb 10.3.39 [Debian]',
  ]);
  assert.deepEqual(one(svc({ name: 'redis', extra: { info: 'redis_version:5.0.7' } })), ['redis 5.0.7']);
  assert.deepEqual(one(svc({ name: 'domain', extra: { 'version.bind': '9.11.5-P4-5.1+deb10u5-Debian' } })), [
    'bind 9.11.5-P4 [Debian]',
  ]);
  assert.deepEqual(one(svc({ name: 'domain', extra: { 'version.bind': '9.18.28-1~deb12u2-Debian' } })), [
    'bind 9.18.28 [Debian]',
  ]);
  assert.deepEqual(one(svc({ name: 'domain', port: 53, extra: { 'version.bind': 'none of your business' } })), []);
});

test('odd input never throws', async () => {
  const odd = [
    svc({ banner: '\0\xff'.repeat(400) }),
    svc({ http: { status: 0, headers: {}, body: '' }, extra: { x: undefined as unknown as string } }),
  ];
  for (const c of VERSION_CHECKS.filter((c) => c.categories.includes('passive'))) {
    assert.deepEqual(
      await c.runOn({ address: '127.0.0.1', openPorts: [1], services: odd }, null as unknown as Net),
      [],
    );
  }
});

test('a distro package whose revision has the fix is not flagged; an undecidable one is LOG-grade (QoD 30)', async () => {
  const check = VERSION_CHECKS.find((c) => c.id === 'vigil.version.openssh')!;
  const run = (banner: string) =>
    check.runOn(
      { address: '127.0.0.1', openPorts: [22], services: [svc({ port: 22, name: 'ssh', banner })] },
      null as unknown as Net,
    );
  const [late] = await run('SSH-2.0-OpenSSH_9.2p1 Debian-2+deb12u3');
  assert.ok(!late!.cves!.includes('CVE-2023-48795') && !late!.cves!.includes('CVE-2024-6387'), late!.cves!.join(' '));
  const [f] = await run('SSH-2.0-OpenSSH_9.2p1 Debian-2+deb12u1');
  assert.ok(f!.cves!.includes('CVE-2023-48795'));
  assert.match(f!.detail, /SSH-2\.0-OpenSSH_9\.2p1 Debian-2\+deb12u1/);
  assert.match(f!.detail, /CVE-2023-48795 \(.*\[distribution fix: 9\.2p1-2\+deb12u2\]/);
  assert.match(f!.solution!, /Debian 12 \(bookworm\) package 9\.2p1-2\+deb12u\d+ or later/);
  const [g] = await run('SSH-2.0-OpenSSH_9.2p1 Raspbian-2');
  assert.equal(g!.qod, 30);
  assert.match(g!.title!, /^OpenSSH 9\.2p1 may be outdated/);
  assert.match(g!.detail, /backport/);
});

test('version.bind: asks over UDP and reports the text and the affected BIND rows', async (t) => {
  const server = createSocket('udp4');
  server.on('message', (msg, rinfo) => {
    const q = dnsPacket.decode(msg);
    const question = q.questions![0]!;
    const reply = dnsPacket.encode({
      type: 'response',
      id: q.id,
      flags: dnsPacket.AUTHORITATIVE_ANSWER,
      questions: q.questions,
      answers: [{ type: 'TXT', class: 'CH', name: question.name, ttl: 0, data: ['9.11.5-P4-5.1+deb10u5-Debian'] }],
    });
    server.send(reply, rinfo.port, rinfo.address);
  });
  await new Promise<void>((r) => server.bind(0, '127.0.0.1', () => r()));
  t.after(() => server.close());
  const port = server.address().port;
  const net = new Fence(['127.0.0.1'], ['127.0.0.1']).net('127.0.0.1', 1500);
  const check = VERSION_CHECKS.find((c) => c.id === 'vigil.version.bind.version-bind')!;
  assert.ok(!check.categories.includes('passive'));
  const host: HostFacts = { address: '127.0.0.1', openPorts: [port], services: [svc({ port, name: 'domain' })] };
  const found = (await check.runOn(host, net)).filter((f) => f.port === port);
  assert.match(found[0]!.detail, /9\.11\.5-P4-5\.1\+deb10u5-Debian/);
  // The disclosure, then one outdated-BIND finding carrying every affected CVE.
  assert.equal(found.length, 2);
  const cves = found[1]!.cves ?? [];
  assert.ok(cves.includes('CVE-2020-8616') && cves.includes('CVE-2023-50387'), cves.join(' '));
  assert.ok(!cves.includes('CVE-2015-5477'));
  assert.match(found[1]!.title!, /^ISC BIND 9\.11\.5-P4 (may be|is) outdated/);
  assert.match(found[1]!.solution!, /ISC BIND to 9\.\d+\.\d+ or later/);
});
