/**
 * nmap's probe database as Vigil's fallback detection: the Perl→JS regex
 * translation, the templates, and real daemons our own families do not
 * know (rsyncd, Xvfb, slapd) named by it.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, test } from 'node:test';
import { rsyncd, slapd, xvfb } from '../../../test/helpers/daemons-auth.ts';
import { which } from '../../../test/helpers/daemons-kit.ts';
import { detectServices } from './detect.ts';
import { Fence } from './fence.ts';
import { matchReply } from './service-probes-run.ts';
import {
  fillTemplate,
  loadProbes,
  parseMatch,
  parseProbes,
  perlToJs,
  PROBES_PATH,
  unescapePayload,
} from './service-probes.ts';

describe('nmap-service-probes grammar', () => {
  test('Perl regexes become JS ones that match the same bytes', () => {
    // `.` is every byte but \n in Perl; JS's also skips \r.
    assert.ok(new RegExp(perlToJs('^220 (.*)\\r\\n$', false)).test('220 a\rb\r\n'));
    assert.ok(!new RegExp(perlToJs('^220 (.*)$', false)).test('220 a\nb'));
    assert.equal(new RegExp(perlToJs('^220 (.*)$', false)).exec('220 a\rb')?.[1], 'a\rb');
    // A `]` first in a class is literal in Perl.
    assert.ok(new RegExp(perlToJs('^[]x]+$', false)).test(']x]'));
    assert.ok(new RegExp(perlToJs('^[^]]+$', false)).test('abc'));
    assert.ok(new RegExp(perlToJs('\\Aab\\z', false)).test('ab'));
    assert.ok(new RegExp(perlToJs('^[[:digit:]]+$', false)).test('123'));
  });

  test('match lines: service, flags, templates, cpe', () => {
    const m = parseMatch(
      'match ftp m|^220 ([\\w.-]+) FTP server \\(Version (\\d[\\w.]+)\\)|si p/Foo ftpd/ v/$2/ i/host $1/ cpe:/a:foo:ftpd:$2/',
    );
    assert.ok(m && m !== 'bad');
    assert.equal(m.service, 'ftp');
    assert.ok(m.re.flags.includes('i') && m.re.flags.includes('s'));
    const r = m.re.exec('220 box.example FTP SERVER (Version 2.3a)\r\n')!;
    assert.equal(fillTemplate(m.fields.v!, r), '2.3a');
    assert.equal(fillTemplate(m.fields.i!, r), 'host box.example');
    assert.equal(fillTemplate(m.cpe[0]!, r), 'a:foo:ftpd:2.3a');
    assert.equal(
      fillTemplate('$P(1) $SUBST(2,".","_") $I(3,">")', /(.+) (.+) (..)/s.exec('a\x01b 1.2 \x01\x00')!),
      'ab 1_2 256',
    );
    assert.deepEqual(unescapePayload('\\0\\x41\\r\\n\\\\'), Buffer.from([0, 0x41, 13, 10, 0x5c]));
  });

  test('a reply is matched by its probe, its fallback, then NULL; a softmatch only names', () => {
    const db = parseProbes(
      [
        'Probe TCP NULL q||',
        'match rsync m|^@RSYNCD: (\\d+)| i/protocol $1/',
        'Probe TCP Hello q|hi\\r\\n|',
        'ports 1-10',
        'softmatch foo m|^FOO|',
        'match foo m|^FOO v(\\d)| v/$1/',
      ].join('\n'),
    );
    const hello = db.byName.get('TCP/Hello')!;
    assert.deepEqual(hello.payload, Buffer.from('hi\r\n'));
    assert.equal(matchReply(db, hello, Buffer.from('@RSYNCD: 31.0\n'))?.service, 'rsync');
    assert.deepEqual(matchReply(db, hello, Buffer.from('FOO v2')), {
      service: 'foo',
      product: null,
      version: '2',
      info: null,
      cpe: [],
      soft: false,
      probe: 'Hello',
    });
    assert.equal(matchReply(db, hello, Buffer.from('FOO bar'))?.soft, true);
  });

  test("Debian's database loads whole; the lines JS cannot compile are counted", {
    skip: !existsSync(PROBES_PATH) && 'nmap not installed',
  }, () => {
    const db = loadProbes(PROBES_PATH)!;
    assert.ok(db.probes.length > 100 && db.total > 10_000, `${db.probes.length} probes, ${db.total} lines`);
    assert.ok(db.skipped < db.total / 50, `${db.skipped} of ${db.total} skipped`);
  });
});

describe('real daemons our own families do not know', () => {
  const ADDR = '127.0.41.3';
  const missing = !existsSync(PROBES_PATH) ? 'nmap not installed' : ['rsync', 'Xvfb', 'slapd'].find((c) => !which(c));
  test('rsyncd, Xvfb and slapd on their usual ports are named rsync, X11 and ldap (VIGIL_TEST_NMAP_COMPARE=1: nmap -sV beside it)', {
    skip: missing ? `${missing} missing` : false,
  }, async (t) => {
    const ports = await Promise.all([rsyncd(ADDR, true, 873), xvfb(ADDR, false), slapd(ADDR, true, 389)]);
    const net = new Fence([ADDR], ['127.0.0.0/8']).net(ADDR);
    loadProbes(); // parsed once per process (~0.3 s), before the clock starts
    const t0 = performance.now();
    const found = await detectServices(net, ports);
    const ours = performance.now() - t0;
    const byPort = new Map(found.map((s) => [s.port, s]));
    assert.deepEqual(
      ports.map((p) => byPort.get(p)?.name),
      ['rsync', 'X11', 'ldap'],
    );
    // rsync and LDAP come from nmap's database (NULL probe, LDAPSearchReq/LDAPBindReq); X11 from detect/x11.ts.
    for (const p of [ports[0]!, ports[2]!])
      assert.match(byPort.get(p)!.extra.identifiedBy ?? '', /^nmap-service-probes/);
    // A measurement, not a check (it asserts nothing): nmap -sV waits out its probes on the X11 port, 35 of
    // this file's 43 s in the CI run and the longest single wait of the suite, so it runs only when asked.
    if (process.env.VIGIL_TEST_NMAP_COMPARE === '1' && which('nmap')) {
      const t1 = performance.now();
      const r = spawnSync('nmap', ['-sV', '-n', '-Pn', '-p', ports.join(','), ADDR], { encoding: 'utf8' });
      t.diagnostic(
        `Vigil ${Math.round(ours)} ms, nmap -sV -n ${Math.round(performance.now() - t1)} ms on the same ${ports.length} ports; nmap said: ${r.stdout
          .split('\n')
          .filter((l) => /^\d+\/tcp/.test(l))
          .join(' | ')}`,
      );
    }
  });
});
