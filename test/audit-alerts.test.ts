// alert=changes (INTERFACE.md "Audits: ports and schedules"): a scheduled
// run mails only when a finding is new or resolved since the schedule's
// previous run; a first run always mails; the mail lists what changed
// first. Real daemons on loopback come and go between runs; the mail goes
// to a real SMTP server; the metrics count runs and alerts.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { changesBetween } from '../src/audit/changes.ts';
import { VigilClient } from '../src/client/index.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { auditList, finished } from './helpers/audits.ts';
import { freePort } from './helpers/server.ts';
import { bodyOf, type SmtpSink, smtpSink } from './helpers/smtp.ts';
import { bannerServer, closeAll, listenOnFirst, wildcardListeners } from './helpers/targets.ts';
import { eventually } from './helpers/wait.ts';

const PASSWORD = 'correct horse 31';
const DAY = 86_400_000;
const TARGET = '127.0.31.33';

let t: TestApp;
let c: VigilClient;
let smtp: SmtpSink;
let metricsUrl: string;
const servers: ReturnType<typeof bannerServer>[] = [];

before(async () => {
  smtp = await smtpSink();
  const metricsPort = await freePort();
  t = await startTestApp({ schedulePollMs: 100, smtpUrl: smtp.url, metricsPort });
  metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
  const apikey = await t.account('alerts', PASSWORD, {
    auditTypes: 'basic',
    allowIp: TARGET,
    email: 'team@example.test',
  });
  c = new VigilClient({ baseUrl: t.url, ca: t.ca, credentials: { apikey, userid: 'alerts', password: PASSWORD } });
});
after(async () => {
  c.close();
  await closeAll(servers);
  await t.close();
  await smtp.close();
});

/** Moves the clock a day and waits for the run it starts to end; returns its report. */
async function nextRun(): Promise<any> {
  const before = (await auditList(c)).length;
  t.clock.advance(DAY);
  await eventually(async () => (await auditList(c)).length === before + 1, 'the day’s run');
  return finished(c, (await auditList(c))[0]!.scanuid!);
}

/** The value of a metric line, 0 when absent. */
async function metric(line: string): Promise<number> {
  const text = await (await fetch(metricsUrl)).text();
  const found = text.split('\n').find((l) => l.startsWith(`${line} `));
  return found ? Number(found.split(' ')[1]) : 0;
}

