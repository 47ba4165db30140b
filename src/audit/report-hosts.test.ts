import assert from 'node:assert/strict';
import { test } from 'node:test';
import { coverageOf, DETECTION_ID } from './baseline.ts';
import type { AuditResult } from './engine/run.ts';
import type { HostScan } from './engine/scan/scan.ts';
import { renderReport } from './render/index.ts';
import { type AuditFacts, buildReport } from './report.ts';

// Issue 26: the report says, per address, what the scan saw, and how many
// addresses were down; a down address resolves nothing in the baseline.

const facts: AuditFacts = {
  scanuid: 9,
  type: 'basic',
  hostip: '198.18.1.10-12',
  excludedos: false,
  notification: false,
  queuedAt: 0,
  startedAt: 0,
  endedAt: 0,
};
const scan = (address: string, extra: Partial<HostScan>): HostScan => ({
  address,
  up: true,
  reason: 'tcp',
  rttMs: 50.5,
  portsScanned: 100,
  open: [],
  closed: 100,
  filtered: 0,
  unreachable: 0,
  dropped: false,
  ...extra,
});
const result: AuditResult = {
  ports: Array.from({ length: 100 }, (_, i) => i + 1),
  checksRun: 0,
  checkIds: [],
  nse: { ran: false },
  hosts: [
    {
      address: '198.18.1.10',
      openPorts: [22, 80],
      services: [],
      findings: [],
      checksFailed: [],
      scan: scan('198.18.1.10', { reason: 'icmp', open: [22, 80], closed: 97, filtered: 1 }),
    },
    {
      address: '198.18.1.11',
      openPorts: [],
      services: [],
      findings: [],
      checksFailed: [],
      scan: scan('198.18.1.11', { closed: 100 }),
    },
    {
      address: '198.18.1.12',
      openPorts: [],
      services: [],
      findings: [],
      checksFailed: [],
      scan: scan('198.18.1.12', { up: false, reason: null, rttMs: null, portsScanned: 0, closed: 0 }),
    },
  ],
};

test('basic.hosts, hostsUp/hostsDown and the summary name every address the scan saw', () => {
  const report = buildReport(facts, result, new Map(), () => 'unknown');
  assert.equal(report.basic.discovery, true);
  assert.equal(report.basic.hostsUp, 2);
  assert.equal(report.basic.hostsDown, 1);
  assert.deepEqual(report.basic.hosts, [
    {
      ip: '198.18.1.10',
      state: 'up',
      reason: 'icmp',
      rtt: 50.5,
      portsScanned: 100,
      open: 2,
      closed: 97,
      filtered: 1,
      unreachable: 0,
      dropped: false,
    },
    {
      ip: '198.18.1.11',
      state: 'up',
      reason: 'tcp',
      rtt: 50.5,
      portsScanned: 100,
      open: 0,
      closed: 100,
      filtered: 0,
      unreachable: 0,
      dropped: false,
    },
    {
      ip: '198.18.1.12',
      state: 'down',
      reason: 'no-response',
      rtt: null,
      portsScanned: 0,
      open: 0,
      closed: 0,
      filtered: 0,
      unreachable: 0,
      dropped: false,
    },
  ]);
  assert.match(report.basic.summary!, /scanned on 2 of 3 addresses \(2 open; 1 down: no answer to host discovery\)/);
  // Every format's head says it too.
  const text = renderReport(report, 'text');
  assert.match(text, /Hosts: +2 up, 1 down \(no answer to host discovery\)/);
  assert.match(text, /Down: +198\.18\.1\.12/);
  // The spec's fields are untouched.
  assert.equal(report.basic.scanportstcp, '1-100');
  assert.equal(report.ports.length, 2);
});

test('a down address checked nothing: an earlier finding there is neither resolved nor confirmed', () => {
  const coverage = coverageOf(result);
  assert.deepEqual(coverage.down, ['198.18.1.12']);
  const earlier = new Map([
    [
      '198.18.1.12',
      [{ coverage: { ports: '1-100', checks: [] }, scannedPorts: '1-100', found: [{ id: DETECTION_ID, port: 80 }] }],
    ],
  ]);
  const report = buildReport(facts, result, earlier, () => 'unknown');
  const all = Object.values(report.entries ?? {}).flatMap((g) => Object.values(g!));
  assert.equal(all.filter((e) => e.id === 'vigil.baseline.resolved').length, 0);
});
