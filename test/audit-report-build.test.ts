import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { compare, coverageOf, type Earlier } from '../src/audit/baseline.ts';
import type { AuditResult, HostResult } from '../src/audit/engine/run.ts';
import type { Check, Finding, Service } from '../src/audit/engine/types.ts';
import { type AuditFacts, buildReport } from '../src/audit/report.ts';
import { portService } from '../src/audit/report-ports.ts';
import { entriesOf } from './helpers/audits.ts';

// The report's assembly on its own: what a finding's entry says, the order
// and numbering of entries, and the baseline rule's corner cases (legacy
// audits, UDP findings, failed checks), from engine results written here.
// The end-to-end cases run real daemons (audit-baseline.test.ts, audit-scan.test.ts).

const check = (id: string, extra: Partial<Check> = {}): Check => ({
  id,
  shortid: id.toUpperCase(),
  title: `title of ${id}`,
  family: 'General',
  categories: ['safe'],
  risk: 'medium',
  cves: [],
  type: 'HOLE',
  description: `description of ${id}`,
  solution: '',
  references: [],
  ports: { host: true },
  runOn: async () => [],
  ...extra,
});
const facts: AuditFacts = {
  scanuid: 7,
  type: 'standard',
  hostip: '127.0.0.1',
  excludedos: false,
  notification: false,
  queuedAt: 0,
  startedAt: 0,
  endedAt: 0,
};
const service = (
  port: number,
  name: string,
  product: string | null = null,
  version: string | null = null,
): Service => ({ port, protocol: 'tcp', name, product, version, banner: null, tls: null, http: null, extra: {} });
const result = (hosts: Partial<HostResult>[], checks: Check[], ports = [21, 22, 80, 443]): AuditResult => ({
  ports,
  checksRun: checks.length,
  checkIds: checks.map((c) => c.id),
  nse: { ran: false },
  hosts: hosts.map((h) => ({
    address: '127.0.0.1',
    openPorts: [],
    services: [],
    findings: [],
    checksFailed: [],
    ...h,
  })),
});
const on = (c: Check, f: Partial<Finding> & { port: number }) => ({
  check: c,
  finding: { detail: `seen on ${f.port}`, qod: 80, ...f },
});

