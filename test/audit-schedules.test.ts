// Audit schedules through the API (INTERFACE.md "Audits: ports and
// schedules"): create, list, delete and their codes; the store keeps them
// across restarts and deletes them with their account; due runs start on
// the injected clock; a run refused at its start (the account lost its
// entitlement, its addresses, or was disabled) is a failed audit with the
// code, mailed to a real SMTP server. Loopback targets only.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { updateAccount } from '../src/accounts/accounts.ts';
import { ScheduleStore } from '../src/audit/schedule-store.ts';
import { VigilClient } from '../src/client/index.ts';
import { join } from 'node:path';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { admin, adminJson, tempDir } from './helpers/server.ts';
import { auditList, code, finished } from './helpers/audits.ts';
import { bodyOf, smtpSink } from './helpers/smtp.ts';
import { eventually } from './helpers/wait.ts';

const PASSWORD = 'correct horse 31';
const DAY = 86_400_000;
const START = Date.UTC(2026, 10, 23, 12); // startTestApp's clock

async function schedule(c: VigilClient, fields: Record<string, string>): Promise<string> {
  const r = await c.post('saScheduleAudit.php', { apikey: c.apikey, sessionToken: c.sessionToken, ...fields });
  assert.equal(r.body.status, '0', JSON.stringify(r.body));
  assert.deepEqual(Object.keys(r.body).sort(), ['scheduleid', 'status']);
  return r.body.scheduleid;
}

const schedulesOf = async (c: VigilClient): Promise<any[]> => (await c.call('saGetScheduleList.php')).schedules ?? [];

