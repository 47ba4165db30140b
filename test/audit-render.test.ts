import assert from 'node:assert/strict';
import { createServer as createHttp } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { parse as parseCsv } from 'csv-parse/sync';
import { simpleParser, type ParsedMail } from 'mailparser';
import { type DefaultTreeAdapterMap, parse as parseHtml } from 'parse5';
import { SMTPServer } from 'smtp-server';
import { portsFor } from '../src/audit/engine/ports.ts';
import { renderReport } from '../src/audit/render/index.ts';
import { csvCell } from '../src/audit/render/csv.ts';
import { wrap } from '../src/audit/render/text.ts';
import { coverageOf } from '../src/audit/baseline.ts';
import type { AuditResult } from '../src/audit/engine/run.ts';
import type { Check } from '../src/audit/engine/types.ts';
import { buildReport, type ScanInfo } from '../src/audit/report.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { entriesOf, finished, runAudit } from './helpers/audits.ts';
import { bannerServer, closeAll, listenOnFirst } from './helpers/targets.ts';
import { eventually } from './helpers/wait.ts';

// The renderer and the completion mail on the report of a REAL audit of
// loopback daemons whose banners are hostile (markup, spreadsheet formulas,
// terminal escapes): one app, one audit with notification to a real SMTP
// server; the formats are read back with real parsers (parse5, csv-parse,
// mailparser).

const PASSWORD = 'correct horse 15';
const TARGET = '127.0.0.77';
const XSS = '"><img src=x onerror=alert(1)><script>alert(2)</script>';
const FORMULA = "=cmd|' /C calc'!A0";

type Node = DefaultTreeAdapterMap['node'];
type Element = DefaultTreeAdapterMap['element'];

function walk(node: Node, visit: (el: Element) => void): void {
  if ('tagName' in node) visit(node as Element);
  const kids = 'childNodes' in node ? (node.childNodes as Node[]) : [];
  for (const k of kids) walk(k, visit);
  if ('content' in node && node.content) walk(node.content as Node, visit);
}
const attr = (el: Element, name: string) => el.attrs.find((a) => a.name === name)?.value;
function textOf(node: Node): string {
  if (node.nodeName === '#text') return (node as DefaultTreeAdapterMap['textNode']).value;
  return 'childNodes' in node ? (node.childNodes as Node[]).map(textOf).join('') : '';
}

const candidates = (...preferred: number[]) => {
  const set = new Set(portsFor('standard'));
  return [...preferred.filter((p) => set.has(p)), ...[...set].filter((p) => p > 1024 && !preferred.includes(p))];
};

