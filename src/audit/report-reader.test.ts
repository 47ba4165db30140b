import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Check, Service } from './engine/types.ts';
import { buildReport, failedReport, type ReportEntry, type ScanInfo } from './report.ts';
import { findingCounts, isFindingEntry, recounted } from './report-count.ts';
import { dedupeReferences, OMITTED, referenceKey, trimEvidence } from './report-evidence.ts';

// What a reader of the report noticed (issue 31), as the report writes it:
// the rules on their own, then through buildReport. The renderers and the
// mail on a real audit: test/audit-reader.test.ts.

// A Redis 7.0.15 INFO server reply as detection read it from redis-server
// (Debian 7.0.15-1~deb12u10, cut at 512 characters by printable()): 23 lines.
const REDIS_INFO = [
  '$573',
  '# Server',
  'redis_version:7.0.15',
  'redis_git_sha1:00000000',
  'redis_git_dirty:0',
  'redis_build_id:ae4d7c971a948f0',
  'redis_mode:standalone',
  'os:Linux 6.18.44-fc-v669 x86_64',
  'arch_bits:64',
  'monotonic_clock:POSIX clock_gettime',
  'multiplexing_api:epoll',
  'atomicvar_api:c11-builtin',
  'gcc_version:12.2.0',
  'process_id:6399',
  'process_supervised:no',
  'run_id:e49736ffdfdf8c7a256ed22919e51c239ddc5e7e',
  'tcp_port:16379',
  'server_time_usec:1795758723797985',
  'uptime_in_seconds:9',
  'uptime_in_days:0',
  'hz:10',
  'configured_hz:10',
  'lru_clock:596611',
].join('\r\n');

test('trimEvidence: the first line, the proving line with one line each side, and how many were left out', () => {
  const kept = trimEvidence(REDIS_INFO, (l) => l.includes('7.0.15')).split('\n');
  assert.deepEqual(kept, ['$573', '# Server', 'redis_version:7.0.15', 'redis_git_sha1:00000000', '… 19 lines omitted']);
  assert.match(kept.at(-1)!, OMITTED);
});

test('trimEvidence: gaps between proving lines are each counted; at most four proving lines', () => {
  const lines = Array.from({ length: 30 }, (_, i) => `line ${i}${i % 5 === 0 && i ? ' MATCH' : ''}`);
  const kept = trimEvidence(lines.join('\n'), (l) => l.endsWith('MATCH')).split('\n');
  assert.deepEqual(kept, [
    'line 0',
    '… 3 lines omitted',
    'line 4',
    'line 5 MATCH',
    'line 6',
    '… 2 lines omitted',
    'line 9',
    'line 10 MATCH',
    'line 11',
    '… 2 lines omitted',
    'line 14',
    'line 15 MATCH',
    'line 16',
    '… 2 lines omitted',
    'line 19',
    'line 20 MATCH',
    'line 21',
    '… 8 lines omitted',
  ]);
});

test('trimEvidence: a short reply stays whole; nothing proving keeps the first lines; line ends become \\n', () => {
  assert.equal(
    trimEvidence('220 (vsFTPd 2.3.4)', () => false),
    '220 (vsFTPd 2.3.4)',
  );
  assert.equal(
    trimEvidence('a\r\nb\r\nc', () => false),
    'a\nb\nc',
  );
  const long = Array.from({ length: 10 }, (_, i) => `l${i}`).join('\n');
  assert.equal(
    trimEvidence(long, () => false),
    'l0\nl1\nl2\n… 7 lines omitted',
  );
  assert.equal(
    trimEvidence(`${long}\nl10`, (l) => l === 'l10'),
    'l0\n… 8 lines omitted\nl9\nl10',
  );
  assert.equal(
    trimEvidence(long, (l) => l === 'l1'),
    'l0\nl1\nl2\n… 7 lines omitted',
  );
});

test('references: one per URL without its scheme and trailing slash, https kept, order of first sight', () => {
  assert.equal(referenceKey('https://HTTPD.Apache.org/security/'), 'httpd.apache.org/security');
  assert.equal(referenceKey('http://httpd.apache.org/Security'), 'httpd.apache.org/Security');
  assert.deepEqual(
    dedupeReferences([
      'https://nvd.nist.gov/vuln/detail/CVE-2021-26690',
      'http://httpd.apache.org/security/vulnerabilities_24.html',
      'https://httpd.apache.org/security/vulnerabilities_24.html',
      'https://dovecot.org/security/',
      'https://dovecot.org/security',
      'http://example.test/a',
    ]),
    [
      'https://nvd.nist.gov/vuln/detail/CVE-2021-26690',
      'https://httpd.apache.org/security/vulnerabilities_24.html',
      'https://dovecot.org/security/',
      'http://example.test/a',
    ],
  );
});

