import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { VigilClient } from '../src/client/index.ts';
import { addAccount, admin, serve, type Served } from './helpers/server.ts';
import { eventually } from './helpers/wait.ts';

const PASSWORD = 'correct horse 1';
const DNS = ['--dns-credits', '5'];

describe('auth.php and session rules over real HTTPS', () => {
  let s: Served;
  let keyA: string;
  let keyB: string;

  before(async () => {
    s = await serve({ args: ['--session-ttl', '2s'] });
    keyA = await addAccount(s.dataDir, 'alice', PASSWORD, ...DNS);
    keyB = await addAccount(s.dataDir, 'bob', PASSWORD, ...DNS);
  });
  after(async () => {
    assert.equal(await s.stop(), 0, 'SIGTERM exits 0');
  });

  const auth = (fields: Record<string, string | undefined>) => s.client().post('auth.php', fields);
  const list = (apikey: string | undefined, sessionToken: string | undefined) =>
    s.client().post('dnsGetDomainList.php', { apikey, sessionToken });

  test('a good login returns a token that works for a call', async () => {
    const r = await auth({ apikey: keyA, userid: 'alice', password: PASSWORD });
    assert.equal(r.http, 200);
    assert.match(r.contentType, /^application\/json/);
    assert.equal(r.body.status, '0');
    assert.match(r.body.sessionToken, /^[A-Za-z0-9_-]{43}$/);
    const l = await list(keyA, r.body.sessionToken);
    assert.equal(l.body.status, '0');
    assert.equal(l.body.domaincount, 0);
  });

  test('auth.php error codes', async () => {
    const cases: [Record<string, string | undefined>, string][] = [
      [{ userid: 'alice', password: PASSWORD }, 'invalid apikey format'],
      [{ apikey: 'ABC', userid: 'alice', password: PASSWORD }, 'invalid apikey format'],
      [{ apikey: keyA.toUpperCase(), userid: 'alice', password: PASSWORD }, 'invalid apikey format'],
      [{ apikey: '0'.repeat(32), userid: 'alice', password: PASSWORD }, 'invalid apikey - not in db'],
      [{ apikey: keyA, password: PASSWORD }, 'missing credentials'],
      [{ apikey: keyA, userid: 'alice' }, 'missing credentials'],
      [{ apikey: keyA, userid: '', password: '' }, 'missing credentials'],
      [{ apikey: keyA, userid: 'alice', password: 'wrong password' }, 'invalidLogin'],
      // B's userid and password with A's key: a valid pair for another account
      [{ apikey: keyA, userid: 'bob', password: PASSWORD }, 'invalidLogin'],
    ];
    for (const [fields, code] of cases) {
      const r = await auth(fields);
      assert.equal(r.http, 200);
      assert.deepEqual(r.body, { status: '-1', error: code }, JSON.stringify(fields));
    }
  });

  test('session error codes on a session script', async () => {
    const token = (await auth({ apikey: keyA, userid: 'alice', password: PASSWORD })).body.sessionToken;
    const cases: [string | undefined, string | undefined, string][] = [
      [undefined, token, 'invalid apikey format'],
      ['nothex', token, 'invalid apikey format'],
      ['f'.repeat(32), token, 'invalid apikey - not in db'],
      [keyA, undefined, 'sessionAuthenticationFailure'],
      [keyA, 'short', 'sessionAuthenticationFailure'],
      [keyA, 'A'.repeat(43), 'sessionAuthenticationFailure'],
    ];
    for (const [apikey, sessionToken, code] of cases) {
      assert.deepEqual((await list(apikey, sessionToken)).body, { status: '-1', error: code });
    }
  });

  test("a token is bound to its account and key: never works with another account's key", async () => {
    const tokenA = (await auth({ apikey: keyA, userid: 'alice', password: PASSWORD })).body.sessionToken;
    const tokenB = (await auth({ apikey: keyB, userid: 'bob', password: PASSWORD })).body.sessionToken;
    assert.equal((await list(keyB, tokenA)).body.error, 'sessionAuthenticationFailure');
    assert.equal((await list(keyA, tokenB)).body.error, 'sessionAuthenticationFailure');
    assert.equal((await list(keyA, tokenA)).body.status, '0');
    assert.equal((await list(keyB, tokenB)).body.status, '0');
  });

  test('tokens expire after --session-ttl with sessionTimeout', async () => {
    const token = (await auth({ apikey: keyA, userid: 'alice', password: PASSWORD })).body.sessionToken;
    assert.equal((await list(keyA, token)).body.status, '0');
    // Polled, not a fixed 2.2 s: the reply that says sessionTimeout is the one asserted.
    let expired: unknown;
    await eventually(
      async () => (expired = (await list(keyA, token)).body as { error?: string }).error === 'sessionTimeout',
      'the token expires',
    );
    assert.deepEqual(expired, { status: '-1', error: 'sessionTimeout' });
    const fresh = (await auth({ apikey: keyA, userid: 'alice', password: PASSWORD })).body.sessionToken;
    assert.equal((await list(keyA, fresh)).body.status, '0');
  });

  test('a disabled account cannot log in or use its tokens; enabling restores logins', async () => {
    const key = await addAccount(s.dataDir, 'carol', PASSWORD, ...DNS);
    const token = (await auth({ apikey: key, userid: 'carol', password: PASSWORD })).body.sessionToken;
    await admin(s.dataDir, 'account', 'update', '--userid', 'carol', '--disable');
    assert.equal((await list(key, token)).body.error, 'sessionAuthenticationFailure');
    assert.equal((await auth({ apikey: key, userid: 'carol', password: PASSWORD })).body.error, 'invalidLogin');
    await admin(s.dataDir, 'account', 'update', '--userid', 'carol', '--enable');
    const again = await auth({ apikey: key, userid: 'carol', password: PASSWORD });
    assert.equal(again.body.status, '0');
    assert.equal((await list(key, again.body.sessionToken)).body.status, '0');
  });

  test('rotating the API key ends the old key and its tokens', async () => {
    const key = await addAccount(s.dataDir, 'dave', PASSWORD, ...DNS);
    const token = (await auth({ apikey: key, userid: 'dave', password: PASSWORD })).body.sessionToken;
    const { stdout } = await admin(s.dataDir, 'apikey', 'rotate', '--userid', 'dave', '--json');
    const newKey = JSON.parse(stdout).apikey;
    assert.notEqual(newKey, key);
    assert.equal((await list(key, token)).body.error, 'invalid apikey - not in db');
    assert.equal((await list(newKey, token)).body.error, 'sessionAuthenticationFailure');
    const c = s.client();
    await c.login(newKey, 'dave', PASSWORD);
    assert.equal((await c.call('dnsGetDomainList.php')).status, '0');
  });

  test('accountGetInfo.php tells an account what it may do, and only to its session', async () => {
    const key = await addAccount(
      s.dataDir,
      'erin',
      PASSWORD,
      '--audit-types',
      'basic,standard',
      '--allow-ip',
      '127.0.0.9,127.0.1.0/24',
      '--email',
      'erin@example.net',
    );
    const erin = s.client();
    await erin.login(key, 'erin', PASSWORD);
    const info = await erin.call('accountGetInfo.php');
    assert.deepEqual(
      { ...info, dnsExpiryjtime: typeof info.dnsExpiryjtime },
      {
        status: '0',
        userid: 'erin',
        email: 'erin@example.net',
        auditTypes: ['basic', 'standard'],
        allowedAddresses: ['127.0.0.9', '127.0.1.0/24'],
        dnsSubscription: false,
        dnsCredits: null,
        dnsCreditsUsed: 0,
        dnsExpiryjtime: 'object',
        domaincount: 0,
      },
    );
    const alice = s.client();
    await alice.login(keyA, 'alice', PASSWORD);
    await alice.call('dnsAddDomain.php', { domain: 'info-alice.example', domaintype: 'master', aup: 'YES' });
    const a = await alice.call('accountGetInfo.php');
    assert.deepEqual(
      [a.auditTypes, a.allowedAddresses, a.dnsSubscription, a.dnsCredits, a.dnsCreditsUsed, a.domaincount],
      [[], [], true, 5, 1, 1],
    );
    assert.match(a.dnsExpiryreadable, /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/);
    assert.equal(
      (await s.client().post('accountGetInfo.php', { apikey: keyA })).body.error,
      'sessionAuthenticationFailure',
    );
  });
});

