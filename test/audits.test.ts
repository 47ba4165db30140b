import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { SMTPServer } from 'smtp-server';
import type { VigilClient } from '../src/client/index.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { assertReportShape, auditList, code, finished, runAudit } from './helpers/audits.ts';
import { eventually } from './helpers/wait.ts';

const PASSWORD = 'correct horse 5';
const DAY = 86_400_000;

describe('audits through the API: requests, list, reports, tenancy, norisk', () => {
  let t: TestApp;
  let a: VigilClient;
  let b: VigilClient;
  let none: VigilClient;

  before(async () => {
    t = await startTestApp();
    a = t.client('127.0.0.5');
    b = t.client();
    none = t.client();
    await a.login(
      await t.account('auda', PASSWORD, {
        auditTypes: 'basic,norisk,standard',
        allowIp: '127.0.1.0/24,127.0.0.5,127.0.2.*',
      }),
      'auda',
      PASSWORD,
    );
    await b.login(await t.account('audb', PASSWORD, { auditTypes: 'all', allowIp: '127.0.1.1-9' }), 'audb', PASSWORD);
    await none.login(await t.account('audnone', PASSWORD, {}), 'audnone', PASSWORD);
  });
  after(() => t.close());

  test('saRunAudit: every error code; a refused request leaves nothing behind', async () => {
    const cases: [VigilClient, Record<string, string | undefined>, string][] = [
      [a, { ipaddr: '127.0.1.1' }, 'missingAuditType'],
      [a, { ipaddr: '127.0.1.1', audittype: '' }, 'missingAuditType'],
      [a, { ipaddr: '127.0.1.1', audittype: 'full' }, 'invalidAuditType'],
      [a, { ipaddr: '127.0.1.1', audittype: 'Basic' }, 'invalidAuditType'],
      [none, { ipaddr: '127.0.1.1', audittype: 'basic' }, 'notEntitled'],
      [a, { ipaddr: '127.0.1.1', audittype: 'advanced' }, 'notEntitled'],
      [a, { ipaddr: '10.0.0.1', audittype: 'basic' }, 'IPPermissionsProblem'],
      [a, { ipaddr: '127.0.1.1,127.0.3.1', audittype: 'basic' }, 'IPPermissionsProblem'],
      [a, { ipaddr: '127.0.1.01', audittype: 'basic' }, 'IPPermissionsProblem'],
      [a, { ipaddr: '127.0.1-2.*', audittype: 'basic' }, 'IPPermissionsProblem'],
      [a, { ipaddr: '*.*.*.*', audittype: 'basic' }, 'IPPermissionsProblem'],
      [a, { ipaddr: 'localhost', audittype: 'basic' }, 'IPPermissionsProblem'],
      [b, { audittype: 'basic' }, 'IPPermissionsProblem'], // b's own address (127.0.0.1) is not granted to b
      [a, { ipaddr: '127.0.1.1', audittype: 'basic', sessionToken: 'x'.repeat(43) }, 'sessionAuthenticationFailure'],
    ];
    for (const [c, fields, want] of cases)
      assert.equal(await code(c, 'saRunAudit.php', fields), want, JSON.stringify(fields));
    assert.deepEqual(await auditList(a), []);
    assert.equal((await a.call('saGetAuditList.php')).scancount, 0);
  });

  test('an accepted audit answers at once, then runs: queued -> running -> done, list fields all strings', async () => {
    const r = await a.post('saRunAudit.php', {
      apikey: a.apikey,
      sessionToken: a.sessionToken,
      ipaddr: '127.0.1.1-2',
      audittype: 'basic',
    });
    // Spec: status 0; extension (issue 16): the new audit's scanuid, which the list's first entry carries.
    assert.deepEqual(Object.keys(r.body).sort(), ['scanuid', 'status']);
    assert.equal(r.body.status, '0');
    const list = await a.call('saGetAuditList.php');
    assert.equal(list.scancount, 1);
    const { progress, ...s } = list.scans[0] as Record<string, string> & { progress?: unknown };
    assert.deepEqual(Object.keys(s).sort(), [
      'folder',
      'hostip',
      'scanuid',
      'time_end',
      'time_queued',
      'time_start',
      'type',
    ]);
    for (const v of Object.values(s)) assert.equal(typeof v, 'string');
    // Extension field while queued or running (docs/audits.md); gone once the audit ended.
    if (s.folder === 'queued' || s.folder === 'running') assert.equal(typeof progress, 'object');
    assert.equal(String(r.body.scanuid), s.scanuid);
    assert.equal(s.hostip, '127.0.1.1-2');
    assert.equal(s.type, 'basic');
    assert.equal(s.time_queued, '2026-11-23 12:00:00');
    const info = await finished(a, s.scanuid!);
    assertReportShape(info);
    const done = (await auditList(a)).find((x) => x.scanuid === s.scanuid)!;
    assert.equal(done.folder, 'done');
    assert.equal('progress' in done, false);
    assert.match(done.time_start!, /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    assert.match(done.time_end!, /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    assert.equal(info.basic.scanuid, Number(s.scanuid));
    assert.equal(info.basic.scantype, 'basic');
    assert.equal(info.basic.hostip, '127.0.1.1-2');
    assert.equal(info.basic.qjtime, Date.UTC(2026, 10, 23, 12) / 1000);
    assert.ok(info.basic.totalnaslentries >= 0);
    // A finished report never changes.
    assert.deepEqual((await a.call('saGetAuditReport.php', { scanuid: s.scanuid! })).scaninfo, info);
  });

  test('without ipaddr the audit covers the caller’s own address', async () => {
    const scanuid = await runAudit(a, { audittype: 'basic', excludedos: '1' });
    const s = (await auditList(a)).find((x) => x.scanuid === scanuid)!;
    assert.equal(s.hostip, '127.0.0.5');
    const info = await finished(a, scanuid);
    assert.equal(info.basic.scanattr, 'excludedos');
  });

  test('tenancy: B sees none of A’s audits and reads none of A’s reports', async () => {
    const mine = await auditList(a);
    assert.ok(mine.length > 0);
    assert.deepEqual(await auditList(b), []);
    for (const s of mine)
      assert.equal(await code(b, 'saGetAuditReport.php', { scanuid: s.scanuid! }), 'reportLoadFailure[notFound]');
  });

  test('saGetAuditReport: reportLoadFailure[<code>] for absent, malformed and unknown scanuids', async () => {
    assert.equal(await code(a, 'saGetAuditReport.php', {}), 'reportLoadFailure[missingScanuid]');
    for (const bad of ['abc', '0', '-1', '1.5', '01', '9'.repeat(30), ' 1']) {
      assert.equal(await code(a, 'saGetAuditReport.php', { scanuid: bad }), 'reportLoadFailure[invalidScanuid]', bad);
    }
    assert.equal(await code(a, 'saGetAuditReport.php', { scanuid: '999999' }), 'reportLoadFailure[notFound]');
  });

  test('norisk: one audit per address per 30 days, whoever asks', async () => {
    await runAudit(a, { ipaddr: '127.0.1.7', audittype: 'norisk' });
    assert.equal(await code(a, 'saRunAudit.php', { ipaddr: '127.0.1.7', audittype: 'norisk' }), 'noriskAlreadyRun');
    assert.equal(await code(b, 'saRunAudit.php', { ipaddr: '127.0.1.6-8', audittype: 'norisk' }), 'noriskAlreadyRun');
    // Other types and other addresses are not limited.
    assert.equal(await code(b, 'saRunAudit.php', { ipaddr: '127.0.1.8', audittype: 'norisk' }), 'ok');
    assert.equal(await code(b, 'saRunAudit.php', { ipaddr: '127.0.1.7', audittype: 'basic' }), 'ok');
    t.clock.advance(30 * DAY - 1);
    // Sessions last a day: log in again on the moved clock.
    await a.login(a.apikey!, 'auda', PASSWORD);
    await b.login(b.apikey!, 'audb', PASSWORD);
    assert.equal(await code(a, 'saRunAudit.php', { ipaddr: '127.0.1.7', audittype: 'norisk' }), 'noriskAlreadyRun');
    t.clock.advance(1);
    assert.equal(await code(b, 'saRunAudit.php', { ipaddr: '127.0.1.7', audittype: 'norisk' }), 'ok');
    for (const c of [a, b]) for (const s of await auditList(c)) await finished(c, s.scanuid!);
  });
});

/** A real SMTP server on loopback that keeps what it receives. */
async function smtpSink(opts: { refuse?: boolean } = {}) {
  const mails: { to: string[]; data: string }[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(_address, _session, cb) {
      cb(opts.refuse ? Object.assign(new Error('mailbox unavailable'), { responseCode: 550 }) : undefined);
    },
    onData(stream, session, cb) {
      let data = '';
      stream.on('data', (d) => (data += d));
      stream.on('end', () => {
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address), data });
        cb();
      });
    },
  });
  await new Promise<void>((res) => server.listen(0, '127.0.0.1', () => res()));
  const port = (server.server.address() as { port: number }).port;
  return { mails, url: `smtp://127.0.0.1:${port}`, close: () => new Promise<void>((res) => server.close(() => res())) };
}