test('a finding is a check’s entry: detection, the resolved list and a failed audit’s note are not counted', () => {
  const e = (id: string, risk: 'high' | 'other', baseline = 'new', cat = 'General') => ({ id, risk, baseline, cat });
  const entries = [
    e('vigil.version.apache', 'high', 'new', 'Web Servers'),
    e('vigil.http.server-version', 'other', 'unchanged', 'Web Servers'),
    e('vigil.service.detection', 'other'),
    e('vigil.service.detection', 'other'),
    e('vigil.baseline.resolved', 'other', 'resolved'),
    e('vigil.audit.failed', 'other'),
  ];
  assert.deepEqual(
    entries.map((x) => isFindingEntry(x)),
    [true, true, false, false, false, false],
  );
  assert.deepEqual(findingCounts(entries), {
    risk: { high: 1, other: 1 },
    riskcatgrid: { 'Web Servers:high': 1, 'Web Servers:other': 1 },
  });
  // A report stored before the rule (every entry counted) reads with the rule's counts.
  const old = {
    risk: { high: 1, other: 5 },
    riskcatgrid: { 'Web Servers:high': 1, 'Web Servers:other': 1, 'General:other': 4 },
    entries: {
      high: { '1_1': entries[0]! },
      other: Object.fromEntries(entries.slice(1).map((x, i) => [`1_${i + 2}`, x])),
    },
  };
  assert.deepEqual(recounted(old as never), { ...old, ...findingCounts(entries) });
});

describe('as buildReport writes them: counts, references, evidence', () => {
  const apache: Check = {
    id: 'vigil.version.apache',
    shortid: 'APACHE',
    title: 'Apache httpd is outdated',
    family: 'Web Servers',
    categories: ['safe', 'passive'],
    risk: 'high',
    cves: [],
    type: 'HOLE',
    description: 'The version is in the affected range.',
    solution: 'Upgrade Apache httpd.',
    references: [],
    ports: { services: ['http'] },
    runOn: async () => [],
  };
  const service = (port: number, name: string, product: string, version: string, banner: string | null = null) =>
    ({ port, protocol: 'tcp', name, product, version, banner, tls: null, http: null, extra: {} }) as Service;
  const redis = { ...service(6379, 'redis', 'Redis', '7.0.15', REDIS_INFO), extra: { sent: 'INFO server' } };
  const facts = {
    scanuid: 7,
    type: 'standard',
    hostip: '127.0.0.1',
    excludedos: false,
    notification: false,
    queuedAt: 0,
    startedAt: 0,
    endedAt: 0,
  };
  const report = buildReport(
    facts,
    {
      ports: [80, 6379],
      checksRun: 1,
      checkIds: [apache.id],
      nse: { ran: false },
      hosts: [
        {
          address: '127.0.0.1',
          openPorts: [80, 6379],
          services: [service(80, 'http', 'Apache httpd', '2.4.49'), redis],
          checksFailed: [],
          // CVE-2021-26690's advisory is the http:// form of CVE-2021-41773's.
          findings: [
            {
              check: apache,
              finding: { port: 80, detail: 'Server: Apache/2.4.49', cves: ['CVE-2021-26690', 'CVE-2021-41773'] },
            },
          ],
        },
      ],
    },
    new Map(),
    () => 'usual',
  );
  const entriesOf = (info: ScanInfo): ReportEntry[] =>
    Object.values(info.entries ?? {}).flatMap((g) => Object.values(g));
  const entries = entriesOf(report);

  test('risk and riskcatgrid count the findings, not the detection entries; the summary says the same', () => {
    assert.equal(entries.length, 3);
    assert.deepEqual(report.risk, { high: 1 });
    assert.deepEqual(report.riskcatgrid, { 'Web Servers:high': 1 });
    assert.match(report.basic.summary!, /\(2 open\).*; 1 finding: 1 high\.$/);
    const failed = failedReport(facts, 'the store went away');
    assert.deepEqual([failed.risk, failed.riskcatgrid, entriesOf(failed).length], [{}, {}, 1]);
  });

  test('each reference once: the http and https forms of one advisory are one, the https form', () => {
    const refs = entries
      .find((e) => e.id === apache.id)!
      .description.match(/^References: (.*)$/m)![1]!
      .split(' ');
    assert.deepEqual(refs, [
      'https://nvd.nist.gov/vuln/detail/CVE-2021-26690',
      'https://nvd.nist.gov/vuln/detail/CVE-2021-41773',
      'https://httpd.apache.org/security/vulnerabilities_24.html',
    ]);
  });

  test('a long reply is cut to the lines that prove what answers, with what was sent', () => {
    const text = entries.find((e) => e.id === 'vigil.service.detection' && e.port === '6379')!.description;
    assert.deepEqual(text.split('\n').slice(1), [
      '6379/tcp: redis (Redis 7.0.15); sent: INFO server; banner: $573',
      '# Server',
      'redis_version:7.0.15',
      'redis_git_sha1:00000000',
      '… 19 lines omitted',
    ]);
  });
});
