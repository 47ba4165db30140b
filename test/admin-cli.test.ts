import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { before, describe, test } from 'node:test';
import { dataDirWithStore } from './helpers/store.ts';
import { promisify } from 'node:util';
import { dbArgs, testDb } from './helpers/pgdb.ts';
import { admin, adminJson, serve, tempDir, VIGIL } from './helpers/server.ts';

const run = promisify(execFile);

/** Runs bin/vigil expecting failure; returns exit code and stderr. */
async function fails(...args: string[]): Promise<{ code: number; stderr: string }> {
  try {
    await run(VIGIL, args);
  } catch (err: any) {
    return { code: err.code, stderr: err.stderr };
  }
  assert.fail(`expected failure: vigil ${args.join(' ')}`);
}

describe('bin/vigil admin, as an operator runs it', () => {
  let data: string;
  before(async () => (data = await dataDirWithStore()));

  test('account add --json prints the userid and a 32-hex API key', async () => {
    const out = await adminJson(
      data,
      'account',
      'add',
      '--userid',
      'ops',
      '--password',
      'long enough',
      '--audit-types',
      'all',
      '--allow-ip',
      '127.0.0.1,10.1.*.1-9,192.0.2.0/24,::1',
      '--dns-credits',
      '4',
      '--dns-expiry',
      '2030-01-31',
      '--email',
      'ops@example.org',
    );
    assert.equal(out.userid, 'ops');
    assert.match(out.apikey, /^[0-9a-f]{32}$/);
    assert.deepEqual(out.auditTypes, ['basic', 'norisk', 'desktop', 'standard', 'advanced']);
    assert.deepEqual(out.allowIp, ['127.0.0.1', '10.1.*.1-9', '192.0.2.0/24', '::1']);
    assert.equal(out.dnsCredits, 4);
    assert.equal(out.dnsExpiry, '2030-01-31');
    assert.equal(out.email, 'ops@example.org');
    assert.equal(out.enabled, true);
  });

  test('account add without --json prints readable text with the key; defaults are no entitlements', async () => {
    const { stdout } = await admin(data, 'account', 'add', '--userid', 'plain', '--password', 'long enough');
    assert.match(stdout, /apikey: [0-9a-f]{32}/);
    assert.match(stdout, /audit types: -/);
    assert.match(stdout, /DNS: no subscription/);
  });

  test('list shows every account and never a hash or a key', async () => {
    const rows = await adminJson(data, 'account', 'list');
    assert.deepEqual(
      rows.map((r: any) => r.userid),
      ['ops', 'plain'],
    );
    const text = JSON.stringify(rows);
    assert.doesNotMatch(text, /hash|apikey|scrypt/);
  });

  test('update changes what it is told and nothing else', async () => {
    const out = await adminJson(
      data,
      'account',
      'update',
      '--userid',
      'plain',
      '--audit-types',
      'basic,standard',
      '--dns-credits',
      '2',
    );
    assert.deepEqual(out.auditTypes, ['basic', 'standard']);
    assert.equal(out.dnsCredits, 2);
    assert.match(out.dnsExpiry, /^\d{4}-\d{2}-\d{2}$/, 'a new subscription runs one year');
    assert.equal(out.email, null);
    const disabled = await adminJson(data, 'account', 'update', '--userid', 'plain', '--disable');
    assert.equal(disabled.enabled, false);
    assert.deepEqual(disabled.auditTypes, ['basic', 'standard']);
  });

  test('apikey rotate prints a new key', async () => {
    const a = await adminJson(data, 'apikey', 'rotate', '--userid', 'ops');
    const b = await adminJson(data, 'apikey', 'rotate', '--userid', 'ops');
    assert.equal(a.userid, 'ops');
    assert.match(a.apikey, /^[0-9a-f]{32}$/);
    assert.notEqual(a.apikey, b.apikey);
  });

  test('operator mistakes exit non-zero with a message and change nothing', async () => {
    const cases: [string[], RegExp][] = [
      [['account', 'add', '--userid', 'ops', '--password', 'long enough'], /already exists/],
      [['account', 'add', '--userid', 'x', '--password', 'short'], /at least 8/],
      [['account', 'add', '--userid', 'x'], /password is required/],
      [['account', 'add', '--userid', 'bad user', '--password', 'long enough'], /userid/],
      [
        ['account', 'add', '--userid', 'x', '--password', 'long enough', '--audit-types', 'basic,turbo'],
        /unknown audit type/,
      ],
      [['account', 'add', '--userid', 'x', '--password', 'long enough', '--allow-ip', '10.0.0.01'], /allow-ip/],
      [['account', 'add', '--userid', 'x', '--password', 'long enough', '--allow-ip', '10.0.0.300'], /allow-ip/],
      [['account', 'add', '--userid', 'x', '--password', 'long enough', '--dns-credits', '-1'], /dns-credits/],
      [
        [
          'account',
          'add',
          '--userid',
          'x',
          '--password',
          'long enough',
          '--dns-credits',
          '1',
          '--dns-expiry',
          '2030-02-30',
        ],
        /YYYY-MM-DD/,
      ],
      [['account', 'add', '--userid', 'x', '--password', 'long enough', '--email', 'nope'], /e-mail/],
      [['account', 'update', '--userid', 'ghost', '--enable'], /no account ghost/],
      [['apikey', 'rotate', '--userid', 'ghost'], /no account ghost/],
    ];
    for (const [args, message] of cases) {
      const { code, stderr } = await fails('admin', ...args, '--data', data, ...(await dbArgs(data)));
      assert.notEqual(code, 0, args.join(' '));
      assert.match(stderr, message, args.join(' '));
    }
    const rows = await adminJson(data, 'account', 'list');
    assert.deepEqual(
      rows.map((r: any) => r.userid),
      ['ops', 'plain'],
    );
  });

  test('VIGIL_DATA stands in for --data', async () => {
    // On PostgreSQL (VIGIL_TEST_DB) the accounts live in the directory's database, named by VIGIL_DB.
    const db = await testDb(data);
    const { stdout } = await run(VIGIL, ['admin', 'account', 'list', '--json'], {
      env: { ...process.env, VIGIL_DATA: data, ...(db ? { VIGIL_DB: db } : {}) },
    });
    assert.equal(JSON.parse(stdout).length, 2);
  });
});

