import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, afterEach, before, describe, test } from 'node:test';
import { POLICY } from '../src/accounts/throttle.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { LoginCaller } from './helpers/login.ts';

/**
 * Issue 12, item 4: the login throttle, in-process on a clock the test
 * moves (no sleeping), over real HTTPS on loopback. Callers use several
 * 127.0.0.x source addresses: the throttle counts by address.
 */
const PASSWORD = 'correct horse 1';
const WRONG = 'wrong password';

describe('login throttle', () => {
  let t: TestApp;
  let ca: string;
  const callers: LoginCaller[] = [];
  const from = (address: string, sockets = 8) => {
    const c = new LoginCaller(t.url, ca, address, sockets);
    callers.push(c);
    return c;
  };
  const checks = () => t.app.services.sessions.passwordChecks;

  before(async () => {
    t = await startTestApp();
    ca = readFileSync(join(t.app.services.config.dataDir, 'tls', 'cert.pem'), 'utf8');
  });
  afterEach(async () => {
    callers.splice(0).forEach((c) => c.close());
    // Every test starts from no failures, an hour later.
    await t.app.services.sessions.throttle.clear({ all: true });
    t.clock.advance(3_600_000);
  });
  after(() => t.close());

  test('a burst of wrong guesses sent at once gets exactly the free attempts checked; the rest answer 429', async () => {
    const key = await t.account('burst', PASSWORD);
    const attacker = from('127.0.0.2', 40);
    await attacker.warm(40);
    const before = checks();
    const replies = await Promise.all(
      Array.from({ length: 40 }, () => attacker.post({ apikey: key, userid: 'burst', password: WRONG })),
    );
    // Before the fix the lock was read before any failure was written: every
    // guess of the burst passed it and was checked (40 here; 171-456 of 1,000).
    assert.equal(checks() - before, POLICY.pair.free, 'passwords checked');
    assert.equal(replies.filter((r) => r.http === 200).length, POLICY.pair.free);
    assert.equal(replies.filter((r) => r.http === 429).length, 40 - POLICY.pair.free);
    for (const r of replies) assert.deepEqual(r.body, { status: '-1', error: 'invalidLogin' });
  });

  test('the real user logs in from another address while one address guesses their password', async () => {
    const key = await t.account('victim1', PASSWORD);
    const attacker = from('127.0.0.2', 20);
    await attacker.warm(20);
    await Promise.all(
      Array.from({ length: 60 }, () => attacker.post({ apikey: key, userid: 'victim1', password: WRONG })),
    );
    // Before the fix the userid itself was locked: the right password got invalidLogin.
    const user = await from('127.0.0.3').post({ apikey: key, userid: 'victim1', password: PASSWORD });
    assert.equal(user.http, 200);
    assert.equal(user.body.status, '0');
    // The attacker's pair stays locked, even with the right password.
    const still = await attacker.post({ apikey: key, userid: 'victim1', password: PASSWORD });
    assert.equal(still.http, 429);
  });

  test('many addresses guessing one userid: their checks are capped together; the known address still logs in', async () => {
    const key = await t.account('victim2', PASSWORD);
    const home = from('127.0.0.10');
    assert.equal((await home.post({ apikey: key, userid: 'victim2', password: PASSWORD })).body.status, '0');
    const before = checks();
    const attackers = Array.from({ length: 8 }, (_, i) => from(`127.0.0.${20 + i}`, 10));
    await Promise.all(attackers.map((a) => a.warm(10)));
    await Promise.all(
      attackers.flatMap((a) =>
        Array.from({ length: 10 }, () => a.post({ apikey: key, userid: 'victim2', password: WRONG })),
      ),
    );
    // 8 addresses x 5 free pair attempts would be 40: the userid's own count stops them at 20.
    assert.equal(checks() - before, POLICY.user.free, 'passwords checked');
    const r = await home.post({ apikey: key, userid: 'victim2', password: PASSWORD });
    assert.equal(r.http, 200, 'the known address is not held by the userid-wide slow-down');
    assert.equal(r.body.status, '0');
    // A new address waits (documented), at most the userid cap, then gets in.
    const away = await from('127.0.0.11').post({ apikey: key, userid: 'victim2', password: PASSWORD });
    assert.equal(away.http, 429);
    assert.ok(Number(away.retryAfter) <= POLICY.user.capMs / 1000);
    t.clock.advance(Number(away.retryAfter) * 1000);
    assert.equal(
      (await from('127.0.0.11').post({ apikey: key, userid: 'victim2', password: PASSWORD })).body.status,
      '0',
    );
  });

  test('a throttled attempt answers 429 with Retry-After and the spec body; the right password works once it has passed', async () => {
    const key = await t.account('retry', PASSWORD);
    const c = from('127.0.0.4');
    for (let i = 0; i < POLICY.pair.free + 2; i++) {
      await c.post({ apikey: key, userid: 'retry', password: WRONG });
      t.clock.advance(10_000); // past each short lock, so every guess is checked
    }
    // 7 failures, each past its lock; the 8th locks the pair for 1 s x 2^3.
    const checked = await c.post({ apikey: key, userid: 'retry', password: WRONG });
    assert.equal(checked.http, 200);
    const r = await c.post({ apikey: key, userid: 'retry', password: PASSWORD });
    assert.equal(r.http, 429);
    assert.equal(r.retryAfter, String(8), '8 failures: 1 s doubled three times');
    assert.deepEqual(r.body, { status: '-1', error: 'invalidLogin' });
    t.clock.advance(7_000);
    assert.equal(
      (await c.post({ apikey: key, userid: 'retry', password: PASSWORD })).http,
      429,
      'still within the lock',
    );
    t.clock.advance(1_000);
    const ok = await c.post({ apikey: key, userid: 'retry', password: PASSWORD });
    assert.equal(ok.http, 200);
    assert.equal(ok.body.status, '0');
  });

  test('one address guessing many accounts is slowed down, not locked; known users on it are not', async () => {
    const keys = await Promise.all(Array.from({ length: 6 }, (_, i) => t.account(`shared${i}`, PASSWORD)));
    const nat = from('127.0.0.5');
    // shared0 logged in from this address before: its address is known.
    assert.equal((await nat.post({ apikey: keys[0], userid: 'shared0', password: PASSWORD })).body.status, '0');
    for (let i = 1; i < 6; i++) {
      for (let g = 0; g < POLICY.pair.free; g++)
        await nat.post({ apikey: keys[i], userid: `shared${i}`, password: WRONG });
    }
    // 20 failures on unknown pairs spend the address's free ones; the rest were refused.
    const newcomer = await t.account('newcomer', PASSWORD);
    const slowed = await nat.post({ apikey: newcomer, userid: 'newcomer', password: PASSWORD });
    assert.equal(slowed.http, 429);
    assert.ok(Number(slowed.retryAfter) <= POLICY.address.capMs / 1000, `a delay, not a lock: ${slowed.retryAfter}`);
    const known = await nat.post({ apikey: keys[0], userid: 'shared0', password: PASSWORD });
    assert.equal(known.body.status, '0', 'a known pair is not slowed by its neighbours');
    t.clock.advance(Number(slowed.retryAfter) * 1000);
    assert.equal((await nat.post({ apikey: newcomer, userid: 'newcomer', password: PASSWORD })).body.status, '0');
  });

  test("bad input from the real user's own address holds them back a minute at most, then the right password works", async () => {
    // Issue 28: a client retrying a stale password from the user's usual
    // address; before, the pair was locked for 15 minutes and the right
    // password read invalidLogin all that time.
    const key = await t.account('typo', PASSWORD);
    const home = from('127.0.0.12');
    assert.equal((await home.post({ apikey: key, userid: 'typo', password: PASSWORD })).body.status, '0');
    // 12 wrong passwords checked (the 12th would lock 1 s x 2^7 = 128 s without the cap), waiting out each
    // lock as a client honouring Retry-After does.
    for (let checked = 0; checked < 12; ) {
      const r = await home.post({ apikey: key, userid: 'typo', password: WRONG });
      if (r.http === 429) t.clock.advance(Number(r.retryAfter) * 1000);
      else checked++;
    }
    const right = await home.post({ apikey: key, userid: 'typo', password: PASSWORD });
    assert.equal(right.http, 429);
    assert.equal(right.retryAfter, '60', 'the cap: a minute (before: 900)');
    assert.deepEqual(right.body, { status: '-1', error: 'invalidLogin' });
    t.clock.advance(60_000);
    assert.equal((await home.post({ apikey: key, userid: 'typo', password: PASSWORD })).body.status, '0');
  });

  test('the NIST ceiling: 100 failures in a row lock the pair and the userid over unknown addresses for a day', async () => {
    const throttle = t.app.services.sessions.throttle;
    const key = await t.account('ceiling', PASSWORD);
    const home = from('127.0.0.14');
    assert.equal((await home.post({ apikey: key, userid: 'ceiling', password: PASSWORD })).body.status, '0');
    // Straight on the throttle: an allowed reserve is one failure (a wrong
    // password leaves it so); 100 password checks over HTTP take seconds.
    for (let i = 1; i <= 100; i++) {
      const r = await throttle.reserve('ceiling', '127.0.0.13');
      assert.ok(r.allowed, `failure ${i} refused`);
      if (i < 100) t.clock.advance(POLICY.pair.capMs); // past every delay below the ceiling
    }
    const locked = await throttle.reserve('ceiling', '127.0.0.13');
    assert.equal(locked.allowed, false);
    assert.equal(!locked.allowed && locked.retryAfterMs, POLICY.pair.windowMs, 'a day');
    const away = await from('127.0.0.15').post({ apikey: key, userid: 'ceiling', password: PASSWORD });
    assert.equal(away.http, 429, 'a new address: the userid has had its 100');
    assert.equal(away.retryAfter, String(POLICY.user.windowMs / 1000));
    const known = await home.post({ apikey: key, userid: 'ceiling', password: PASSWORD });
    assert.equal(known.body.status, '0', 'the address the user logs in from is not locked');
    t.clock.advance(POLICY.pair.windowMs);
    assert.deepEqual(await throttle.reserve('ceiling', '127.0.0.13'), { allowed: true, known: false }, 'forgotten');
  });

  test("another account's userid typed with one's own key counts against one's own account only", async () => {
    const mine = await t.account('mallory', PASSWORD);
    const theirs = await t.account('target', PASSWORD);
    const c = from('127.0.0.6', 20);
    await Promise.all(Array.from({ length: 20 }, () => c.post({ apikey: mine, userid: 'target', password: WRONG })));
    // Before the fix the typed userid was the key: this locked 'target' out everywhere.
    const r = await from('127.0.0.9').post({ apikey: theirs, userid: 'target', password: PASSWORD });
    assert.equal(r.body.status, '0');
    const list = await t.app.services.sessions.throttle.list();
    assert.ok(
      list.every((e) => e.userid !== 'target'),
      JSON.stringify(list),
    );
    assert.ok(list.some((e) => e.scope === 'pair' && e.userid === 'mallory'));
  });
});