test('alert=changes: the first run mails, an unchanged run does not, a new and a resolved finding do, listed first', async () => {
  const taken = wildcardListeners();
  const ports = [18040, 18101, 18988, 19040, 19101].filter((p) => !taken.has(p)).slice(0, 2);
  assert.equal(ports.length, 2);
  const ssh = bannerServer('SSH-2.0-OpenSSH_7.4');
  servers.push(ssh);
  await listenOnFirst(ssh, TARGET, [ports[0]!]);
  const { scheduleid } = await c.call('saScheduleAudit.php', {
    ipaddr: TARGET,
    audittype: 'basic',
    every: 'day',
    alert: 'changes',
    notification: 'OCMP',
    ports: ports.join(','),
  });

  // 1: the first run always mails.
  const first = await nextRun();
  await eventually(async () => smtp.mails.length === 1, 'the first run’s mail');
  const one = bodyOf(smtp.mails[0]!.data);
  assert.match(
    one,
    new RegExp(
      `^Subject: Vigil audit ${first.basic.scanuid} \\(basic\\) of ${TARGET}: .*\\[schedule ${scheduleid}, first run\\]`,
      'm',
    ),
  );
  assert.match(one, /First run of schedule/);

  // 2: the same findings: no mail, held back (and counted so).
  await nextRun();
  await eventually(async () => (await metric('vigil_schedule_alerts_total{result="held"}')) === 1, 'held');
  assert.equal(smtp.mails.length, 1);

  // 3: vsftpd 2.3.4 answers on the second port: new findings, mailed, listed before the summary.
  const ftp = bannerServer('220 (vsFTPd 2.3.4)');
  servers.push(ftp);
  await listenOnFirst(ftp, TARGET, [ports[1]!]);
  const third = await nextRun();
  await eventually(async () => smtp.mails.length === 2, 'the mail of a change');
  const two = bodyOf(smtp.mails[1]!.data);
  assert.match(two, new RegExp(`^Subject: Vigil audit ${third.basic.scanuid} .*\\[\\d+ new, 0 resolved\\]`, 'm'));
  const text = two.slice(two.indexOf('What changed'));
  assert.ok(two.indexOf('What changed') > 0 && two.indexOf('What changed') < two.indexOf('Findings by risk'));
  assert.match(text, new RegExp(`NEW\\s+\\[\\w+\\] ${TARGET.replace(/\./g, '\\.')} port ${ports[1]}`));
  assert.doesNotMatch(text.slice(0, text.indexOf('Findings by risk')), new RegExp(`port ${ports[0]}:`));

  // 4: it went away again: resolved, mailed.
  await closeAll([ftp]);
  const fourth = await nextRun();
  await eventually(async () => smtp.mails.length === 3, 'the mail of a resolved finding');
  const three = bodyOf(smtp.mails[2]!.data);
  assert.match(three, new RegExp(`^Subject: Vigil audit ${fourth.basic.scanuid} .*\\[0 new, \\d+ resolved\\]`, 'm'));
  assert.match(three, new RegExp(`RESOLVED \\[\\w+\\] ${TARGET.replace(/\./g, '\\.')} port ${ports[1]}`));

  // The metrics: four runs queued, none refused, three mails sent and one held; nothing due now.
  assert.equal(await metric('vigil_schedule_runs_total{outcome="queued"}'), 4);
  assert.equal(await metric('vigil_schedule_runs_total{outcome="refused"}'), 0);
  assert.equal(await metric('vigil_schedule_alerts_total{result="sent"}'), 3);
  assert.equal(await metric('vigil_schedule_alerts_total{result="held"}'), 1);
  assert.equal(await metric('vigil_schedules_due'), 0);
});

test('changesBetween: another product on a port is a change, even under the same check', () => {
  const entry = (id: string, port: string) => ({
    repid: '1',
    id,
    shortid: id,
    ip: '127.0.0.1',
    port,
    cat: 'General',
    cve: '',
    entrykey: '1_1',
    risk: 'other' as const,
    shortkey: 1,
    static_description: '',
    description: '',
    title: `${id} title`,
    type: 'LOG' as const,
    baseline: 'new',
  });
  const report = (entries: ReturnType<typeof entry>[]) =>
    ({
      basic: { scanportstcp: '80' },
      entries: { other: Object.fromEntries(entries.map((e, i) => [`1_${i}`, e])) },
      ports: [],
      risk: {},
      riskcatgrid: {},
    }) as any;
  const coverage = (product: string) => ({
    ports: '80',
    checks: ['web.headers'],
    products: { '127.0.0.1': { '80': product } },
  });
  const seen = [entry('vigil.service.detection', '80'), entry('web.headers', '80')];
  const same = changesBetween(
    { report: report(seen), coverage: coverage('Apache httpd') },
    { report: report(seen), coverage: coverage('Apache httpd') },
  );
  assert.deepEqual(same, []);
  const other = changesBetween(
    { report: report(seen), coverage: coverage('Apache httpd') },
    { report: report(seen), coverage: coverage('nginx') },
  );
  assert.deepEqual(
    other.map((x) => `${x.kind} ${x.id}`),
    ['new vigil.service.detection', 'new web.headers', 'resolved vigil.service.detection', 'resolved web.headers'],
  );
  // A check the later run did not run resolves nothing (like with like).
  const gone = changesBetween(
    { report: report(seen), coverage: coverage('Apache httpd') },
    { report: report([seen[0]!]), coverage: { ...coverage('Apache httpd'), checks: [] } },
  );
  assert.deepEqual(gone, []);
});
