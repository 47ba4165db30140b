// The command line of issue 31 against a real `bin/vigil serve`, as a user
// and an operator run it: `vigil audit run --ports`, `vigil audit
// schedule|schedules|unschedule`, `bin/vigil admin schedule run|list`.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { admin, serve, type Served } from './helpers/server.ts';
import { UserShell } from './helpers/user-cli.ts';

const PASSWORD = 'correct horse 31';
const TARGET = '127.0.31.65';

describe('vigil audit run --ports, schedule, schedules, unschedule; admin schedule run, list', () => {
  let s: Served;
  let u: UserShell;

  before(async () => {
    s = await serve({ env: { VIGIL_SCHEDULE_POLL: '100ms' } });
    u = await UserShell.create(s, 'schedcli', PASSWORD, '--audit-types', 'basic', '--allow-ip', '127.0.31.64/28');
    const r = await u.login();
    assert.equal(r.code, 0, r.stderr);
  });
  after(() => s.stop());

  test('audit run --ports: the list goes to the server; a bad one exits 1 with syntaxInvalidPorts', async () => {
    const ran = await u.json('audit', 'run', TARGET, '--type', 'basic', '--ports', '1-3,7', '--wait');
    assert.equal(ran.folder, 'done');
    const report = await u.json('audit', 'report', ran.scanuid);
    assert.equal(report.basic.scanportstcp, '1-3,7');
    assert.equal(report.basic.portsScanned, 4);
    const bad = await u.vigil(['audit', 'run', TARGET, '--type', 'basic', '--ports', '22,,80']);
    assert.equal(bad.code, 1, bad.stderr);
    assert.match(bad.stderr, /syntaxInvalidPorts/);
  });

  test('schedule, schedules, unschedule; errors exit 1 with the code, usage mistakes 2', async () => {
    const made = await u.json(
      'audit',
      'schedule',
      TARGET,
      '127.0.31.66',
      '--type',
      'basic',
      '--every',
      'week',
      '--alert',
      'changes',
      '--ports',
      '80,22',
      '--notify',
    );
    assert.equal(made.ipaddr, `${TARGET},127.0.31.66`);
    assert.deepEqual([made.notification, made.excludedos], [true, false]);
    assert.equal(made.every, 'week');
    assert.equal(made.alert, 'changes');
    assert.equal(made.ports, '22,80');
    assert.match(made.nextrun, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    const list = await u.json('audit', 'schedules');
    assert.deepEqual(
      list.map((x: any) => x.scheduleid),
      [made.scheduleid],
    );
    const text = await u.vigil(['audit', 'schedules']);
    assert.equal(text.code, 0, text.stderr);
    assert.match(
      text.stdout,
      /^ID\s+TYPE\s+TARGETS\s+PORTS\s+EVERY\s+ALERT\s+NOTIFY\s+EXCLUDE DOS\s+NEXT RUN\s+LAST AUDIT$/m,
    );
    // The table shows what --json shows, the notification and excludedos flags included.
    assert.match(
      text.stdout,
      new RegExp(
        `^${made.scheduleid}\\s+basic\\s+${TARGET},127\\.0\\.31\\.66\\s+22,80\\s+week\\s+changes\\s+yes\\s+no\\s+${made.nextrun}\\s+-$`,
        'm',
      ),
    );
    const usage = await u.vigil(['audit', 'schedule', TARGET, '--type', 'basic', '--every', 'hour']);
    assert.equal(usage.code, 2, usage.stderr);
    const refused = await u.vigil(['audit', 'schedule', '10.0.0.1', '--type', 'basic', '--every', 'day']);
    assert.equal(refused.code, 1, refused.stderr);
    assert.match(refused.stderr, /IPPermissionsProblem/);
    const gone = await u.vigil(['audit', 'unschedule', made.scheduleid]);
    assert.equal(gone.code, 0, gone.stderr);
    assert.match(gone.stdout, new RegExp(`schedule ${made.scheduleid} deleted`));
    const again = await u.vigil(['audit', 'unschedule', made.scheduleid]);
    assert.equal(again.code, 1);
    assert.match(again.stderr, /noSuchSchedule/);
    assert.deepEqual(await u.json('audit', 'schedules'), []);
  });

  test('admin schedule run starts the run at once, as if it were due; the cadence stays', async () => {
    const made = await u.json(
      'audit',
      'schedule',
      TARGET,
      '--type',
      'basic',
      '--every',
      'month',
      '--ports',
      '1',
      '--exclude-dos',
    );
    const { stdout } = await admin(s.dataDir, 'schedule', 'run', made.scheduleid, '--json');
    const run = JSON.parse(stdout);
    assert.equal(run.scheduleid, made.scheduleid);
    assert.equal(run.state === 'queued' || run.state === 'running' || run.state === 'done', true, stdout);
    const [listed] = await u.json('audit', 'schedules');
    assert.equal(listed.lastscanuid, run.scanuid);
    assert.equal(listed.nextrun, made.nextrun, 'an extra run: the next regular one stays');
    const audits = await u.json('audit', 'list');
    assert.equal(audits.find((a: any) => a.scanuid === run.scanuid)?.scheduleid, made.scheduleid);
    const all = JSON.parse((await admin(s.dataDir, 'schedule', 'list', '--json')).stdout);
    assert.deepEqual(
      all.map((x: any) => [x.scheduleid, x.userid]),
      [[made.scheduleid, 'schedcli']],
    );
    const text = (await admin(s.dataDir, 'schedule', 'list')).stdout;
    assert.match(
      text,
      new RegExp(
        `^${made.scheduleid}  schedcli  basic of ${TARGET} ports 1  every month \\(alert always, exclude-dos\\)  next `,
        'm',
      ),
    );
    await assert.rejects(admin(s.dataDir, 'schedule', 'run', '999'), /no schedule 999/);
  });
});
