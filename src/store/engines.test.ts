import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { join } from 'node:path';
import { type Kysely, sql } from 'kysely';
import { freshDatabase, TEST_DB } from '../../test/helpers/pgdb.ts';
import { tempDir } from '../../test/helpers/server.ts';
import { type Db, migrate, openSqlite } from './db.ts';
import { isPostgres } from './dialect.ts';
import { migrationProvider } from './migrations.ts';
import { openPostgres, StoreError } from './postgres.ts';

/**
 * The store on both engines: the same migrations (run twice: idempotent),
 * and one row of every table written and read back with the same JS types.
 * The read-then-write checks under two processes racing are races.test.ts's.
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

for (const engine of engines) {
  describe(`store on ${engine.name}`, { skip: engine.skip }, () => {
    test('migrations run twice, and a row of every table round-trips with its types', async () => {
      const db = await engine.open();
      try {
        assert.equal(isPostgres(db), engine.name === 'PostgreSQL');
        await migrate(db); // a second time: nothing left to do, nothing fails
        const rows = await (db as Kysely<any>).selectFrom('kysely_migration').select('name').orderBy('name').execute();
        // Every migration, once (the list grows; its order is its names').
        assert.deepEqual(
          rows.map((r: { name: string }) => r.name),
          Object.keys(await migrationProvider.getMigrations()).sort(),
        );

        const account = await db
          .insertInto('accounts')
          .values({
            userid: 'u',
            password_hash: 'p',
            apikey_hash: 'k',
            email: null,
            enabled: 1,
            audit_types: 'norisk',
            allow_ip: '',
            dns_credits: 3,
            dns_expiry: T,
            created_at: T,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        assert.deepEqual(account, {
          id: 1,
          userid: 'u',
          password_hash: 'p',
          apikey_hash: 'k',
          email: null,
          enabled: 1,
          audit_types: 'norisk',
          allow_ip: '',
          dns_credits: 3,
          dns_expiry: T,
          created_at: T,
        });
        const session = { token_hash: 't', account_id: account.id, apikey_hash: 'k', created_at: T, expires_at: T + 1 };
        await db.insertInto('sessions').values(session).execute();
        assert.deepEqual(await db.selectFrom('sessions').selectAll().execute(), [session]);
        const throttle = {
          scope: 'pair' as const,
          userid: 'u',
          address: '127.0.0.1',
          failures: 2,
          last_failure: T,
          locked_until: 0,
          last_success: null,
        };
        await db.insertInto('login_throttle').values(throttle).execute();
        assert.deepEqual(await db.selectFrom('login_throttle').selectAll().execute(), [throttle]);

        const domain = await db
          .insertInto('domains')
          .values({
            account_id: account.id,
            name: 'a.example',
            type: 'master',
            state: 0,
            on_hold: 1,
            serial: 2026112301,
            created_at: T,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        assert.deepEqual(await db.selectFrom('domains').selectAll().execute(), [
          {
            id: domain.id,
            account_id: account.id,
            name: 'a.example',
            type: 'master',
            state: 0,
            on_hold: 1,
            serial: 2026112301,
            created_at: T,
            records_version: 0,
            dnssec: 0,
            dnssec_nsec3: 0,
          },
        ]);
        const record = {
          domain_id: domain.id,
          type: 'A',
          data: '{"name":"www","ip":"192.0.2.1"}',
          owner: 'www.a.example',
        };
        const { id: recordId } = await db
          .insertInto('records')
          .values(record)
          .returning('id')
          .executeTakeFirstOrThrow();
        assert.deepEqual(await db.selectFrom('records').selectAll().execute(), [{ id: recordId, ...record }]);
        const publication = {
          zone: 'a.example',
          domain_id: domain.id,
          served_serial: null,
          served_snapshot: null,
          pending_serial: 2026112301,
          pending_snapshot: '{}',
          removing: 0,
          changed_at: T,
        };
        await db.insertInto('zone_publications').values(publication).execute();
        assert.deepEqual(await db.selectFrom('zone_publications').selectAll().execute(), [
          { ...publication, served_resign_at: null, pending_resign_at: null, served_seq: null },
        ]);
        const key = {
          domain_id: domain.id,
          role: 'ksk' as const,
          algorithm: 13,
          tag: 4257,
          public_key: 'cHVi',
          sealed: 'v1.x',
          created_at: T,
          active_at: T,
          retire_at: null,
          remove_at: T + 1,
        };
        const { id: keyId } = await db.insertInto('dnssec_keys').values(key).returning('id').executeTakeFirstOrThrow();
        assert.deepEqual(await db.selectFrom('dnssec_keys').selectAll().execute(), [{ id: keyId, ...key }]);

        const audit = await db
          .insertInto('audits')
          .values({
            account_id: account.id,
            type: 'norisk',
            hostip: '127.0.0.1',
            excludedos: 0,
            notification: 1,
            state: 'queued',
            queued_at: T,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        assert.deepEqual(audit, {
          id: 1,
          account_id: account.id,
          type: 'norisk',
          hostip: '127.0.0.1',
          excludedos: 0,
          notification: 1,
          state: 'queued',
          reason: null,
          attempts: 0,
          lease_owner: null,
          lease_until: null,
          queued_at: T,
          started_at: null,
          ended_at: null,
          report: null,
          notified_at: null,
          coverage: null,
          progress: null,
          ports: null,
          schedule_id: null,
          alert_mail: null,
        });
        // Migration 011: a schedule, and an audit of it (ports asked for, its mail held back).
        const schedule = await db
          .insertInto('audit_schedules')
          .values({
            account_id: account.id,
            type: 'basic',
            hostip: '127.0.0.1',
            excludedos: 0,
            ports: '22,80',
            notification: 1,
            every: 'week',
            alert: 'changes',
            created_at: T,
            next_run_at: T + 7 * 86_400_000,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        assert.deepEqual(schedule, {
          id: 1,
          account_id: account.id,
          type: 'basic',
          hostip: '127.0.0.1',
          excludedos: 0,
          ports: '22,80',
          notification: 1,
          every: 'week',
          alert: 'changes',
          created_at: T,
          next_run_at: T + 7 * 86_400_000,
          run_requested: 0,
          last_audit_id: null,
        });
        const scheduled = await db
          .insertInto('audits')
          .values({
            account_id: account.id,
            type: 'basic',
            hostip: '127.0.0.1',
            excludedos: 0,
            notification: 1,
            state: 'done',
            queued_at: T,
            ports: '22,80',
            schedule_id: schedule.id,
            alert_mail: 'held',
          })
          .returning(['ports', 'schedule_id', 'alert_mail'])
          .executeTakeFirstOrThrow();
        assert.deepEqual(scheduled, { ports: '22,80', schedule_id: schedule.id, alert_mail: 'held' });
        // Deleting a schedule keeps its audits; they no longer name it.
        await db.deleteFrom('audit_schedules').execute();
        assert.deepEqual(
          (await db.selectFrom('audits').select('schedule_id').where('ports', '=', '22,80').execute()).map(
            (r) => r.schedule_id,
          ),
          [null],
        );
        await db
          .insertInto('audit_schedules')
          .values({ ...schedule, id: undefined })
          .execute();
        await db
          .insertInto('audit_targets')
          .values({ audit_id: audit.id, address: '127.0.0.1', position: 0 })
          .execute();
        assert.deepEqual(await db.selectFrom('audit_targets').selectAll().execute(), [
          { audit_id: audit.id, address: '127.0.0.1', position: 0 },
        ]);

        // Aggregates come back as numbers on both engines (count() is int8 on PostgreSQL).
        const { n } = await db
          .selectFrom('records')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow();
        assert.equal(n, 1);
        // Deleting the account cascades on both engines (SQLite: foreign_keys = ON).
        await db.deleteFrom('accounts').execute();
        assert.deepEqual(await db.selectFrom('audit_targets').selectAll().execute(), []);
        assert.deepEqual(await db.selectFrom('audit_schedules').selectAll().execute(), []);
        assert.deepEqual(
          (await db.selectFrom('zone_publications').select('domain_id').execute()).map((r) => r.domain_id),
          [null],
        );
      } finally {
        await db.destroy();
      }
    });
  });
}

describe('store URLs', () => {
  test('postgres:///DB?host=/socket/dir reaches the server over its Unix socket', {
    skip: TEST_DB ? false : 'VIGIL_TEST_DB is not set',
  }, async (t) => {
    const tcp = await openPostgres(await freshDatabase());
    try {
      // Reading the socket directory takes pg_read_all_settings (.ci/pg-cluster grants it).
      const settings = sql<{
        dir: string;
        port: string;
        db: string;
      }>`select current_setting('unix_socket_directories') as dir, current_setting('port') as port, current_database() as db`;
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
    await assert.rejects(
      openPostgres('mysql://x@127.0.0.1/vigil'),
      (err: unknown) => err instanceof StoreError && err.code === 'unsupportedDbUrl',
    );
  });
  test('an unreachable server is reported with a code, not left hanging', async () => {
    await assert.rejects(
      openPostgres('postgres://vigil@127.0.0.1:1/vigil'),
      (err: unknown) => err instanceof StoreError && err.code === 'dbUnreachable',
    );
  });
});
