import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { join } from 'node:path';
import { type Kysely, sql } from 'kysely';
import { createAccount } from '../accounts/accounts.ts';
import { Audits } from '../audit/service.ts';
import { ManualClock } from '../clock.ts';
import { buildConfig } from '../config.ts';
import { Domains } from '../dns/domains.ts';
import { ApiError } from '../errors.ts';
import { freshDatabase, TEST_DB } from '../../test/helpers/pgdb.ts';
import { tempDir } from '../../test/helpers/server.ts';
import { type Db, migrate, openSqlite } from './db.ts';
import { isPostgres } from './dialect.ts';
import { openPostgres, StoreError } from './postgres.ts';

/**
 * The store on both engines: the same migrations (run twice: idempotent),
 * one row of every table written and read back with the same JS types, and
 * the read-then-write checks under two connection pools racing (on
 * PostgreSQL they are two "processes"; on SQLite the file serializes them).
 */
const engines: { name: string; open: () => Promise<Db>; skip: string | false }[] = [
  { name: 'SQLite', open: () => openSqlite(join(tempDir(), 'vigil.sqlite')), skip: false },
  {
    name: 'PostgreSQL',
    open: async () => openPostgres(await freshDatabase()),
    skip: TEST_DB ? false : 'VIGIL_TEST_DB is not set (a postgres:// URL whose user may CREATE DATABASE)',
  },
];

const T = Date.UTC(2026, 10, 23, 12); // epoch ms beyond 2^31: bigint columns must come back whole
const clock = () => new ManualClock(T);

async function codeOf(work: Promise<unknown>): Promise<string> {
  try {
    await work;
    return 'ok';
  } catch (err) {
    if (err instanceof ApiError) return err.code;
    throw err;
  }
}

for (const engine of engines) {
  describe(`store on ${engine.name}`, { skip: engine.skip }, () => {
    test('migrations run twice, and a row of every table round-trips with its types', async () => {
      const db = await engine.open();
      try {
        assert.equal(isPostgres(db), engine.name === 'PostgreSQL');
        await migrate(db); // a second time: nothing left to do, nothing fails
        const rows = await (db as Kysely<any>).selectFrom('kysely_migration').select('name').orderBy('name').execute();
        assert.deepEqual(rows.map((r: { name: string }) => r.name), ['001_accounts', '002_dns', '003_audits', '004_login_throttle_pairs', '005_record_owner']);

        const account = await db
          .insertInto('accounts')
          .values({ userid: 'u', password_hash: 'p', apikey_hash: 'k', email: null, enabled: 1, audit_types: 'norisk', allow_ip: '', dns_credits: 3, dns_expiry: T, created_at: T })
          .returningAll()
          .executeTakeFirstOrThrow();
        assert.deepEqual(account, { id: 1, userid: 'u', password_hash: 'p', apikey_hash: 'k', email: null, enabled: 1, audit_types: 'norisk', allow_ip: '', dns_credits: 3, dns_expiry: T, created_at: T });
        const session = { token_hash: 't', account_id: account.id, apikey_hash: 'k', created_at: T, expires_at: T + 1 };
        await db.insertInto('sessions').values(session).execute();
        assert.deepEqual(await db.selectFrom('sessions').selectAll().execute(), [session]);
        const throttle = { scope: 'pair' as const, userid: 'u', address: '127.0.0.1', failures: 2, last_failure: T, locked_until: 0, last_success: null };
        await db.insertInto('login_throttle').values(throttle).execute();
        assert.deepEqual(await db.selectFrom('login_throttle').selectAll().execute(), [throttle]);

        const domain = await db
          .insertInto('domains')
          .values({ account_id: account.id, name: 'a.example', type: 'master', state: 0, on_hold: 1, serial: 2026112301, created_at: T })
          .returning('id')
          .executeTakeFirstOrThrow();
        assert.deepEqual(await db.selectFrom('domains').selectAll().execute(), [
          { id: domain.id, account_id: account.id, name: 'a.example', type: 'master', state: 0, on_hold: 1, serial: 2026112301, created_at: T },
        ]);
        const record = { domain_id: domain.id, type: 'A', data: '{"name":"www","ip":"192.0.2.1"}', owner: 'www.a.example' };
        const { id: recordId } = await db.insertInto('records').values(record).returning('id').executeTakeFirstOrThrow();
        assert.deepEqual(await db.selectFrom('records').selectAll().execute(), [{ id: recordId, ...record }]);
        const publication = { zone: 'a.example', domain_id: domain.id, served_serial: null, served_snapshot: null, pending_serial: 2026112301, pending_snapshot: '{}', removing: 0, changed_at: T };
        await db.insertInto('zone_publications').values(publication).execute();
        assert.deepEqual(await db.selectFrom('zone_publications').selectAll().execute(), [publication]);

        const audit = await db
          .insertInto('audits')
          .values({ account_id: account.id, type: 'norisk', hostip: '127.0.0.1', excludedos: 0, notification: 1, state: 'queued', queued_at: T })
          .returningAll()
          .executeTakeFirstOrThrow();
        assert.deepEqual(audit, {
          id: 1, account_id: account.id, type: 'norisk', hostip: '127.0.0.1', excludedos: 0, notification: 1, state: 'queued', reason: null,
          attempts: 0, lease_owner: null, lease_until: null, queued_at: T, started_at: null, ended_at: null, report: null, notified_at: null,
        });
        await db.insertInto('audit_targets').values({ audit_id: audit.id, address: '127.0.0.1', position: 0 }).execute();
        assert.deepEqual(await db.selectFrom('audit_targets').selectAll().execute(), [{ audit_id: audit.id, address: '127.0.0.1', position: 0 }]);

        // Aggregates come back as numbers on both engines (count() is int8 on PostgreSQL).
        const { n } = await db.selectFrom('records').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
        assert.equal(n, 1);
        // Deleting the account cascades on both engines (SQLite: foreign_keys = ON).
        await db.deleteFrom('accounts').execute();
        assert.deepEqual(await db.selectFrom('audit_targets').selectAll().execute(), []);
        assert.deepEqual((await db.selectFrom('zone_publications').select('domain_id').execute()).map((r) => r.domain_id), [null]);
      } finally {
        await db.destroy();
      }
    });

    test('two stores racing: one credit buys one domain, one name goes to one account, one norisk audit per address', async () => {
      const a = await engine.open();
      // The second handle on the same store: another pool (PostgreSQL) or connection (SQLite).
      const b = engine.name === 'PostgreSQL' ? await openPostgres(await urlOf(a)) : a;
      try {
        const c = clock();
        const settings = buildConfig({ dataDir: tempDir() });
        const expiry = T + 86_400_000;
        const { account: one } = await createAccount(a, c, 'one', { password: 'long enough', dnsCredits: 1, dnsExpiry: expiry, auditTypes: 'norisk', allowIp: '127.0.0.1' });
        const { account: two } = await createAccount(a, c, 'two', { password: 'long enough', dnsCredits: 5, dnsExpiry: expiry });
        const [d1, d2] = [new Domains(a, c, settings), new Domains(b, c, settings)];

        const spend = await Promise.all([1, 2, 3, 4, 5, 6].map((i) => codeOf((i % 2 ? d1 : d2).add(one, { domain: `c${i}.example`, domaintype: 'master', aup: 'YES' }))));
        assert.deepEqual(spend.filter((r) => r === 'ok').length, 1, spend.join());
        assert.ok(spend.every((r) => r === 'ok' || r === 'dnsEntitlementsOrCreditsMissing'), spend.join());

        const claim = await Promise.all([d1, d2, d1, d2].map((d, i) => codeOf(d.add(i % 2 ? two : { ...one, dns_credits: 5 }, { domain: 'same.example', domaintype: 'master', aup: 'YES' }))));
        assert.equal(claim.filter((r) => r === 'ok').length, 1, claim.join());
        assert.ok(claim.every((r) => r === 'ok' || r === 'unableToAddDuplicate'), claim.join());

        const [aa, ab] = [new Audits(a, c, ['127.0.0.0/8'], () => {}), new Audits(b, c, ['127.0.0.0/8'], () => {})];
        const audits = await Promise.all([aa, ab, aa, ab].map((s) => codeOf(s.run(one, { audittype: 'norisk', ipaddr: '127.0.0.1' }, '127.0.0.1'))));
        assert.equal(audits.filter((r) => r === 'ok').length, 1, audits.join());
        assert.ok(audits.every((r) => r === 'ok' || r === 'noriskAlreadyRun'), audits.join());
      } finally {
        if (b !== a) await b.destroy();
        await a.destroy();
      }
    });
  });
}