describe('saScheduleAudit, saGetScheduleList, saDeleteSchedule', () => {
  let t: TestApp;
  let a: VigilClient;
  let b: VigilClient;

  before(async () => {
    // No audit workers: nothing here runs; the clock stays where it is.
    t = await startTestApp({ auditWorkers: 0, scheduleLimit: 3 });
    [a, b] = [t.client('127.0.31.9'), t.client()];
    await a.login(
      await t.account('scha', PASSWORD, { auditTypes: 'basic,norisk', allowIp: '127.0.31.0/24' }),
      'scha',
      PASSWORD,
    );
    await b.login(
      await t.account('schb', PASSWORD, { auditTypes: 'basic', allowIp: '127.0.31.0/24' }),
      'schb',
      PASSWORD,
    );
  });
  after(() => t.close());

  test('every code, in saRunAudit’s order; nothing is stored by a refused request', async () => {
    const ok = { ipaddr: '127.0.31.2', audittype: 'basic', every: 'week' };
    const cases: [Record<string, string>, string][] = [
      [{ ...ok, audittype: '' }, 'missingAuditType'],
      [{ ...ok, audittype: 'full' }, 'invalidAuditType'],
      [{ ...ok, every: 'hour' }, 'syntaxInvalidSchedule'],
      [{ ...ok, every: '' }, 'syntaxInvalidSchedule'],
      [{ ipaddr: '127.0.31.2', audittype: 'basic' }, 'syntaxInvalidSchedule'],
      [{ ...ok, every: 'Week' }, 'syntaxInvalidSchedule'],
      [{ ...ok, alert: 'never' }, 'syntaxInvalidSchedule'],
      [{ ...ok, alert: '' }, 'syntaxInvalidSchedule'],
      [{ ...ok, audittype: 'standard' }, 'notEntitled'],
      [{ ...ok, ipaddr: '10.0.0.1' }, 'IPPermissionsProblem'],
      [{ ...ok, ports: '22,,80' }, 'syntaxInvalidPorts'],
      [{ ...ok, ports: '1-65536' }, 'syntaxInvalidPorts'],
      // A norisk audit may run once a month: a schedule that asks more often could never keep it.
      [{ ...ok, audittype: 'norisk', every: 'day' }, 'syntaxInvalidSchedule'],
      [{ ...ok, bogus: '1' }, 'unknownParameter'],
    ];
    for (const [fields, want] of cases)
      assert.equal(await code(a, 'saScheduleAudit.php', fields), want, JSON.stringify(fields));
    assert.deepEqual(await a.call('saGetScheduleList.php'), { status: '0' }, 'no schedules: no field');
  });

  test('create and list: nextrun one period on, ISO 8601 UTC; lastscanuid empty before the first run', async () => {
    const weekly = await schedule(a, {
      ipaddr: '127.0.31.2-3',
      audittype: 'basic',
      every: 'week',
      alert: 'changes',
      ports: '80,22,8000-8002',
    });
    const own = await schedule(a, { audittype: 'basic', every: 'day', notification: 'OCMP', excludedos: '' });
    const monthly = await schedule(a, { ipaddr: '127.0.31.4', audittype: 'norisk', every: 'month' });
    const list = await schedulesOf(a);
    assert.deepEqual(
      list.map((s) => s.scheduleid),
      [weekly, own, monthly],
    );
    const [w, o, m] = list;
    assert.deepEqual(w, {
      scheduleid: weekly,
      ipaddr: '127.0.31.2-3',
      audittype: 'basic',
      every: 'week',
      alert: 'changes',
      nextrun: '2026-11-30T12:00:00Z',
      lastscanuid: '',
      ports: '22,80,8000-8002',
      excludedos: false,
      notification: false,
    });
    // No ipaddr: the caller's address, fixed when scheduled; alert defaults to always.
    assert.equal(o.ipaddr, '127.0.31.9');
    assert.equal(o.alert, 'always');
    assert.equal(o.nextrun, '2026-11-24T12:00:00Z');
    assert.equal(o.excludedos, true);
    assert.equal(o.notification, true);
    // norisk: every 30 days (spec 8's month, as saRunAudit reads it).
    assert.equal(m.nextrun, new Date(START + 30 * DAY).toISOString().replace('.000Z', 'Z'));
    // Another account sees none of them.
    assert.deepEqual(await schedulesOf(b), []);
  });

  test('--schedule-limit: scheduleLimitReached past it; a deleted one frees its place', async () => {
    const fields = { ipaddr: '127.0.31.5', audittype: 'basic', every: 'day' };
    assert.equal(await code(a, 'saScheduleAudit.php', fields), 'scheduleLimitReached');
    const [first] = await schedulesOf(a);
    // Someone else's id, a malformed one, none at all: noSuchSchedule.
    assert.equal(await code(b, 'saDeleteSchedule.php', { scheduleid: first.scheduleid }), 'noSuchSchedule');
    for (const bad of ['', 'x', '0', '01', '-1', '99999'])
      assert.equal(await code(a, 'saDeleteSchedule.php', { scheduleid: bad }), 'noSuchSchedule', bad);
    assert.equal(await code(a, 'saDeleteSchedule.php', {}), 'noSuchSchedule');
    assert.equal(await code(a, 'saDeleteSchedule.php', { scheduleid: first.scheduleid }), 'ok');
    assert.equal(await code(a, 'saDeleteSchedule.php', { scheduleid: first.scheduleid }), 'noSuchSchedule');
    assert.equal((await schedulesOf(a)).length, 2);
    assert.equal(await code(a, 'saScheduleAudit.php', fields), 'ok');
  });

  test('noriskAlreadyRun when scheduled, as saRunAudit answers it', async () => {
    assert.equal(
      await code(b, 'saScheduleAudit.php', { ipaddr: '127.0.31.7', audittype: 'basic', every: 'day' }),
      'ok',
    );
    assert.equal(await code(a, 'saRunAudit.php', { ipaddr: '127.0.31.8', audittype: 'norisk' }), 'ok');
    const [x] = await schedulesOf(a);
    await a.call('saDeleteSchedule.php', { scheduleid: x.scheduleid });
    assert.equal(
      await code(a, 'saScheduleAudit.php', { ipaddr: '127.0.31.8', audittype: 'norisk', every: 'month' }),
      'noriskAlreadyRun',
    );
  });

  test('schedules survive a restart and a backup restored elsewhere; deleting an account deletes its schedules', async () => {
    const before = await schedulesOf(a);
    const { dataDir, db } = t.app.services.config;
    const apikey = a.apikey!;
    await t.close();
    t = await startTestApp({ auditWorkers: 0, dataDir, db });
    a = t.client('127.0.31.9');
    await a.login(apikey, 'scha', PASSWORD);
    assert.deepEqual(await schedulesOf(a), before);
    // A backup restored into another data directory holds them too (admin schedule list reads its store).
    const file = join(tempDir(), 'backup.tar.gz');
    await admin(dataDir, 'backup', file);
    const restored = join(tempDir(), 'data');
    await admin(restored, 'restore', file);
    const listed = await adminJson(restored, 'schedule', 'list');
    assert.deepEqual(
      listed.filter((x: any) => x.userid === 'scha').map(({ userid: _, ...x }: any) => x),
      before,
    );
    const store = new ScheduleStore(t.app.services.db);
    assert.ok((await store.all()).length > before.length, 'the other account has one too');
    await t.app.services.db.deleteFrom('accounts').where('userid', '=', 'scha').execute();
    const left = await store.all();
    assert.equal(left.length, 1);
    assert.ok(left.every((s) => !before.some((x) => x.scheduleid === String(s.id))));
  });
});