describe('bin/vigil serve flags', () => {
  test('--help names every flag of INTERFACE.md', async () => {
    const { stdout } = await run(VIGIL, ['serve', '--help']);
    for (const flag of [
      '--data',
      '--db',
      '--listen',
      '--https-port',
      '--http-port',
      '--dns-port',
      '--forward-port',
      '--publish-interval',
      '--session-ttl',
      '--tls-cert',
      '--tls-key',
      '--domain-hold',
      '--ns-domain',
      '--secondaries',
      '--catalog-zone',
      '--forward-address',
      '--smtp-url',
      '--scan-allow',
    ]) {
      assert.ok(stdout.includes(flag), flag);
    }
  });

  test('bad values are refused before anything starts', async () => {
    for (const args of [
      ['--https-port', 'abc'],
      ['--https-port', '70000'],
      ['--session-ttl', '5 minutes'],
      ['--domain-hold', 'maybe'],
    ]) {
      const { code, stderr } = await fails('serve', '--data', tempDir(), ...args);
      assert.notEqual(code, 0);
      assert.match(stderr, /invalid|must/i, args.join(' '));
    }
  });

  test('env variables configure serve; the ready line names each listener; logs hold no secrets', async () => {
    const secrets: string[] = [];
    const s = await serve({
      env: { VIGIL_LOG_LEVEL: 'info', VIGIL_SESSION_TTL: '1h' },
      args: ['--dns-port', '15353', '--forward-port', '18181'],
    });
    try {
      assert.match(
        s.readyLine,
        /^vigil ready https=127\.0\.0\.1:\d+ http=127\.0\.0\.1:\d+ dns=127\.0\.0\.1:15353 forward=127\.0\.0\.1:18181$/,
      );
      const password = 'very secret words';
      const key = (await adminJson(s.dataDir, 'account', 'add', '--userid', 'logme', '--password', password)).apikey;
      const c = s.client();
      const token = await c.login(key, 'logme', password);
      await c.post('auth.php', { apikey: key, userid: 'logme', password: 'wrong guess' });
      secrets.push(key, token);
    } finally {
      await s.stop();
    }
    const lines = s
      .stderr()
      .split('\n')
      .filter((l) => l.includes('"msg":"api"'));
    assert.ok(lines.length >= 2, 'one line per request');
    const first = JSON.parse(lines[0]!);
    assert.equal(first.script, 'auth.php');
    assert.equal(typeof first.ms, 'number');
    assert.ok(lines.some((l) => l.includes('"error":"invalidLogin"')));
    assert.doesNotMatch(s.stderr(), /very secret|wrong guess|apikey=|sessionToken/);
    for (const secret of secrets) assert.ok(!s.stderr().includes(secret), 'no key or token in the log');
  });
});