describe('report renderer and completion mail on a real audit with hostile banners', () => {
  let t: TestApp;
  let info: ScanInfo;
  let scanuid: string;
  const mails: Buffer[] = [];
  const servers: any[] = [];
  let smtp: SMTPServer;
  const ports: Record<string, number> = {};

  before(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onData(stream, _session, cb) {
        const parts: Buffer[] = [];
        stream.on('data', (d: Buffer) => parts.push(d));
        stream.on('end', () => (mails.push(Buffer.concat(parts)), cb()));
      },
    });
    await new Promise<void>((res) => smtp.listen(0, '127.0.0.1', () => res()));
    const smtpPort = (smtp.server.address() as { port: number }).port;
    // An old Apache (scored CVEs, a solution, references) whose Server header carries markup.
    const apache = createHttp((_req, res) =>
      res
        .writeHead(200, { server: `Apache/2.4.49 (Unix) ${XSS}`, 'content-type': 'text/html' })
        .end('<html>old</html>'),
    );
    const ftp = bannerServer('220 (vsFTPd 2.3.4)');
    const formula = bannerServer(`${FORMULA} \u001b[31mred`);
    const ssh = bannerServer('SSH-2.0-OpenSSH_7.4');
    servers.push(apache, ftp, formula, ssh);
    ports.ssh = await listenOnFirst(ssh, TARGET, candidates(2222, 22222));
    ports.apache = await listenOnFirst(apache, TARGET, candidates(8081, 8888, 9080));
    ports.ftp = await listenOnFirst(ftp, TARGET, candidates(2121, 21, 990));
    ports.formula = await listenOnFirst(formula, TARGET, candidates(6666, 7777, 9999));
    t = await startTestApp({ smtpUrl: `smtp://127.0.0.1:${smtpPort}`, mailFrom: 'audits@vigil.test' });
    const c = t.client();
    await c.login(
      await t.account('render', PASSWORD, { auditTypes: 'standard', allowIp: TARGET, email: 'owner@example.test' }),
      'render',
      PASSWORD,
    );
    scanuid = await runAudit(c, { ipaddr: TARGET, audittype: 'standard', notification: 'OCMP' });
    info = await finished(c, scanuid);
    if (process.env.RENDER_DUMP)
      (await import('node:fs')).writeFileSync(process.env.RENDER_DUMP, JSON.stringify(info, null, 1));
    await eventually(async () => mails.length === 1, 'the completion mail');
  });
  after(async () => {
    await t?.close();
    await closeAll(servers);
    await new Promise<void>((res) => smtp.close(() => res()));
  });

  test('the audit saw what the renderer must show: a scored finding with a solution, and the hostile text', () => {
    const all = entriesOf(info);
    assert.ok(
      all.some(
        (e) =>
          e.id === 'vigil.version.apache' && /^Score: CVSS/m.test(e.description) && /^Solution: /m.test(e.description),
      ),
      'scored apache finding',
    );
    assert.ok(JSON.stringify(info).includes('onerror=alert(1)'), 'the hostile header reached the report');
    assert.ok(JSON.stringify(info).includes('=cmd|'), 'the formula banner reached the report');
  });

  test('HTML: one parsed document, no script, nothing loaded, hostile text shown as text, CVEs linked to NVD', () => {
    const html = renderReport(info, 'html');
    const doc = parseHtml(html, { sourceCodeLocationInfo: false });
    const tags: string[] = [];
    const links: string[] = [];
    const articles: Element[] = [];
    walk(doc as Node, (el) => {
      tags.push(el.tagName);
      for (const a of el.attrs) assert.ok(!/^on/i.test(a.name), `event handler attribute ${a.name} on <${el.tagName}>`);
      if (el.tagName === 'a') links.push(attr(el, 'href')!);
      if (el.tagName === 'article') articles.push(el);
      for (const a of ['src', 'srcset']) assert.equal(attr(el, a), undefined, `<${el.tagName} ${a}>`);
    });
    for (const banned of ['script', 'img', 'link', 'iframe', 'object', 'embed'])
      assert.ok(!tags.includes(banned), `<${banned}> in the report`);
    assert.ok(tags.includes('style'));
    // Every link is http(s); CVE ids go to NVD.
    for (const l of links) assert.match(l, /^https?:\/\//);
    const cves = [...new Set(entriesOf(info).flatMap((e) => e.cve.split(',').filter(Boolean)))];
    assert.ok(cves.length > 0);
    for (const cve of cves) assert.ok(links.includes(`https://nvd.nist.gov/vuln/detail/${cve}`), cve);
    // One article per entry, in report order; the hostile header comes back as text, not markup.
    assert.equal(articles.length, entriesOf(info).length);
    const shown = textOf(doc as Node);
    assert.ok(shown.includes(XSS), 'hostile header visible as text');
    // Sections and counts.
    for (const h of ['Risk counts', 'Category × risk', 'Findings', 'Baseline', 'Open ports'])
      assert.ok(shown.includes(h), h);
    for (const p of Object.values(ports)) assert.ok(shown.includes(String(p)), `port ${p}`);
    assert.ok(shown.includes(info.basic.summary!));
    const solution = entriesOf(info)
      .find((e) => e.id === 'vigil.version.apache')!
      .description.match(/^Solution: (.*)$/m)![1]!;
    assert.ok(
      html.includes(`<div class="solution"><b>Solution:</b> ${solution.replace(/&/g, '&amp;')}`),
      'solution as its own block',
    );
    assert.doesNotMatch(html, /\u001b/, 'terminal escapes from the banner');
    // Only http(s) references become links; a title of markup stays text.
    const hostile = structuredClone(info);
    const first = Object.values(hostile.entries!.high!)[0]!;
    first.title = `<script>alert(3)</script>`;
    first.description += '\nReferences: javascript:alert(4) https://example.test/advisory';
    const doc2 = parseHtml(renderReport(hostile, 'html'));
    const hrefs: string[] = [];
    walk(doc2 as Node, (el) => {
      assert.notEqual(el.tagName, 'script');
      if (el.tagName === 'a') hrefs.push(attr(el, 'href')!);
    });
    assert.ok(hrefs.includes('https://example.test/advisory'));
    assert.ok(!hrefs.some((h) => /^javascript:/i.test(h)));
    assert.ok(textOf(doc2 as Node).includes('javascript:alert(4)'), 'shown as text');
    assert.ok(textOf(doc2 as Node).includes('<script>alert(3)</script>'), 'title shown as text');
    assert.match(html, /@page\s*\{[^}]*margin/);
    assert.match(html, /break-inside:\s*avoid/);
    assert.match(html, /Content-Security-Policy" content="default-src 'none'/);
  });

  test('CSV: RFC 4180 read back by csv-parse, one row per entry, formula cells defused', () => {
    const csv = renderReport(info, 'csv');
    const read = parseCsv(csv, { relax_column_count: false }) as string[][];
    // After the entries, one row per address of kind `host` (issue 26): here the one audited.
    assert.deepEqual(
      read.filter((r) => r[10] === 'host').map((r) => [r[3], r[4]]),
      [[info.basic.hostip, 'Host up']],
    );
    const rows = read.filter((r) => r[10] !== 'host');
    assert.deepEqual(rows[0], [
      'risk',
      'score',
      'port',
      'ip',
      'title',
      'cve',
      'baseline',
      'id',
      'solution',
      'description',
      'kind',
    ]);
    const all = entriesOf(info).sort((a, b) => a.shortkey - b.shortkey);
    assert.equal(rows.length - 1, all.length);
    rows.slice(1).forEach((r, i) => {
      assert.deepEqual(
        [r[0], r[2], r[3], r[5], r[7]],
        [all[i]!.risk, all[i]!.port, all[i]!.ip, all[i]!.cve, all[i]!.id],
      );
      for (const cell of r) assert.doesNotMatch(cell, /^[=+\-@\t\r]/, 'a cell a spreadsheet would run');
    });
    const apache = rows.find((r) => r[7] === 'vigil.version.apache')!;
    assert.match(apache[1]!, /^\d+\.\d$/);
    assert.ok(apache[8]!.length > 0, 'solution column');
    assert.ok(
      rows.some((r) => r[9]!.includes(`banner: ${FORMULA}`)),
      'the formula banner kept as it came, inside its cell',
    );
    // Cells that begin with target text: the same report with hostile titles and details.
    const hostile = structuredClone(info);
    const first = Object.values(hostile.entries!.high!)[0]!;
    first.title = FORMULA;
    first.description = `+SUM(1,2)\n${first.description}`;
    const back = parseCsv(renderReport(hostile, 'csv')) as string[][];
    const row = back.find((r) => r[7] === first.id && r[2] === first.port)!;
    assert.equal(row[4], `'${FORMULA}`);
    assert.match(row[9]!, /^'\+SUM\(1,2\)\n/);
    assert.equal(csvCell('-1+2'), "'-1+2");
    assert.equal(csvCell('@SUM(A1)'), "'@SUM(A1)");
    assert.equal(csvCell('a "b", c'), '"a ""b"", c"');
    assert.equal(csvCell('\tx'), "'\tx");
  });

  test('text: 80 columns, no terminal escapes, the findings and ports', () => {
    const text = renderReport(info, 'text');
    for (const line of text.split('\n')) assert.ok(line.length <= 80, `too long: ${line}`);
    assert.doesNotMatch(text, /\u001b/);
    for (const e of entriesOf(info))
      assert.ok(
        text.replace(/\s+/g, ' ').includes(e.title.replace(/[\u0000-\u001f]/g, '?').replace(/\s+/g, ' ')),
        e.title,
      );
    for (const p of Object.values(ports)) assert.match(text, new RegExp(`${TARGET}\\s+${p}/tcp`));
    assert.match(text, new RegExp(`HIGH: ${info.risk.high ?? 0}\\s+MEDIUM: ${info.risk.medium ?? 0}`));
    assert.match(text, /^Audit: {9}\d+ \(standard\)$/m, 'the head in columns');
    assert.deepEqual(wrap('aaaa bbbb cccc', 10), ['aaaa bbbb', 'cccc']);
    assert.deepEqual(wrap('a   b', 10), ['a   b'], 'runs of spaces kept (columns)');
    assert.deepEqual(wrap('x'.repeat(25), 10), ['x'.repeat(10), 'x'.repeat(10), 'x'.repeat(5)]);
  });

  test('mail: summary with counts, the five most serious findings with ports, what ran; the HTML report attached; clean headers', async () => {
    const mail: ParsedMail = await simpleParser(mails[0]!);
    assert.equal(
      mail.subject,
      `Vigil audit ${scanuid} (standard) of ${TARGET}: high: ${info.risk.high ?? 0}, medium: ${info.risk.medium ?? 0}, low: ${info.risk.low ?? 0}, other: ${info.risk.other ?? 0}`,
    );
    for (const { line: value } of mail.headerLines)
      assert.ok(!/onerror|cmd\||<script/i.test(value), `target text in a header: ${value}`);
    const text = mail.text!;
    const findings = entriesOf(info)
      .filter((e) => e.id !== 'vigil.service.detection' && e.baseline !== 'resolved')
      .sort((a, b) => a.shortkey - b.shortkey);
    assert.ok(findings.length > 5, 'enough findings to cut at five');
    for (const l of text.split('\n')) assert.ok(l.length <= 76, `mail line over 76: ${l}`);
    // A finding's line may wrap: continuation lines hang by four spaces.
    const lines = text
      .replace(/\n {4}/g, ' ')
      .split('\n')
      .filter((l) => /^ {2}\[(HIGH|MEDIUM|LOW|INFO)/.test(l));
    assert.equal(lines.length, 5);
    lines.forEach((l, i) => assert.ok(l.includes(`${TARGET} port ${findings[i]!.port}: ${findings[i]!.title}`), l));
    assert.match(text, new RegExp(`and ${findings.length - 5} more in the attached report`));
    assert.ok(text.replace(/\s+/g, ' ').includes(`What ran: ${info.basic.summary}`));
    assert.equal(mail.attachments.length, 1);
    const [a] = mail.attachments;
    assert.equal(a!.filename, `vigil-audit-${scanuid}.html`);
    assert.equal(a!.contentType, 'text/html');
    assert.equal(a!.content.toString('utf8'), renderReport(info, 'html'));
  });
});

describe('baseline state in the formats', () => {
  // An address audited twice: the anonymous FTP login seen before is gone, the banner finding stays.
  const check = (id: string): Check => ({
    id,
    shortid: id,
    title: `title of ${id}`,
    family: 'FTP',
    categories: ['safe'],
    risk: 'medium',
    cves: [],
    type: 'HOLE',
    description: `description of ${id}`,
    solution: '',
    references: [],
    ports: { services: ['ftp'] },
    runOn: async () => [],
  });
  const [anon, banner] = [check('vigil.ftp.anonymous'), check('vigil.version.vsftpd')];
  const result: AuditResult = {
    ports: [21],
    checksRun: 2,
    checkIds: [anon.id, banner.id],
    nse: { ran: false },
    hosts: [
      {
        address: '127.0.0.78',
        openPorts: [21],
        services: [],
        checksFailed: [],
        findings: [{ check: banner, finding: { port: 21, detail: 'seen', qod: 80 } }],
      },
    ],
  };
  const facts = {
    scanuid: 9,
    type: 'standard',
    hostip: '127.0.0.78',
    excludedos: false,
    notification: false,
    queuedAt: 0,
    startedAt: 0,
    endedAt: 0,
  };
  const earlier = new Map([
    [
      '127.0.0.78',
      [
        {
          coverage: coverageOf(result),
          scannedPorts: '',
          found: [
            { id: anon.id, port: 21 },
            { id: banner.id, port: 21 },
          ],
        },
      ],
    ],
  ]);
  const info = buildReport(facts, result, earlier, () => 'ftp');

  test('counts per state and the resolved list, in HTML and text', () => {
    const shown = textOf(parseHtml(renderReport(info, 'html')) as Node);
    assert.match(shown, /Baseline\s*StateFindings\s*unchanged1/);
    assert.match(shown, /Resolved on 127\.0\.0\.78 since the previous audit:\s*vigil\.ftp\.anonymous on port 21/);
    const text = renderReport(info, 'text');
    assert.match(text, /^unchanged: 1$/m);
    assert.match(text, /^Resolved on 127\.0\.0\.78: vigil\.ftp\.anonymous on port 21$/m);
  });
});
