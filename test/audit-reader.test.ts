import assert from 'node:assert/strict';
import { createServer as createHttp } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { parse as parseCsv } from 'csv-parse/sync';
import { simpleParser, type ParsedMail } from 'mailparser';
import { type DefaultTreeAdapterMap, parse as parseHtml } from 'parse5';
import { renderReport } from '../src/audit/render/index.ts';
import { countsOf } from '../src/audit/render/model.ts';
import { referenceKey } from '../src/audit/report-evidence.ts';
import type { ScanInfo } from '../src/audit/report.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { assertReportShape, entriesOf, finished, runAudit } from './helpers/audits.ts';
import { daemon, tempDir, which } from './helpers/daemons-kit.ts';
import { bannerServer, closeAll, listenOnFirst } from './helpers/targets.ts';
import { type SmtpSink, smtpSink } from './helpers/smtp.ts';
import { eventually } from './helpers/wait.ts';

// Issue 31, "what a reader of the report and the mail noticed", on the
// report of a REAL standard audit (an old Apache: 27 CVEs, its advisory
// over http and https; OpenSSH 7.4; a real redis-server whose INFO reply
// is 23 lines) mailed through a real SMTP server, on the store under test
// (SQLite, or PostgreSQL with VIGIL_TEST_DB). Every surface counts alike.

const PASSWORD = 'correct horse 31';
const TARGET = '127.0.0.83';
const REDIS = which('redis-server');
const RISKS = ['high', 'medium', 'low', 'other'] as const;
const LABEL = { high: 'HIGH', medium: 'MEDIUM', low: 'LOW', other: 'INFO' } as const;

type Node = DefaultTreeAdapterMap['node'];
type Element = DefaultTreeAdapterMap['element'];
const kids = (n: Node) => ('childNodes' in n ? (n.childNodes as Node[]) : []);
const all = (n: Node, tag: string): Element[] =>
  kids(n).flatMap((k) => [...('tagName' in k && k.tagName === tag ? [k as Element] : []), ...all(k, tag)]);
const textOf = (n: Node): string =>
  n.nodeName === '#text' ? (n as DefaultTreeAdapterMap['textNode']).value : kids(n).map(textOf).join('');
const cls = (el: Element) => el.attrs.find((a) => a.name === 'class')?.value ?? '';

/** The findings by the documented rule (docs/audits.md), counted here independently of the code. */
function expected(info: ScanInfo) {
  const not = ['vigil.service.detection', 'vigil.baseline.resolved', 'vigil.audit.failed'];
  const found = entriesOf(info).filter((e) => !not.includes(e.id) && e.baseline !== 'resolved');
  return Object.fromEntries(RISKS.map((r) => [r, found.filter((e) => e.risk === r).length])) as Record<
    (typeof RISKS)[number],
    number
  >;
}

