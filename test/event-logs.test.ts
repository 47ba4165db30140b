import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';
import { dbArgs } from './helpers/pgdb.ts';
import { admin, serve, tempDir, VIGIL, type Served } from './helpers/server.ts';
import { finished, runAudit } from './helpers/audits.ts';
import { eventually } from './helpers/wait.ts';
import { adminLogWanted } from '../src/cli/admin-log.ts';

const PASSWORD = 'event logs pass 9';
const run = promisify(execFile);

/** The JSON log lines of a stderr text (other lines, e.g. warnings, skipped). */
const lines = (text: string): any[] =>
  text
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l));
const one = (text: string, msg: string): any => {
  const found = lines(text).filter((l) => l.msg === msg);
  assert.equal(found.length, 1, `one '${msg}' line in:\n${text}`);
  return found[0];
};

describe('event logs: audits, admin actions, start and shutdown (issue 18)', () => {
  let s: Served;
  let apikey: string;
  const secrets: string[] = [PASSWORD];

  before(async () => {
    const dataDir = tempDir();
    // The first admin command needs a store: a serve start makes it.
    s = await serve({ dataDir, env: { VIGIL_LOG_LEVEL: 'info' } });
  });
  after(() => s.stop());

  test('serve started: listeners, version, store engine', async () => {
    // Logged just after the ready line, through an asynchronous stream.
    await eventually(async () => s.stderr().includes('serve started'), 'the start line');
    const l = one(s.stderr(), 'serve started');
    assert.equal(l.level, 30);
    assert.deepEqual(Object.keys(l.listeners).sort(), ['http', 'https']);
    assert.match(l.version, /^\d+\.\d+\.\d+/);
    assert.ok(['sqlite', 'postgresql'].includes(l.store));
  });

  test('admin actions log one line each on stderr, without password or API key', async () => {
    const add = await admin(
      s.dataDir,
      'account',
      'add',
      '--userid',
      'evlog',
      '--password',
      PASSWORD,
      '--audit-types',
      'basic',
      '--allow-ip',
      '127.0.1.0/24',
      '--json',
    );
    apikey = JSON.parse(add.stdout).apikey;
    secrets.push(apikey);
    const added = one(add.stderr, 'admin: account added');
    assert.equal(added.userid, 'evlog');
    assert.deepEqual(added.auditTypes, ['basic']);
    assert.equal(added.admin, true);

    const upd = await admin(
      s.dataDir,
      'account',
      'update',
      '--userid',
      'evlog',
      '--password',
      `${PASSWORD}x`,
      '--email',
      'ev@example.org',
    );
    secrets.push(`${PASSWORD}x`);
    assert.deepEqual(one(upd.stderr, 'admin: account updated').changed.sort(), ['email', 'password']);

    const rot = await admin(s.dataDir, 'apikey', 'rotate', '--userid', 'evlog', '--json');
    const old = apikey;
    apikey = JSON.parse(rot.stdout).apikey;
    secrets.push(apikey);
    assert.equal(one(rot.stderr, 'admin: apikey rotated').userid, 'evlog');

    const clear = await admin(s.dataDir, 'throttle', 'clear', '--all');
    assert.equal(one(clear.stderr, 'admin: throttle cleared').all, true);
    const dist = await admin(s.dataDir, 'distribute');
    assert.equal(typeof one(dist.stderr, 'admin: distribution cycle').ms, 'number');

    for (const text of [add.stderr, upd.stderr, rot.stderr, clear.stderr, dist.stderr])
      for (const secret of [...secrets, old]) assert.ok(!text.includes(secret), 'a secret in the admin log');
    // Reads change nothing and log nothing.
    assert.equal(lines((await admin(s.dataDir, 'account', 'list')).stderr).length, 0);
    await admin(s.dataDir, 'account', 'update', '--userid', 'evlog', '--password', PASSWORD);
  });

  test('an audit: queued, started, finished with its facts; API lines carry the userid', async () => {
    const c = s.client();
    await c.login(apikey, 'evlog', PASSWORD);
    const scanuid = Number(await runAudit(c, { ipaddr: '127.0.1.1-2', audittype: 'basic' }));
    const report = await finished(c, String(scanuid));
    await eventually(
      async () => lines(s.stderr()).some((l) => l.msg === 'audit finished' && l.scanuid === scanuid),
      'the finished line',
    );
    const facts = { scanuid, userid: 'evlog', type: 'basic', hostip: '127.0.1.1-2', targets: 2 };
    for (const msg of ['audit queued', 'audit started', 'audit finished']) {
      const l = one(s.stderr(), msg);
      for (const [k, v] of Object.entries(facts)) assert.equal(l[k], v, `${msg}: ${k}`);
    }
    const done = one(s.stderr(), 'audit finished');
    assert.equal(done.state, 'done');
    assert.deepEqual(done.risk, report.risk);
    assert.ok(Number.isInteger(done.ms) && done.ms >= 0);
    const api = lines(s.stderr()).filter((l) => l.msg === 'api');
    const run = api.find((l) => l.script === 'saRunAudit.php');
    assert.equal(run?.userid, 'evlog');
    // auth.php is not a session call: no userid on its line (the typed field is not trusted).
    assert.equal(api.find((l) => l.script === 'auth.php')?.userid, undefined);
  });

  test('shutdown: signal and drain duration; no secret anywhere in the serve log', async () => {
    assert.equal(await s.stop('SIGTERM'), 0);
    const stopping = one(s.stderr(), 'serve stopping');
    const stopped = one(s.stderr(), 'serve stopped');
    assert.equal(stopping.signal, 'SIGTERM');
    assert.equal(stopped.signal, 'SIGTERM');
    assert.ok(Number.isInteger(stopped.drainMs) && stopped.drainMs >= 0);
    for (const secret of secrets) assert.ok(!s.stderr().includes(secret), 'a secret in the serve log');
  });
});

