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

describe('failed-login throttling', () => {
  let t: TestApp;
  before(async () => (t = await startTestApp()));
  after(() => t.close());

  const attempt = (from: string, key: string, userid: string, password: string) =>
    t.client(from).post('auth.php', { apikey: key, userid, password }).then((r) => r.body.error ?? 'ok');

  test('guessing gets locked out; the real user from elsewhere is back within a minute', async () => {
    const key = await t.account('victim', PASSWORD);
    const attacker = '127.0.0.2';
    const user = '127.0.0.3';
    for (let i = 0; i < 5; i++) assert.equal(await attempt(attacker, key, 'victim', `guess${i}`), 'invalidLogin');
    // Sixth miss starts the lock; from then on even the right password is refused.
    assert.equal(await attempt(attacker, key, 'victim', 'guess5'), 'invalidLogin');
    assert.equal(await attempt(attacker, key, 'victim', PASSWORD), 'invalidLogin', 'locked: password not even tried');
    assert.equal(await attempt(user, key, 'victim', PASSWORD), 'invalidLogin', 'userid locked for everyone');
    // The attacker keeps going; each lock doubles.
    for (let i = 0; i < 8; i++) {
      t.clock.advance(200_000);
      assert.equal(await attempt(attacker, key, 'victim', `more${i}`), 'invalidLogin');
    }
    // The userid's lock is capped at 60 s, so the real user gets back in …
    t.clock.advance(60_001);
    assert.equal(await attempt(user, key, 'victim', PASSWORD), 'ok');
  });

  test("an address that keeps guessing stays locked longer than the userid's cap", async () => {
    const key = await t.account('other', PASSWORD);
    const attacker = '127.0.0.4';
    for (let i = 0; i < 14; i++) {
      t.clock.advance(300_000);
      await attempt(attacker, key, 'other', `guess${i}`);
    }
    t.clock.advance(61_000);
    // The userid is free again, but this address is still locked out.
    assert.equal(await attempt(attacker, key, 'other', PASSWORD), 'invalidLogin');
    assert.equal(await attempt('127.0.0.5', key, 'other', PASSWORD), 'ok');
    t.clock.advance(15 * 60_000);
    assert.equal(await attempt(attacker, key, 'other', PASSWORD), 'ok');
  });

  test('a success clears the count: five fresh misses are allowed again', async () => {
    const key = await t.account('clean', PASSWORD);
    const from = '127.0.0.6';
    for (let i = 0; i < 5; i++) await attempt(from, key, 'clean', 'nope');
    assert.equal(await attempt(from, key, 'clean', PASSWORD), 'ok');
    for (let i = 0; i < 5; i++) await attempt(from, key, 'clean', 'nope');
    assert.equal(await attempt(from, key, 'clean', PASSWORD), 'ok');
  });
});
