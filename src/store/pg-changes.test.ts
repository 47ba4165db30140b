import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql } from 'kysely';
import pg from 'pg';
import { createAccount } from '../accounts/accounts.ts';
import { Sessions } from '../accounts/sessions.ts';
import { ManualClock } from '../clock.ts';
import { ApiError } from '../errors.ts';
import { freshDatabase, TEST_DB, testDb } from '../../test/helpers/pgdb.ts';
import { admin } from '../../test/helpers/server.ts';
import { dataDirWithStore } from '../../test/helpers/store.ts';
import { eventually } from '../../test/helpers/wait.ts';
import type { Db } from './db.ts';
import { LISTENER_NAME, PG_OTHERS_SEEN_WITHIN_MS } from './pg-changes.ts';
import { openPostgres } from './postgres.ts';
import { configureProbe, ReadCache, storeVersion } from './read-cache.ts';

/**
 * The hot-read caches on PostgreSQL (src/store/pg-changes.ts): another
 * process's commit is seen within the bound (at once with a bound of 0), the
 * store's own writes at once, and nothing is cached while the listener is
 * down. Real PostgreSQL (VIGIL_TEST_DB), two stores on one database.
 */
const skip = TEST_DB ? false : 'VIGIL_TEST_DB is not set (a postgres:// URL whose user may CREATE DATABASE)';

const codeOf = (p: Promise<unknown>) =>
  p.then(
    () => 'ok',
    (e) => (e instanceof ApiError ? e.code : String(e)),
  );

/** The store once its listener listens (it connects on the first get). */
async function listening(db: Db): Promise<Db> {
  await eventually(async () => (await storeVersion(db)) !== null, 'the change listener listens');
  return db;
}

function counter(db: Db) {
  const cache = new ReadCache<string, number>();
  const state = { loads: 0 };
  const read = () =>
    cache.get(db, 'n', async () => {
      state.loads++;
      const row = await db
        .selectFrom('accounts')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      return Number(row.n);
    });
  return { read, state };
}

