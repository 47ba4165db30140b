import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestApp, type TestApp } from './helpers/app.ts';

const PASSWORD = 'correct horse 2';

describe('session lifetime on the injected clock', () => {
  let t: TestApp;
  before(async () => (t = await startTestApp()));
  after(() => t.close());

  test('a token lives exactly 24 hours', async () => {
    const key = await t.account('ttl', PASSWORD, { dnsCredits: 1 });
    const c = t.client();
    await c.login(key, 'ttl', PASSWORD);
    t.clock.advance(24 * 3_600_000 - 1);
    assert.equal((await c.call('dnsGetDomainList.php')).status, '0');
    t.clock.advance(1);
    await assert.rejects(c.call('dnsGetDomainList.php'), { code: 'sessionTimeout' });
    await c.login(key, 'ttl', PASSWORD);
    assert.equal((await c.call('dnsGetDomainList.php')).status, '0');
  });
});

describe('failed-login throttling on the injected clock (details: login-throttle.test.ts)', () => {
  let t: TestApp;
  before(async () => (t = await startTestApp()));
  after(() => t.close());

  const attempt = (from: string, key: string, userid: string, password: string) =>
    t
      .client(from)
      .post('auth.php', { apikey: key, userid, password })
      .then((r) => (r.body.error ?? 'ok') + (r.http === 429 ? ' 429' : ''));

  test('the fifth miss of a pair starts a one-second lock; then the right password gets in and the pair starts again', async () => {
    const key = await t.account('clean', PASSWORD);
    const from = '127.0.0.6';
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < 5; i++) assert.equal(await attempt(from, key, 'clean', 'nope'), 'invalidLogin');
      assert.equal(
        await attempt(from, key, 'clean', PASSWORD),
        'invalidLogin 429',
        'locked: the password is not even tried',
      );
      t.clock.advance(1000);
      assert.equal(await attempt(from, key, 'clean', PASSWORD), 'ok', `round ${round}`);
    }
  });

  test("another address's guesses never refuse the right password from the user's own address", async () => {
    const key = await t.account('victim', PASSWORD);
    assert.equal(
      await attempt('127.0.0.3', key, 'victim', PASSWORD),
      'ok',
      'the user logs in once: the address is known',
    );
    for (let i = 0; i < 30; i++) {
      t.clock.advance(2000);
      await attempt('127.0.0.2', key, 'victim', `guess${i}`);
    }
    assert.equal(await attempt('127.0.0.3', key, 'victim', PASSWORD), 'ok');
  });
});