describe('audit completion mail (notification=OCMP)', () => {
  const account = { auditTypes: 'basic', allowIp: '127.0.1.0/24', email: 'owner@example.test' };

  test('delivered to a real SMTP server, naming the audit, addresses and counts per risk', async () => {
    const smtp = await smtpSink();
    const t = await startTestApp({ smtpUrl: smtp.url, mailFrom: 'audits@vigil.test' });
    try {
      const c = t.client();
      await c.login(await t.account('mailer', PASSWORD, account), 'mailer', PASSWORD);
      const quiet = await runAudit(c, { ipaddr: '127.0.1.20', audittype: 'basic' });
      const scanuid = await runAudit(c, { ipaddr: '127.0.1.21-22', audittype: 'basic', notification: 'OCMP' });
      const info = await finished(c, scanuid);
      await finished(c, quiet);
      await eventually(async () => smtp.mails.length === 1, 'one mail');
      const [mail] = smtp.mails;
      assert.deepEqual(mail!.to, ['owner@example.test']);
      assert.match(mail!.data, /^From: audits@vigil\.test/m);
      assert.match(mail!.data, new RegExp(`^Subject: Vigil audit ${scanuid} \\(basic\\) of 127\\.0\\.1\\.21-22`, 'm'));
      assert.match(mail!.data, /Addresses: 127\.0\.1\.21, 127\.0\.1\.22/);
      assert.match(
        mail!.data,
        new RegExp(
          `high: ${info.risk.high ?? 0}, medium: ${info.risk.medium ?? 0}, low: ${info.risk.low ?? 0}, other: ${info.risk.other ?? 0}`,
        ),
      );
      assert.deepEqual(readdirOrEmpty(join(t.app.services.config.dataDir, 'outbox')), []);
    } finally {
      await t.close();
      await smtp.close();
    }
  });

  test('without --smtp-url, and when the SMTP server refuses, the mail is an .eml file in DATA/outbox/', async () => {
    for (const smtp of [null, await smtpSink({ refuse: true })]) {
      const t = await startTestApp(smtp ? { smtpUrl: smtp.url } : {});
      try {
        const c = t.client();
        await c.login(await t.account('outbox', PASSWORD, account), 'outbox', PASSWORD);
        const scanuid = await runAudit(c, { ipaddr: '127.0.1.30', audittype: 'basic', notification: 'OCMP' });
        await finished(c, scanuid);
        const dir = join(t.app.services.config.dataDir, 'outbox');
        await eventually(async () => readdirOrEmpty(dir).length === 1, 'one .eml file');
        const [file] = readdirOrEmpty(dir);
        assert.match(file!, /\.eml$/);
        const text = readFileSync(join(dir, file!), 'utf8');
        assert.match(text, /^To: owner@example\.test/m);
        assert.match(text, new RegExp(`^Subject: Vigil audit ${scanuid} \\(basic\\)`, 'm'));
        assert.equal(smtp?.mails.length ?? 0, 0);
      } finally {
        await t.close();
        await smtp?.close();
      }
    }
  });
});