/** The URL a PostgreSQL store was opened with (to open a second pool on it). */
async function urlOf(db: Db): Promise<string> {
  const { rows } = await sql<{ d: string }>`select current_database() as d`.execute(db);
  const url = new URL(TEST_DB!);
  url.pathname = `/${rows[0]!.d}`;
  return url.toString();
}

describe('store URLs', () => {
  test('postgres:///DB?host=/socket/dir reaches the server over its Unix socket', { skip: TEST_DB ? false : 'VIGIL_TEST_DB is not set' }, async (t) => {
    const tcp = await openPostgres(await freshDatabase());
    try {
      // Reading the socket directory takes pg_read_all_settings (.ci/pg-cluster grants it).
      const settings = sql<{ dir: string; port: string; db: string }>`select current_setting('unix_socket_directories') as dir, current_setting('port') as port, current_database() as db`;
      const q = await settings.execute(tcp).catch(() => null);
      if (!q) return t.skip('the test role may not read unix_socket_directories (grant it pg_read_all_settings)');
      const { dir, port, db } = q.rows[0]!;
      const base = new URL(TEST_DB!);
      const socketDir = dir.split(',')[0]!.trim();
      const url = `postgres:///${db}?host=${encodeURIComponent(socketDir)}&port=${port}&user=${base.username}&password=${base.password}`;
      const viaSocket = await openPostgres(url);
      try {
        const { rows } = await sql<{ local: boolean }>`select inet_client_addr() is null as local`.execute(viaSocket);
        assert.equal(rows[0]!.local, true); // no client address: a Unix socket
      } finally {
        await viaSocket.destroy();
      }
    } finally {
      await tcp.destroy();
    }
  });
  test('a --db that is not postgres:// is refused with a code', async () => {
    await assert.rejects(openPostgres('mysql://x@127.0.0.1/vigil'), (err: unknown) => err instanceof StoreError && err.code === 'unsupportedDbUrl');
  });
  test('an unreachable server is reported with a code, not left hanging', async () => {
    await assert.rejects(openPostgres('postgres://vigil@127.0.0.1:1/vigil'), (err: unknown) => err instanceof StoreError && err.code === 'dbUnreachable');
  });
});