describe('entries: findingFacts lines, order and numbering', () => {
  const apache = check('vigil.version.apache', { risk: 'high', solution: 'Upgrade Apache httpd.' });
  const ssh = check('vigil.version.openssh', { risk: 'high' });
  const info = check('vigil.http.server-header', { risk: 'low', type: 'LOG' });
  const checks = [apache, ssh, info];
  const report = buildReport(
    facts,
    result(
      [
        {
          openPorts: [22, 80],
          services: [service(80, 'http', 'Apache httpd', '2.4.49'), service(22, 'ssh')],
          findings: [
            on(ssh, { port: 22, cves: ['CVE-2024-6387'] }), // 8.1
            on(info, { port: 80 }),
            on(apache, {
              port: 80,
              cves: ['CVE-2021-41773', 'CVE-2021-42013'],
              solution: 'Upgrade to 2.4.51 or later.',
            }), // 9.8
            on(apache, { port: 8080, cves: ['CVE-2021-42013'] }), // 9.8, higher port
          ],
        },
      ],
      checks,
    ),
    new Map(),
    () => 'usual',
  );
  const all = entriesOf(report).sort((a, b) => a.shortkey - b.shortkey);

  test('description: the check, what was seen, Score, Solution, References, then the quality of detection', () => {
    const e = all.find((x) => x.port === '80' && x.id === apache.id)!;
    assert.equal(e.static_description, apache.description);
    assert.equal(e.cve, 'CVE-2021-41773,CVE-2021-42013');
    assert.equal(
      e.description,
      [
        apache.description,
        'seen on 80',
        'Score: CVSS 9.8 (CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H)',
        'Solution: Upgrade to 2.4.51 or later.',
        'References: https://nvd.nist.gov/vuln/detail/CVE-2021-41773 https://nvd.nist.gov/vuln/detail/CVE-2021-42013 https://httpd.apache.org/security/vulnerabilities_24.html',
        'Quality of detection: 80%',
      ].join('\n'),
    );
    // Unscored, no solution, no CVE: those lines are left out.
    assert.equal(
      all.find((x) => x.id === info.id)!.description,
      [info.description, 'seen on 80', 'Quality of detection: 80%'].join('\n'),
    );
  });

  test("a detected HTTP service's line shows the status line and Server header, not the raw reply", () => {
    const web: Service = {
      ...service(80, 'http', 'Apache httpd', '2.4.49'),
      banner:
        'HTTP/1.1 200 OK\r\nServer: Apache/2.4.49 (Unix)\r\nContent-Type: text/html\r\n\r\n<html><body>hello</body></html>',
      http: {
        status: 200,
        headers: { server: 'Apache/2.4.49 (Unix)', 'content-type': 'text/html' },
        body: '<html><body>hello</body></html>',
      },
    };
    const r = buildReport(facts, result([{ openPorts: [80], services: [web] }], []), new Map(), () => 'usual');
    const line = entriesOf(r)
      .find((e) => e.id === 'vigil.service.detection')!
      .description.split('\n')
      .at(-1)!;
    assert.equal(line, '80/tcp: http (Apache httpd 2.4.49); banner: HTTP/1.1 200 OK (Server: Apache/2.4.49 (Unix))');
  });

  test('within a risk group by score (highest first), then port; numbered in that order across the groups', () => {
    assert.deepEqual(
      all.map((e) => [e.shortkey, e.risk, e.id, e.port]),
      [
        [1, 'high', apache.id, '80'],
        [2, 'high', apache.id, '8080'],
        [3, 'high', ssh.id, '22'],
        [4, 'low', info.id, '80'],
        [5, 'other', 'vigil.service.detection', '22'],
        [6, 'other', 'vigil.service.detection', '80'],
      ],
    );
    assert.deepEqual(Object.keys(report.entries!.high!), ['7_1', '7_2', '7_3']);
  });

  test('portservice: detection with product and version; the usual service only when detection said nothing', () => {
    assert.deepEqual(
      report.ports.map((p) => p.portservice),
      ['ssh', 'http Apache httpd 2.4.49'],
    );
    assert.equal(portService(undefined, 'ftp'), 'ftp');
    assert.equal(portService(service(21, 'unknown'), 'ftp'), 'ftp');
    assert.equal(portService(service(9, 'unknown', 'Foo'), 'discard'), 'Foo');
  });

  test('say what ran: counts and the sentence; nothing found says so', () => {
    assert.equal(report.basic.portsScanned, 4);
    assert.equal(report.basic.checksRun, 3);
    assert.match(
      report.basic.summary!,
      /: 4 TCP ports scanned on 1 address \(2 open\), 3 checks run per address, nmap's NSE scripts not run; 4 findings: 3 high, 1 low\.$/,
    );
    const quiet = buildReport(
      facts,
      { ...result([{}], checks), nse: { ran: true, version: '7.93' } },
      new Map(),
      () => 'usual',
    );
    assert.match(
      quiet.basic.summary!,
      /\(none open\), 3 checks run per address, nmap 7\.93 NSE scripts run; found nothing to report\.$/,
    );
    assert.deepEqual(quiet.basic.nse, { ran: true, version: '7.93' });
  });
});