describe('scheduled runs on the injected clock', () => {
  let t: TestApp;
  let c: VigilClient;
  const smtp = { sink: null as Awaited<ReturnType<typeof smtpSink>> | null };

  before(async () => {
    smtp.sink = await smtpSink();
    t = await startTestApp({ schedulePollMs: 100, smtpUrl: smtp.sink.url });
    const apikey = await t.account('runner', PASSWORD, {
      auditTypes: 'basic,desktop',
      allowIp: '127.0.31.16/28',
      email: 'runner@example.test',
    });
    // The clock moves days: the client logs in again by itself when its session ends.
    c = new VigilClient({ baseUrl: t.url, ca: t.ca, credentials: { apikey, userid: 'runner', password: PASSWORD } });
  });
  after(async () => {
    c.close();
    await t.close();
    await smtp.sink?.close();
  });

  test('a due schedule starts one run: an audit of the schedule, lastscanuid, the next run a period on', async () => {
    const id = (
      await c.call('saScheduleAudit.php', { ipaddr: '127.0.31.17', audittype: 'basic', every: 'day', ports: '1-1024' })
    ).scheduleid;
    await new Promise((r) => setTimeout(r, 400)); // several polls: nothing is due yet
    assert.deepEqual(await auditList(c), []);
    t.clock.advance(DAY - 1);
    await new Promise((r) => setTimeout(r, 400));
    assert.deepEqual(await auditList(c), [], 'a millisecond early: not yet');
    t.clock.advance(1);
    await eventually(async () => (await auditList(c)).length === 1, 'the run');
    const [audit] = await auditList(c);
    assert.equal(audit!.scheduleid, id);
    assert.equal(audit!.hostip, '127.0.31.17');
    assert.equal(audit!.time_queued, '2026-11-24 12:00:00');
    const info = await finished(c, audit!.scanuid!);
    assert.equal(info.basic.scanportstcp, '1-1024');
    await new Promise((r) => setTimeout(r, 400));
    assert.equal((await auditList(c)).length, 1, 'one run per due time, however many polls');
    const [s] = await schedulesOf(c);
    assert.equal(s.lastscanuid, audit!.scanuid);
    assert.equal(s.nextrun, '2026-11-25T12:00:00Z');
    // Missed runs are not made up: three days later, one run, and the cadence goes on.
    t.clock.advance(3 * DAY + 3_600_000);
    await eventually(async () => (await auditList(c)).length === 2, 'one run after a gap');
    await finished(c, (await auditList(c))[0]!.scanuid!);
    await new Promise((r) => setTimeout(r, 400));
    assert.equal((await auditList(c)).length, 2);
    assert.equal((await schedulesOf(c))[0].nextrun, '2026-11-28T12:00:00Z');
    await c.call('saDeleteSchedule.php', { scheduleid: id });
    // Its audits stay; they no longer name it.
    assert.ok((await auditList(c)).every((a) => a.scheduleid === undefined));
  });

  test('a run after the account lost its entitlement, its addresses or was disabled: a failed audit with the code, and a mail', async () => {
    const db = t.app.services.db;
    const mailsBefore = smtp.sink!.mails.length;
    await c.call('saScheduleAudit.php', {
      ipaddr: '127.0.31.18',
      audittype: 'desktop',
      every: 'day',
      notification: 'OCMP',
      alert: 'changes',
    });
    const steps: [() => Promise<unknown>, string][] = [
      [() => updateAccount(db, t.clock, 'runner', { auditTypes: 'basic' }), 'notEntitled'],
      [
        () => updateAccount(db, t.clock, 'runner', { auditTypes: 'basic,desktop', allowIp: '127.0.31.17' }),
        'IPPermissionsProblem',
      ],
      [
        () => updateAccount(db, t.clock, 'runner', { allowIp: '127.0.31.16/28', enabled: false }),
        'sessionAuthenticationFailure',
      ],
    ];
    for (const [i, [change, want]] of steps.entries()) {
      await change();
      t.clock.advance(DAY);
      await eventually(
        async () => (await db.selectFrom('audits').select('id').where('reason', '=', want).execute()).length === 1,
        `a run refused with ${want}`,
      );
      await eventually(async () => smtp.sink!.mails.length === mailsBefore + i + 1, `the mail of the ${want} run`);
      const mail = bodyOf(smtp.sink!.mails.at(-1)!.data);
      assert.match(mail, /^Subject: Vigil audit \d+ \(desktop\) of 127\.0\.31\.18: failed/m);
      assert.match(mail, new RegExp(want));
    }
    await updateAccount(db, t.clock, 'runner', { enabled: true });
    // Disabling ended its sessions: a new one.
    await c.login(c.apikey!, 'runner', PASSWORD);
    const failed = (await auditList(c)).filter((a) => a.folder === 'failed');
    assert.deepEqual(
      failed.map((a) => a.statusText),
      ['failed: sessionAuthenticationFailure', 'failed: IPPermissionsProblem', 'failed: notEntitled'],
    );
    const report = (await c.call('saGetAuditReport.php', { scanuid: failed[2]!.scanuid })).scaninfo;
    assert.equal(report.basic.reporttype, 'failed');
    assert.match(report.basic.summary, /notEntitled/);
    // Entitled again: the next run is queued and runs.
    t.clock.advance(DAY);
    await eventually(
      async () => (await auditList(c)).some((a) => a.folder === 'done' && a.type === 'desktop'),
      'a run',
    );
  });
});
