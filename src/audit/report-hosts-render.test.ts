import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parse as parseCsv } from 'csv-parse/sync';
import { type DefaultTreeAdapterMap, parse as parseHtml } from 'parse5';
import { addressRanges, hostsOf, rttText } from './render/hosts.ts';
import { renderReport } from './render/index.ts';
import type { HostLine, ScanInfo } from './report.ts';

// Issue 26, "say what ran, per host": the per-host table in every format,
// read back with the parser made for each (parse5, csv-parse), on a report
// as a /24 of 40 live hosts gives it, and on a report written before it.

type Node = DefaultTreeAdapterMap['node'];
type Element = DefaultTreeAdapterMap['element'];
function elements(node: Node, tag: string, out: Element[] = []): Element[] {
  if ('tagName' in node && node.tagName === tag) out.push(node as Element);
  for (const k of 'childNodes' in node ? (node.childNodes as Node[]) : []) elements(k, tag, out);
  return out;
}
function textOf(node: Node): string {
  if (node.nodeName === '#text') return (node as DefaultTreeAdapterMap['textNode']).value;
  return 'childNodes' in node ? (node.childNodes as Node[]).map(textOf).join('') : '';
}
const attr = (el: Element, name: string) => el.attrs.find((a) => a.name === name)?.value;

const up = (ip: string, extra: Partial<HostLine> = {}): HostLine => ({
  ip,
  state: 'up',
  reason: 'tcp',
  rtt: 51.23,
  portsScanned: 1021,
  open: 3,
  closed: 1017,
  filtered: 1,
  unreachable: 0,
  dropped: false,
  ...extra,
});
/** Down: nothing answered, nothing scanned. */
const NOTHING = { rtt: null, portsScanned: 0, open: 0, closed: 0, filtered: 0 };
const down = (ip: string): HostLine => up(ip, { state: 'down', reason: 'no-response', ...NOTHING });

/** 198.18.1.1-254: every sixth address up (.6, .12, …: 42) and .7, given up mid-scan; the other 211 down. */
const LINES: HostLine[] = Array.from({ length: 254 }, (_, i) => {
  const ip = `198.18.1.${i + 1}`;
  if (i + 1 === 7) return up(ip, { dropped: true, open: 0, closed: 8, filtered: 5, unreachable: 2, portsScanned: 15 });
  return (i + 1) % 6 === 0 ? up(ip, { reason: 'icmp', rtt: 0.043 }) : down(ip);
});
const UP = LINES.filter((l) => l.state === 'up').map((l) => l.ip);

const report = (hosts: HostLine[] | undefined): ScanInfo => ({
  basic: {
    detail_supplement: 0,
    ejtime: '0',
    hostip: '198.18.1.*',
    merge: 0,
    mergelist: '',
    promocode: '',
    qjtime: 0,
    reporttype: 'complete',
    scanattr: '',
    scanportstcp: '1-1021',
    scantype: 'standard',
    scanuid: 26,
    sjtime: 0,
    title: 'standard audit of 198.18.1.*',
    totalnaslentries: 98,
    portsScanned: 1021,
    checksRun: 98,
    nse: { ran: false },
    summary: 'a summary.',
    ...(hosts
      ? {
          discovery: true,
          hostsUp: hosts.filter((h) => h.state === 'up').length,
          hostsDown: hosts.filter((h) => h.state === 'down').length,
          hosts,
        }
      : {}),
  },
  ports: [],
  risk: {},
  riskcatgrid: {},
});

test("addresses read as the spec's ranges: runs within a /24, IPv6 and lone addresses as they are", () => {
  assert.deepEqual(addressRanges(['10.0.0.1', '10.0.0.2', '10.0.0.3', '10.0.0.5', '10.0.1.6', '10.0.1.7', '::1']), [
    '10.0.0.1-3',
    '10.0.0.5',
    '10.0.1.6-7',
    '::1',
  ]);
  // 10.0.0.255 and 10.0.1.0 are consecutive, but the pattern `a.b.c.d-e` stays inside one /24.
  assert.deepEqual(addressRanges(['10.0.0.255', '10.0.1.0']), ['10.0.0.255', '10.0.1.0']);
  assert.deepEqual([rttText(null), rttText(0.043), rttText(51.23), rttText(250.4)], ['-', '0.04', '51.2', '250']);
});