describe('baseline: like with like', () => {
  const ftp = check('vigil.ftp.anonymous');
  const snmp = check('vigil.snmp.public');
  const banner = check('vigil.version.vsftpd');
  const standard = result([{ openPorts: [21] }], [ftp, snmp, banner], [21, 22, 80]);
  const basic = result([{ openPorts: [21] }], [banner], [21, 22, 80]);
  const earlier = (r: AuditResult, found: { id: string; port: number }[]): Earlier => ({
    coverage: coverageOf(r),
    scannedPorts: '',
    found,
  });
  const now = (r: AuditResult, found: { id: string; port: number }[]) => ({ coverage: coverageOf(r), found });

  test('a finding this audit did not check for is not resolved; one it checked for is', () => {
    const prior = [
      earlier(standard, [
        { id: ftp.id, port: 21 },
        { id: banner.id, port: 21 },
      ]),
    ];
    assert.deepEqual(compare('127.0.0.1', now(basic, []), prior).resolved, [{ id: banner.id, port: 21 }]);
    assert.deepEqual(
      compare('127.0.0.1', now(standard, []), prior)
        .resolved.map((s) => s.id)
        .sort(),
      [banner.id, ftp.id].sort(),
    );
  });

  test('the reference is the latest audit that checked: a basic audit in between neither hides nor repeats', () => {
    const prior = [earlier(basic, []), earlier(standard, [{ id: ftp.id, port: 21 }])];
    const c = compare('127.0.0.1', now(standard, [{ id: ftp.id, port: 21 }]), prior);
    assert.equal(c.status({ id: ftp.id, port: 21 }), 'unchanged');
    // Checked by a newer standard audit and not seen there: resolved back then, not again now.
    const twice = [earlier(standard, []), earlier(standard, [{ id: ftp.id, port: 21 }])];
    assert.deepEqual(compare('127.0.0.1', now(standard, []), twice).resolved, []);
    assert.equal(
      compare('127.0.0.1', now(standard, [{ id: ftp.id, port: 21 }]), twice).status({ id: ftp.id, port: 21 }),
      'new',
    );
  });

  test('a port this audit did not scan is not checked; a UDP finding (port outside the scan) depends on its check alone', () => {
    const fewer = result([{}], [ftp, snmp, banner], [22, 80]);
    const prior = [
      earlier(standard, [
        { id: ftp.id, port: 21 },
        { id: snmp.id, port: 161 },
      ]),
    ];
    assert.deepEqual(compare('127.0.0.1', now(fewer, []), prior).resolved, [{ id: snmp.id, port: 161 }]);
    assert.equal(
      compare('127.0.0.1', now(fewer, [{ id: snmp.id, port: 161 }]), prior).status({ id: snmp.id, port: 161 }),
      'unchanged',
    );
  });

  test('a check that failed on the address checked nothing there', () => {
    const failed = result([{ checksFailed: [ftp.id] }], [ftp, snmp, banner], [21, 22, 80]);
    const prior = [earlier(standard, [{ id: ftp.id, port: 21 }])];
    assert.deepEqual(compare('127.0.0.1', now(failed, []), prior).resolved, []);
  });

  test('audits from before coverage was recorded count as having checked everything; what this audit did not check is still never resolved', () => {
    const legacy: Earlier = {
      coverage: null,
      scannedPorts: '1-1000',
      found: [
        { id: ftp.id, port: 21 },
        { id: banner.id, port: 21 },
      ],
    };
    assert.deepEqual(compare('127.0.0.1', now(basic, []), [legacy]).resolved, [{ id: banner.id, port: 21 }]);
    assert.equal(compare('127.0.0.1', now(standard, []), [legacy]).resolved.length, 2);
    assert.equal(
      compare('127.0.0.1', now(basic, [{ id: banner.id, port: 21 }]), [legacy]).status({ id: banner.id, port: 21 }),
      'unchanged',
    );
    // A legacy audit is a reference for every finding: one it did not report is new.
    assert.equal(
      compare('127.0.0.1', now(standard, [{ id: snmp.id, port: 161 }]), [
        legacy,
        earlier(standard, [{ id: snmp.id, port: 161 }]),
      ]).status({ id: snmp.id, port: 161 }),
      'new',
    );
  });
});