describe('log format', () => {
  // One pretty `serve` for the tests below: the first two read its log, the third only needs a store to run
  // `admin` on (a start of bin/vigil costs 1-2 s of CPU; issue 32).
  let s: Served;
  before(async () => {
    s = await serve({ env: { VIGIL_LOG_LEVEL: 'info', VIGIL_LOG_FORMAT: 'pretty' } });
  });
  after(() => s.stop());

  test('VIGIL_LOG_FORMAT=pretty: readable lines, not JSON; json forces JSON; a bad value is refused', async () => {
    await eventually(async () => s.stderr().includes('serve started'), 'the pretty start line');
    assert.equal(lines(s.stderr()).length, 0, s.stderr());
    const { stderr } = await run(
      VIGIL,
      ['admin', 'throttle', 'clear', '--all', '--data', s.dataDir, ...(await dbArgs(s.dataDir))],
      {
        env: { ...process.env, VIGIL_LOG_FORMAT: 'pretty', VIGIL_DATA: '' },
      },
    );
    assert.match(stderr, /INFO.*admin: throttle cleared/);
    assert.ok(!stderr.trimStart().startsWith('{'), stderr);
    await assert.rejects(serve({ env: { VIGIL_LOG_FORMAT: 'xml' } }), /log-format|json, pretty or auto/);
  });

  test('pretty: one line per event, its facts on the same line', async () => {
    await eventually(async () => s.stderr().includes('serve started'), 'the pretty start line');
    const line = s
      .stderr()
      .split('\n')
      .find((l) => l.includes('serve started'));
    assert.match(line ?? '', /serve started.*"listeners":\{.*"store":"(sqlite|postgresql)"/, s.stderr());
  });

  test('an admin command on a terminal prints its result and no log line (issue 29)', async (t) => {
    if (!existsSync('/usr/bin/script'))
      return t.skip('script(1) (util-linux) is not installed: no terminal to test with');
    const argv = [VIGIL, 'admin', 'throttle', 'clear', '--all', '--data', s.dataDir, ...(await dbArgs(s.dataDir))];
    const command = argv.map((a) => `'${a}'`).join(' ');
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('VIGIL_')));
    // script(1) runs the command on a pseudo-terminal: stdout and stderr are both the TTY.
    const onTerminal = async (extra: Record<string, string>) =>
      (await run('script', ['-qec', command, '/dev/null'], { env: { ...env, VIGIL_LOG_LEVEL: 'info', ...extra } }))
        .stdout;
    assert.equal((await onTerminal({})).replace(/\r/g, ''), 'cleared 0 entries\n');
    // Asked for by name, the line comes, as it does on a pipe (the tests above).
    assert.match(await onTerminal({ VIGIL_LOG_FORMAT: 'json' }), /"msg":"admin: throttle cleared"/);
  });

  test('admin log lines: on a pipe always, on a terminal only when VIGIL_LOG_FORMAT names a format', () => {
    assert.equal(adminLogWanted(false, undefined), true);
    assert.equal(adminLogWanted(true, undefined), false);
    assert.equal(adminLogWanted(true, 'auto'), false);
    assert.equal(adminLogWanted(true, 'json'), true);
    assert.equal(adminLogWanted(true, 'pretty'), true);
  });
});
