import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { createAccount } from '../accounts/accounts.ts';
import { Sessions } from '../accounts/sessions.ts';
import { ManualClock } from '../clock.ts';
import { ApiError } from '../errors.ts';
import { tempDir } from '../../test/helpers/server.ts';
import { openSqlite } from './db.ts';
import { configureProbe, OTHERS_SEEN_WITHIN_MS, ReadCache, storeVersion } from './read-cache.ts';

const codeOf = (p: Promise<unknown>) =>
  p.then(
    () => 'ok',
    (e) => (e instanceof ApiError ? e.code : String(e)),
  );

test('a cached read is dropped by a write on the same connection and by a commit of another connection', async () => {
  const file = join(tempDir(), 'vigil.sqlite');
  const [here, there] = [await openSqlite(file), await openSqlite(file)];
  configureProbe(here, { maxStalenessMs: 0 });
  try {
    const cache = new ReadCache<string, number>();
    let loads = 0;
    const count = () =>
      cache.get(
        here,
        'n',
        async () => (
          loads++,
          Number(
            (
              await here
                .selectFrom('accounts')
                .select((eb) => eb.fn.countAll<number>().as('n'))
                .executeTakeFirstOrThrow()
            ).n,
          )
        ),
      );
    assert.equal(await count(), 0);
    assert.equal(await count(), 0);
    assert.equal(loads, 1, 'the second read was a hit');
    const v = storeVersion(here);
    await createAccount(here, new ManualClock(), 'a', { password: 'long enough' });
    assert.notEqual(storeVersion(here), v, 'an own write moves the version');
    assert.equal(await count(), 1);
    await createAccount(there, new ManualClock(), 'b', { password: 'long enough' });
    assert.equal(await count(), 2, "another connection's commit is seen at once");
    assert.equal(loads, 3);
    assert.equal(
      storeVersion(await here.transaction().execute(async (trx) => trx)),
      null,
      'no cache inside a transaction',
    );
  } finally {
    await here.destroy();
    await there.destroy();
  }
});

test('a session revoked by another process fails on the next call, though its account was cached', async () => {
  const file = join(tempDir(), 'vigil.sqlite');
  const [serve, admin] = [await openSqlite(file), await openSqlite(file)];
  configureProbe(serve, { maxStalenessMs: 0 });
  try {
    const clock = new ManualClock(Date.now());
    const { apikey, account } = await createAccount(serve, clock, 'u', { password: 'long enough pw' });
    const sessions = new Sessions(serve, clock, 3_600_000);
    const token = await sessions.login({ apikey, userid: 'u', password: 'long enough pw', clientAddress: '127.0.0.1' });
    assert.equal(await codeOf(sessions.authenticate(apikey, token)), 'ok');
    assert.equal(await codeOf(sessions.authenticate(apikey, token)), 'ok');
    // `admin account disable` in another process: the account's flag (and its sessions) change there.
    await admin.updateTable('accounts').set({ enabled: 0 }).where('id', '=', account.id).execute();
    assert.equal(await codeOf(sessions.authenticate(apikey, token)), 'sessionAuthenticationFailure');
    await admin.updateTable('accounts').set({ enabled: 1 }).where('id', '=', account.id).execute();
    assert.equal(await codeOf(sessions.authenticate(apikey, token)), 'ok');
    await admin.deleteFrom('sessions').execute();
    assert.equal(await codeOf(sessions.authenticate(apikey, token)), 'sessionAuthenticationFailure');
  } finally {
    await serve.destroy();
    await admin.destroy();
  }
});

test("another connection's commit is seen once the last reading is older than the bound, own writes at once", async () => {
  const file = join(tempDir(), 'vigil.sqlite');
  const [here, there] = [await openSqlite(file), await openSqlite(file)];
  let now = 0;
  // The default bound, on an injected clock.
  configureProbe(here, { now: () => now });
  try {
    const v0 = storeVersion(here);
    await createAccount(there, new ManualClock(), 'b', { password: 'long enough' });
    now = OTHERS_SEEN_WITHIN_MS - 0.5;
    assert.equal(storeVersion(here), v0, 'within the bound: the old reading');
    now = OTHERS_SEEN_WITHIN_MS;
    const v1 = storeVersion(here);
    assert.notEqual(v1, v0, 'at the bound: read again');
    await createAccount(here, new ManualClock(), 'a', { password: 'long enough' });
    assert.notEqual(storeVersion(here), v1, 'an own write, within the bound');
  } finally {
    await here.destroy();
    await there.destroy();
  }
});