describe('restart on the same data directory', () => {
  test('keeps accounts, the certificate and valid tokens', async () => {
    const first = await serve();
    const key = await addAccount(first.dataDir, 'erin', PASSWORD, ...DNS);
    const c = first.client();
    const token = await c.login(key, 'erin', PASSWORD);
    assert.equal(await first.stop(), 0);

    const second = await serve({ dataDir: first.dataDir });
    try {
      assert.equal(second.ca, first.ca, 'certificate reused');
      assert.doesNotMatch(second.stdout(), /certificate created/);
      const r = await second.client().post('dnsGetDomainList.php', { apikey: key, sessionToken: token });
      assert.equal(r.body.status, '0');
    } finally {
      await second.stop();
    }
  });

  test('SIGINT drains a request in flight and exits 0; a first start tells how to create an account', async () => {
    const s = await serve();
    let c: VigilClient | undefined;
    try {
      assert.match(s.readyLine, /^vigil ready https=127\.0\.0\.1:\d+ http=127\.0\.0\.1:\d+$/);
      assert.match(s.stdout(), /admin account add/);
      const key = await addAccount(s.dataDir, 'frank', PASSWORD);
      c = new VigilClient({ baseUrl: s.httpsUrl, ca: s.ca });
      await c.post('auth.php', {}); // open the connection first
      // A login spends ~100 ms in scrypt: the signal lands while it runs.
      const pending = c.post('auth.php', { apikey: key, userid: 'frank', password: PASSWORD });
      await sleep(40);
      const exit = s.stop('SIGINT');
      const r = await pending;
      assert.equal(r.body.status, '0', 'the request in flight was answered');
      assert.equal(await exit, 0);
    } finally {
      c?.close();
      await s.stop();
    }
  });
});