function readdirOrEmpty(dir: string): string[] {
  try {
    return readdirSync(dir).filter((f) => !f.startsWith('.'));
  } catch {
    return [];
  }
}

describe('the queue: per-account limit', () => {
  test('with --audit-account-limit 1 an account’s second audit waits while another account’s runs', async () => {
    const { listenOnFirst, tarpit, closeAll } = await import('./helpers/targets.ts');
    // A port that accepts and never speaks keeps an audit running for seconds: about 5 with silent reads
    // cut to 300 ms (config.auditProbeTimeoutMs), 16 at the default.
    const pit = tarpit();
    await listenOnFirst(pit, '127.0.0.9', [5907, 5908, 5909]);
    const t = await startTestApp({ auditWorkers: 3, auditAccountLimit: 1, auditProbeTimeoutMs: 300 });
    try {
      const a = t.client();
      const b = t.client();
      const grant = { auditTypes: 'desktop', allowIp: '127.0.0.9' };
      await a.login(await t.account('qa', PASSWORD, grant), 'qa', PASSWORD);
      await b.login(await t.account('qb', PASSWORD, grant), 'qb', PASSWORD);
      const first = await runAudit(a, { ipaddr: '127.0.0.9', audittype: 'desktop' });
      const second = await runAudit(a, { ipaddr: '127.0.0.9', audittype: 'desktop' });
      const other = await runAudit(b, { ipaddr: '127.0.0.9', audittype: 'desktop' });
      const folder = async (c: VigilClient, id: string) => (await auditList(c)).find((s) => s.scanuid === id)?.folder;
      await eventually(
        async () => (await folder(a, first)) === 'running' && (await folder(b, other)) === 'running',
        'both accounts running',
      );
      assert.equal(await folder(a, second), 'queued');
      await finished(a, first);
      await finished(a, second);
      await finished(b, other);
    } finally {
      await t.close();
      await closeAll([pit]);
    }
  });
});