test('a /24: the live hosts first in the order asked, the given-up one marked lost, the down ones as ranges', () => {
  const v = hostsOf(report(LINES))!;
  assert.deepEqual(
    v.up.map((r) => r.line.ip),
    UP,
  );
  assert.equal(v.up.find((r) => r.line.ip === '198.18.1.7')!.state, 'lost');
  assert.equal(v.down.length, 254 - UP.length);
  assert.equal(hostsOf(report(undefined)), null, 'a report from before issue 26 has no table');
});

test('text: a HOSTS row per live host, one wrapped Down line, 80 columns', () => {
  const text = renderReport(report(LINES), 'text');
  const section = text.slice(text.indexOf('\nHOSTS\n'), text.indexOf('\nOPEN PORTS\n'));
  const rows = section.split('\n').filter((l) => /^198\.18\.1\.\d+ /.test(l));
  assert.deepEqual(
    rows.map((l) => l.split(/ +/)[0]),
    UP,
  );
  assert.match(section, /^Address +State +Found by +RTT ms +Ports +Open +Closed +Filtered +Unreachable$/m);
  assert.match(section, /^198\.18\.1\.6 +up +icmp +0\.04 +1021 +3 +1017 +1 +0$/m);
  assert.match(section, /^198\.18\.1\.7 +lost +tcp +51\.2 +15 +0 +8 +5 +2$/m);
  assert.match(section, /^lost: answered, then went silent mid-scan and was given up\.$/m);
  assert.match(section, /^Down \(211, no answer to host discovery\): 198\.18\.1\.1-5, 198\.18\.1\.8-11,/m);
  for (const line of text.split('\n')) assert.ok(line.length <= 80, line);
  // The head lists the down ones as ranges too, the first 20 of them.
  assert.match(text, /^Down: +198\.18\.1\.1-5, 198\.18\.1\.8-11, /m);
  assert.match(text, /^ +198\.18\.1\.115-119 and 23 more ranges$/m);
  assert.doesNotMatch(renderReport(report(undefined), 'text'), /^HOSTS$/m);
  // A report written before `unreachable` was counted: `-` in that column.
  const { unreachable: _, ...before } = up('198.18.2.1');
  assert.match(renderReport(report([before]), 'text'), /^198\.18\.2\.1 +up +tcp +51\.2 +1021 +3 +1017 +1 +-$/m);
});

test('HTML: a table of the live hosts, the down ones counted and listed under it', () => {
  const doc = parseHtml(renderReport(report(LINES), 'html')) as Node;
  const table = elements(doc, 'table').find((t) => attr(t, 'class') === 'hosts')!;
  const rows = elements(table as Node, 'tr').slice(1);
  assert.deepEqual(
    rows.map((r) => textOf(elements(r as Node, 'td')[0] as Node)),
    UP,
  );
  const seven = rows.find((r) => attr(r, 'class') === 'host lost')!;
  assert.deepEqual(
    elements(seven as Node, 'td').map((c) => textOf(c as Node)),
    ['198.18.1.7', 'lost', 'tcp', '51.2', '15', '0', '8', '5', '2'],
  );
  const downP = elements(doc, 'p').find((p) => attr(p, 'class') === 'down')!;
  assert.match(textOf(downP as Node), /^211 down \(no answer to host discovery, not port-scanned\): 198\.18\.1\.1-5, /);
  assert.equal(
    elements(parseHtml(renderReport(report(undefined), 'html')) as Node, 'table').filter(
      (t) => attr(t, 'class') === 'hosts',
    ).length,
    0,
  );
});

test('CSV: a `host` row per address after the entries, live ones first, down ones too', () => {
  const rows = parseCsv(renderReport(report(LINES), 'csv')) as string[][];
  const hosts = rows.filter((r) => r[10] === 'host');
  assert.equal(hosts.length, 254);
  assert.deepEqual(
    hosts.slice(0, UP.length).map((r) => r[3]),
    UP,
  );
  assert.deepEqual(hosts[0], [
    '',
    '',
    '',
    '198.18.1.6',
    'Host up',
    '',
    '',
    '',
    '',
    'up (icmp), RTT 0.04 ms, 1021 ports scanned: 3 open, 1017 closed, 1 filtered',
    'host',
  ]);
  assert.deepEqual(hosts.at(-1)!.slice(3, 5), ['198.18.1.254', 'Host down']);
  assert.equal(hosts.at(-1)![9], 'down: no answer to host discovery; not port-scanned');
});