test('a cached read is dropped by an own write at once and by a commit of another connection', { skip }, async () => {
  const url = await freshDatabase();
  const [here, there] = [await openPostgres(url), await openPostgres(url)];
  configureProbe(here, { maxStalenessMs: 0 });
  try {
    await listening(here);
    const { read, state } = counter(here);
    assert.equal(await read(), 0);
    assert.equal(await read(), 0);
    assert.equal(state.loads, 1, 'the second read was a hit');
    await createAccount(here, new ManualClock(), 'a', { password: 'long enough' });
    assert.equal(await read(), 1, 'an own write');
    await createAccount(there, new ManualClock(), 'b', { password: 'long enough' });
    assert.equal(await read(), 2, "another connection's commit is seen at once");
    assert.equal(state.loads, 3);
    // Inside a transaction: its write is not counted as committed until COMMIT completes.
    await here.transaction().execute(async (trx) => {
      await trx.deleteFrom('accounts').where('userid', '=', 'a').execute();
      assert.equal(await read(), 2, 'an uncommitted write is not seen by other connections');
    });
    assert.equal(await read(), 1, 'the commit moved the version');
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

test('an own write moves the version before its caller goes on; a commit elsewhere within the bound', {
  skip,
}, async () => {
  const url = await freshDatabase();
  const [here, there] = [await openPostgres(url), await openPostgres(url)];
  let now = 0;
  configureProbe(here, { now: () => now });
  try {
    await listening(here);
    const v0 = await storeVersion(here);
    await createAccount(here, new ManualClock(), 'a', { password: 'long enough' });
    const v1 = storeVersion(here);
    assert.equal(typeof v1, 'string', 'within the bound: no round trip');
    assert.notEqual(v1, v0, 'an own write, seen at once');
    await createAccount(there, new ManualClock(), 'b', { password: 'long enough' });
    // The clock stands still, so no barrier is sent: only the notification can move the version.
    await eventually(async () => storeVersion(here) !== v1, "the other connection's notification arrives");
    const v2 = storeVersion(here);
    await there.deleteFrom('accounts').where('userid', '=', 'b').execute();
    now += PG_OTHERS_SEEN_WITHIN_MS;
    const v3 = storeVersion(here);
    assert.ok(v3 instanceof Promise, 'at the bound: a barrier on the listening connection');
    assert.notEqual(await v3, v2, 'the barrier counted the commit before it');
  } finally {
    await here.destroy();
    await there.destroy();
  }
});

test('a session disabled by `admin` in another process fails on the next call, though it was cached', {
  skip,
}, async () => {
  const dataDir = await dataDirWithStore();
  const serve = await openPostgres((await testDb(dataDir))!);
  let now = 0;
  configureProbe(serve, { now: () => now });
  try {
    await listening(serve);
    const clock = new ManualClock(Date.now());
    const { apikey } = await createAccount(serve, clock, 'u', { password: 'long enough pw' });
    const sessions = new Sessions(serve, clock, 3_600_000);
    const token = await sessions.login({ apikey, userid: 'u', password: 'long enough pw', clientAddress: '127.0.0.1' });
    assert.equal(await codeOf(sessions.authenticate(apikey, token)), 'ok');
    assert.equal(await codeOf(sessions.authenticate(apikey, token)), 'ok');
    await admin(dataDir, 'account', 'update', '--userid', 'u', '--disable');
    // The bound's worth of time after the other process's commit, on the injected clock.
    now += PG_OTHERS_SEEN_WITHIN_MS;
    assert.equal(await codeOf(sessions.authenticate(apikey, token)), 'sessionAuthenticationFailure');
  } finally {
    await serve.destroy();
  }
});

test('nothing is cached while the listener is down; a new listener counts what it missed', { skip }, async () => {
  const url = await freshDatabase();
  const name = new URL(url).pathname.slice(1);
  const [here, there] = [await openPostgres(url), await openPostgres(url)];
  // ALTER DATABASE from another database: PostgreSQL refuses it on the current one.
  const server = new pg.Client({ connectionString: TEST_DB! });
  await server.connect();
  const now = 0;
  configureProbe(here, { now: () => now });
  try {
    await listening(here);
    const { read, state } = counter(here);
    assert.equal(await read(), 0);
    await there.selectFrom('accounts').select('id').execute(); // a pool connection to write with later
    // The listener's backend ends (a restart, a network cut) and no new connection is let in: the pools
    // keep the connections they have, the listener cannot come back.
    await server.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS false`);
    await server.query(
      'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and application_name = $2',
      [name, LISTENER_NAME],
    );
    await eventually(async () => storeVersion(here) === null, 'the listener is seen lost');
    // Missed by the dead listener, and the clock stands still.
    await createAccount(there, new ManualClock(), 'b', { password: 'long enough' });
    const before = state.loads;
    assert.equal(await read(), 1, 'read again while nobody listens');
    assert.equal(await read(), 1);
    assert.equal(state.loads, before + 2, 'nothing cached while nobody listens');
    await server.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`);
    await listening(here);
    assert.equal(await read(), 1);
    assert.equal(await read(), 1);
    assert.equal(state.loads, before + 3, 'cached again once a listener listens');
  } finally {
    await server.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`).catch(() => {});
    await server.end();
    await here.destroy();
    await there.destroy();
  }
});

test('every table carries the change trigger, and a rolled back write notifies nobody', { skip }, async () => {
  const url = await freshDatabase();
  const [here, there] = [await openPostgres(url), await openPostgres(url)];
  let now = 0;
  configureProbe(here, { now: () => now });
  try {
    const { rows } = await sql<{ name: string }>`select c.relname as name from pg_class c
      where c.relnamespace = current_schema()::regnamespace and c.relkind = 'r' and c.relname not like 'kysely_%'
        and not exists (select 1 from pg_trigger t where t.tgrelid = c.oid and t.tgname = 'vigil_changes')`.execute(
      here,
    );
    assert.deepEqual(rows, [], 'tables without the trigger');
    await listening(here);
    const v = await storeVersion(here);
    await there
      .transaction()
      .execute(async (trx) => {
        await trx.deleteFrom('sessions').execute();
        throw new Error('rolled back');
      })
      .catch(() => {});
    now += PG_OTHERS_SEEN_WITHIN_MS;
    assert.equal(await storeVersion(here), v, 'a rollback sends no notification');
  } finally {
    await here.destroy();
    await there.destroy();
  }
});