describe('the report a reader gets: one count everywhere, what to do first, each reference once, trimmed replies', () => {
  let t: TestApp;
  let info: ScanInfo;
  let scanuid: string;
  let mail: ParsedMail;
  let apikey: string;
  let want: ReturnType<typeof expected>;
  const servers: any[] = [];
  let smtp: SmtpSink;
  const ports: Record<string, number> = {};
  const apache = () => entriesOf(info).find((e) => e.id === 'vigil.version.apache')!;

  before(async () => {
    smtp = await smtpSink();
    const web = createHttp((_req, res) => res.writeHead(200, { server: 'Apache/2.4.49 (Unix)' }).end('old'));
    const ssh = bannerServer('SSH-2.0-OpenSSH_7.4');
    servers.push(web, ssh);
    ports.apache = await listenOnFirst(web, TARGET, [8081, 8888, 9080]);
    ports.ssh = await listenOnFirst(ssh, TARGET, [2222, 22222]);
    if (REDIS) {
      const dir = tempDir('reader-redis');
      const args = ['--bind', TARGET, '--save', '', '--appendonly', 'no', '--dir', dir, '--protected-mode', 'no'];
      ports.redis = await daemon(TARGET, REDIS, (port) => ['--port', String(port), ...args], { port: 6379 });
    }
    t = await startTestApp({
      smtpUrl: smtp.url,
      mailFrom: 'audits@vigil.test',
    });
    const c = t.client();
    apikey = await t.account('reader', PASSWORD, {
      auditTypes: 'standard',
      allowIp: TARGET,
      email: 'owner@example.test',
    });
    await c.login(apikey, 'reader', PASSWORD);
    scanuid = await runAudit(c, { ipaddr: TARGET, audittype: 'standard', notification: 'OCMP' });
    info = await finished(c, scanuid);
    want = expected(info);
    await eventually(async () => smtp.mails.length === 1, 'the completion mail');
    mail = await simpleParser(smtp.mails[0]!.raw);
  });
  after(async () => {
    await t?.close();
    await closeAll(servers);
    await smtp.close();
  });

  test('the API, the summary, text, HTML, CSV, the console model and the mail give the same counts', () => {
    const total = RISKS.reduce((n, r) => n + want[r], 0);
    // Detection entries are in the report but are not findings: the counts differ from the entries'.
    assert.ok(entriesOf(info).length >= total + Object.keys(ports).length, 'one detection entry per open port');
    assert.ok(want.high >= 2 && total > 5, JSON.stringify(want));
    assertReportShape(info);
    const n = (r: (typeof RISKS)[number]) => want[r] || undefined;
    assert.deepEqual(info.risk, Object.fromEntries(RISKS.filter(n).map((r) => [r, want[r]])));
    assert.deepEqual(countsOf(info).risk, info.risk, 'the console and the renderers count with countsOf');

    const words = RISKS.filter(n).map((r) => `${want[r]} ${r === 'other' ? 'for information' : r}`);
    assert.match(info.basic.summary!, new RegExp(`; ${total} findings: ${words.join(', ')}\\.$`));

    const text = renderReport(info, 'text');
    assert.match(text, new RegExp(`^${RISKS.map((r) => `${LABEL[r]}: ${want[r]}`).join(' {3}')}$`, 'm'));
    const findings = text.slice(text.indexOf('\nFINDINGS\n'), text.indexOf('\nBASELINE\n'));
    for (const r of RISKS)
      assert.equal(findings.match(new RegExp(`^\\[${LABEL[r]}[\\] ]`, 'gm'))?.length ?? 0, want[r], `text ${r}`);
    assert.match(text, /^SERVICE DETECTION$/m);

    const doc = parseHtml(renderReport(info, 'html')) as Node;
    const boxes = all(doc, 'div').filter((d) => /^count /.test(cls(d)));
    assert.deepEqual(
      boxes.map((b) => [cls(b).slice(6), Number(textOf(all(b, 'b')[0]!))]),
      RISKS.map((r) => [r, want[r]]),
    );
    const sections = all(doc, 'section');
    const found = sections.find((s) => textOf(all(s, 'h2')[0]!) === 'Findings')!;
    assert.equal(all(found, 'article').length, total);
    for (const h of all(found, 'h3')) {
      const r = RISKS.find((x) => textOf(h).startsWith(LABEL[x]))!;
      assert.equal(textOf(h), `${LABEL[r]} ${want[r]} finding${want[r] === 1 ? '' : 's'}`);
    }

    const rows = parseCsv(renderReport(info, 'csv'), { columns: true }) as Record<string, string>[];
    // One row per entry, then one per address (kind `host`, the per-host table).
    assert.equal(rows.filter((x) => x.kind !== 'host').length, entriesOf(info).length, 'CSV: one row per entry');
    for (const r of RISKS) assert.equal(rows.filter((x) => x.kind === 'finding' && x.risk === r).length, want[r]);

    const counts = RISKS.map((r) => `${r}: ${want[r]}`).join(', ');
    assert.equal(mail.subject, `Vigil audit ${scanuid} (standard) of ${TARGET}: ${counts}`);
    assert.ok(mail.text!.includes(`Findings by risk: ${counts}`));
    assert.ok(mail.text!.includes(`Most serious findings (5 of ${total}):`));
    assert.equal(mail.attachments[0]!.content.toString('utf8'), renderReport(info, 'html'));
  });

  test('what to do first: the solution right under the title, before the CVEs', () => {
    const e = apache();
    const text = renderReport(info, 'text').split('\n');
    const title = text.findIndex((l) => l.startsWith('[HIGH') && l.includes('Apache httpd 2.4.49 is outdated'));
    assert.ok(title > 0);
    // The first indented line after the title (which may wrap) is the solution; the CVEs come after it.
    const first = text.findIndex((l, i) => i > title && l.startsWith('  '));
    assert.match(text[first]!, /^ {2}Solution: Upgrade Apache httpd to /);
    assert.ok(text.findIndex((l, i) => i > title && l.startsWith('  CVE: ')) > first);
    assert.ok(text.findIndex((l, i) => i > title && /^ {2}CVE-\d{4}-/.test(l)) > first);
    const article = all(parseHtml(renderReport(info, 'html')) as Node, 'article').find(
      (a) => a.attrs.find((x) => x.name === 'id')?.value === `e${e.entrykey}`,
    )!;
    const order = (article.childNodes as Element[]).map((k) => `${k.tagName}.${cls(k)}`);
    assert.deepEqual(order.slice(0, 4), ['h4.', 'div.solution', 'p.meta', 'div.cves']);
  });

  test('long CVE lists collapsed: the first five, "and N more", the rest in <details> and whole in the CSV', () => {
    const e = apache();
    const cves = e.cve.split(',');
    assert.ok(cves.length >= 20, `Apache 2.4.49: ${cves.length} CVEs`);
    const text = renderReport(info, 'text');
    assert.ok(text.replace(/\n {2}/g, ' ').includes(`CVE: ${cves.slice(0, 5).join(', ')} and ${cves.length - 5} more`));
    assert.match(text, new RegExp(`… and ${cves.length - 5} more CVEs \\(the CSV and HTML`));
    const article = all(parseHtml(renderReport(info, 'html')) as Node, 'article').find((a) =>
      a.attrs.some((x) => x.value === `e${e.entrykey}`),
    )!;
    const cveBlock = all(article, 'div').find((d) => cls(d) === 'cves')!;
    const more = all(cveBlock, 'details')[0]!;
    assert.equal(textOf(all(more, 'summary')[0]!), `and ${cves.length - 5} more CVEs`);
    assert.deepEqual(
      all(more, 'a').map((a) => textOf(a)),
      cves.slice(5),
    );
    const row = (parseCsv(renderReport(info, 'csv'), { columns: true }) as Record<string, string>[]).find(
      (r) => r.id === e.id,
    )!;
    assert.equal(row.cve, e.cve);
    for (const cve of cves) assert.match(row.description!, new RegExp(`^${cve} \\(`, 'm'), cve);
  });

  test('each reference once: the Apache advisory, http and https in the CVE data, is listed once, as https', () => {
    for (const e of entriesOf(info)) {
      const refs = /^References: (.*)$/m.exec(e.description)?.[1]?.split(' ') ?? [];
      assert.equal(new Set(refs.map(referenceKey)).size, refs.length, e.id);
    }
    const refs = /^References: (.*)$/m.exec(apache().description)![1]!.split(' ');
    assert.deepEqual(
      refs.filter((r) => r.includes('httpd.apache.org')),
      ['https://httpd.apache.org/security/vulnerabilities_24.html'],
    );
    const row = (parseCsv(renderReport(info, 'csv'), { columns: true }) as Record<string, string>[]).find(
      (r) => r.id === apache().id,
    )!;
    assert.equal(row.description!.split('httpd.apache.org/security/vulnerabilities_24.html').length, 2);
  });

  test('a raw reply trimmed to what proves it: the Redis INFO reply keeps redis_version and what was sent', {
    skip: !REDIS && 'redis-server not installed',
  }, () => {
    const e = entriesOf(info).find((x) => x.id === 'vigil.service.detection' && x.port === String(ports.redis))!;
    const lines = e.description.split('\n');
    assert.match(lines[1]!, /^6379\/tcp: redis \(Redis (\d+\.\d+\.\d+)\); sent: INFO server; banner: \$\d+$/);
    const version = /Redis (\S+)\)/.exec(lines[1]!)![1]!;
    assert.ok(lines.includes(`redis_version:${version}`), 'the proving line');
    assert.match(lines.at(-1)!, /^… (1\d|2\d) lines omitted$/);
    assert.ok(lines.length <= 7, e.description);
    assert.doesNotMatch(e.description, /run_id:|process_id:/);
    // The finding keeps its own evidence: what was asked and what came back.
    const noauth = entriesOf(info).find((x) => x.id === 'vigil.redis.noauth')!;
    assert.match(noauth.description, new RegExp(`INFO answered without a password \\(redis_version ${version}\\)`));
  });

  test('a report stored before the rule (every entry counted) is read with the rule’s counts', async () => {
    const stale = { ...info, risk: { ...info.risk, other: entriesOf(info).filter((e) => e.risk === 'other').length } };
    await t.app.services.db
      .updateTable('audits')
      .set({ report: JSON.stringify(stale) })
      .where('id', '=', Number(scanuid))
      .execute();
    const reader = t.client();
    await reader.login(apikey, 'reader', PASSWORD);
    const read = (await reader.call('saGetAuditReport.php', { scanuid })).scaninfo;
    assert.deepEqual(read.risk, info.risk);
    assert.deepEqual(read.riskcatgrid, info.riskcatgrid);
  });
});
