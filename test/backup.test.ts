import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { connect } from 'node:tls';
import { describe, test } from 'node:test';
import { promisify } from 'node:util';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect } from 'kysely';
import { extract } from 'tar';
import { migrationProvider } from '../src/store/migrations.ts';
import { udpQuery } from './helpers/dns-client.ts';
import { freshDatabase, TEST_DB, testDb } from './helpers/pgdb.ts';
import { hasTool } from './helpers/tools.ts';
import { addAccount, admin, adminJson, freePort, serve, tempDir, VIGIL } from './helpers/server.ts';
import { eventually } from './helpers/wait.ts';

const run = promisify(execFile);
const PASSWORD = 'correct horse 5';
// These tests are about the SQLite file; under VIGIL_TEST_DB (PostgreSQL) the refusal test alone runs.
const sqliteOnly = TEST_DB ? 'SQLite store only (VIGIL_TEST_DB is set)' : false;
const env = { ...process.env, VIGIL_DB: '', VIGIL_DATA: '' };

/** Runs bin/vigil expecting failure; returns its stderr. */
async function fails(...args: string[]): Promise<string> {
  const err = await run(VIGIL, args, { env }).then(
    () => assert.fail(`succeeded: vigil ${args.join(' ')}`),
    (e: any) => e,
  );
  assert.equal(err.code, 1, err.stderr);
  return err.stderr;
}

/** The DER bytes of the certificate an HTTPS server presents. */
function servedCertificate(url: string): Promise<Buffer> {
  const { hostname, port } = new URL(url);
  return new Promise((res, rej) => {
    const s = connect({ host: hostname, port: Number(port), rejectUnauthorized: false }, () => {
      res(s.getPeerCertificate().raw);
      s.end();
    });
    s.on('error', rej);
  });
}

function sqliteRows<T>(file: string, query: string): T[] {
  const db = new SqliteDatabase(file, { readonly: true });
  try {
    return db.prepare(query).all() as T[];
  } finally {
    db.close();
  }
}

describe('admin backup and restore of a live, populated data directory', { skip: sqliteOnly }, () => {
  test('a backup taken while serve writes restores to the same accounts, records and certificate, in one consistent state', async () => {
    const dnsPort = await freePort();
    const s = await serve({ args: ['--dns-port', String(dnsPort), '--publish-interval', '1h'] });
    const backupDir = tempDir();
    const file = join(backupDir, 'vigil.tar.gz');
    let acked = 0;
    try {
      const key = await addAccount(s.dataDir, 'ops', PASSWORD, '--dns-credits', '3', '--audit-types', 'basic');
      const c = s.client();
      await c.login(key, 'ops', PASSWORD);
      await c.call('dnsAddDomain.php', { domain: 'kept.example', domaintype: 'master', aup: 'YES' });
      await admin(s.dataDir, 'domain', 'release', 'kept.example');
      await c.call('dnsAddA.php', { domain: 'kept.example', name: 'www', ip: '192.0.2.44' });
      assert.equal((await c.call('dnsPublish.php', { domain: 'kept.example' })).errors, undefined);
      await adminJson(s.dataDir, 'distribute');
      await eventually(
        async () => (await udpQuery(dnsPort, 'www.kept.example', 'A')).answers?.[0]?.data === '192.0.2.44',
        'served',
        5000,
      );

      // A writer that keeps adding w0, w1, … one at a time, each acknowledged before the next.
      let stop = false;
      const writer = (async () => {
        for (let i = 0; !stop; i++) {
          await c.call('dnsAddA.php', { domain: 'kept.example', name: `w${i}`, ip: `198.51.100.${(i % 250) + 1}` });
          acked = i + 1;
        }
      })();
      await eventually(async () => acked >= 20, 'the writer is under way', 10_000);
      const ackedBefore = acked;
      const { stdout } = await admin(s.dataDir, 'backup', file);
      const ackedAfter = acked;
      stop = true;
      await writer;
      assert.match(stdout, /vigil\.sqlite, tls\/cert\.pem, tls\/key\.pem/);
      assert.ok(ackedAfter > ackedBefore, 'records were added while the backup ran');
      assert.equal(statSync(file).mode & 0o777, 0o600, 'the archive holds the TLS key and password hashes');

      // The store inside: integrity ok, and exactly the writes of one moment: w0..w(k-1), no gap.
      const look = tempDir();
      await extract({ file, cwd: look });
      const store = join(look, 'vigil.sqlite');
      assert.deepEqual(sqliteRows(store, 'pragma integrity_check'), [{ integrity_check: 'ok' }]);
      const data = sqliteRows<{ data: string }>(store, "select data from records where type = 'A'").map((r) => r.data);
      const written = data
        .flatMap((d) => /"w(\d+)"/.exec(d) ?? [])
        .filter((_, i) => i % 2 === 1)
        .map(Number)
        .sort((a, b) => a - b);
      assert.deepEqual(
        written,
        written.map((_, i) => i),
        'a prefix of the writes',
      );
      assert.ok(
        written.length >= ackedBefore && written.length <= ackedAfter + 1,
        `${written.length} in [${ackedBefore}, ${ackedAfter}]`,
      );
      assert.equal(
        readFileSync(join(look, 'tls', 'key.pem'), 'utf8'),
        readFileSync(join(s.dataDir, 'tls', 'key.pem'), 'utf8'),
      );
    } finally {
      await s.stop();
    }

    // Restore into a new directory and serve it.
    const restored = join(tempDir(), 'data');
    const { stdout } = await run(VIGIL, ['admin', 'restore', file, '--data', restored], { env });
    assert.match(stdout, /restored .* into /);
    assert.equal(statSync(join(restored, 'tls', 'key.pem')).mode & 0o777, 0o600);
    assert.match(
      await fails('admin', 'restore', file, '--data', restored),
      new RegExp(`${join(restored, 'vigil.sqlite')} exists`),
    );

    const dnsPort2 = await freePort();
    const r = await serve({ dataDir: restored, args: ['--dns-port', String(dnsPort2), '--publish-interval', '1h'] });
    try {
      assert.equal(r.ca, readFileSync(join(s.dataDir, 'tls', 'cert.pem'), 'utf8'), 'the same certificate file');
      assert.deepEqual(
        await servedCertificate(r.httpsUrl),
        new X509Certificate(r.ca).raw,
        'and the server presents it',
      );
      const accounts = await adminJson(restored, 'account', 'list');
      assert.deepEqual(
        accounts.map((a: any) => [a.userid, a.dnsCredits, a.auditTypes]),
        [['ops', 3, ['basic']]],
      );
      const key = (await adminJson(restored, 'apikey', 'rotate', '--userid', 'ops')).apikey;
      const c = r.client();
      await c.login(key, 'ops', PASSWORD); // the password hash came along
      const list = await c.call('dnsGetDomainList.php', {});
      assert.deepEqual(
        Object.values(list.domains as Record<string, any>).map((d) => d.domain),
        ['kept.example'],
      );
      const records = Object.values(
        (await c.call('dnsGetDomainRecords.php', { domain: 'kept.example' })).records as Record<string, any>,
      );
      assert.ok(
        records.some((x) => JSON.stringify(x).includes('192.0.2.44')),
        JSON.stringify(records),
      );
      assert.ok(records.length >= acked / 2, "the writer's records came along");
      // What was served before is served again, from the restored store alone.
      await eventually(
        async () => (await udpQuery(dnsPort2, 'www.kept.example', 'A')).answers?.[0]?.data === '192.0.2.44',
        'served after restore',
        10_000,
      );
    } finally {
      await r.stop();
    }
  });
});

describe('admin backup and restore refuse what they must not do', () => {
  test('PostgreSQL: backup and restore point to pg_dump/pg_restore', async () => {
    const data = tempDir();
    for (const cmd of [
      ['backup', join(data, 'x.tar.gz')],
      ['restore', join(data, 'x.tar.gz')],
    ]) {
      const stderr = await fails('admin', ...cmd, '--data', data, '--db', 'postgres://127.0.0.1:1/none');
      assert.match(stderr, /pg_dump/);
      assert.match(stderr, /pg_restore/);
    }
    assert.deepEqual(readdirSync(data), []);
  });

  test('no store: backup names the path; an existing FILE is not overwritten', { skip: sqliteOnly }, async () => {
    const data = tempDir();
    assert.match(
      await fails('admin', 'backup', join(data, 'b.tar.gz'), '--data', data),
      new RegExp(join(data, 'vigil.sqlite')),
    );
    const s = await serve({ dataDir: data });
    await s.stop();
    const file = join(tempDir(), 'made', 'b.tar.gz'); // its directory is made
    await run(VIGIL, ['admin', 'backup', file, '--data', data], { env });
    const before = readFileSync(file);
    assert.match(await fails('admin', 'backup', file, '--data', data), /exists/);
    assert.deepEqual(readFileSync(file), before);
    assert.match(await fails('admin', 'restore', join(data, 'none.tar.gz'), '--data', tempDir()), /no backup at/);
  });
});

/** A SQLite store as an older Vigil left it: only the migrations up to `last`, and one account. */
async function oldStore(last: string): Promise<string> {
  const data = tempDir();
  const db = new Kysely<any>({
    dialect: new SqliteDialect({ database: new SqliteDatabase(join(data, 'vigil.sqlite')) }),
  });
  const { error } = await new Migrator({ db, provider: migrationProvider }).migrateTo(last);
  assert.equal(error, undefined);
  await db
    .insertInto('accounts')
    .values({ userid: 'old', password_hash: 'x', apikey_hash: 'y', created_at: 0 })
    .execute();
  await db.destroy();
  return data;
}

describe('migrations only go forward: a backup first', { skip: sqliteOnly }, () => {
  test('opening an older store copies it to DATA/backups before migrating, and says so; once only', async () => {
    const data = await oldStore('003_audits');
    const { stderr } = await admin(data, 'account', 'list');
    const made = readdirSync(join(data, 'backups'));
    assert.equal(made.length, 1);
    assert.match(made[0]!, /^vigil-\d{8}T\d{6}Z-before-004_login_throttle_pairs\.sqlite$/);
    const copy = join(data, 'backups', made[0]!);
    assert.ok(stderr.includes(copy), stderr);
    assert.equal(statSync(copy).mode & 0o777, 0o600);
    assert.deepEqual(
      sqliteRows(copy, 'select name from kysely_migration order by name').map((r: any) => r.name),
      ['001_accounts', '002_dns', '003_audits'],
    );
    assert.deepEqual(sqliteRows(copy, 'select userid from accounts'), [{ userid: 'old' }]);
    assert.deepEqual(sqliteRows(copy, 'pragma integrity_check'), [{ integrity_check: 'ok' }]);
    // Migrated now: the next open takes no copy.
    const again = await admin(data, 'account', 'list');
    assert.doesNotMatch(again.stderr, /saved in/);
    assert.equal(readdirSync(join(data, 'backups')).length, 1);
  });

  test('a fresh store is created without a backup', async () => {
    const s = await serve();
    await s.stop();
    assert.equal(existsSync(join(s.dataDir, 'backups')), false);
    assert.doesNotMatch(s.stderr(), /saved in/);
  });
});

describe('PostgreSQL: the pg_dump / pg_restore steps of docs/operations.md', {
  skip: !TEST_DB
    ? 'needs VIGIL_TEST_DB'
    : !hasTool('pg_dump') || !hasTool('pg_restore')
      ? 'needs pg_dump and pg_restore'
      : false,
}, () => {
  test('a dump taken while serve runs, restored into a new database with DATA/tls beside it, serves the same account and certificate', async () => {
    const s = await serve();
    const dump = join(tempDir(), 'vigil.dump');
    const tls = join(tempDir(), 'vigil-tls.tar.gz');
    try {
      const key = await addAccount(s.dataDir, 'ops', PASSWORD, '--dns-credits', '2');
      const c = s.client();
      await c.login(key, 'ops', PASSWORD);
      await c.call('dnsAddDomain.php', { domain: 'kept.example', domaintype: 'master', aup: 'YES' });
      await run('pg_dump', ['--format=custom', `--file=${dump}`, (await testDb(s.dataDir))!]);
      await run('tar', ['czf', tls, '-C', s.dataDir, 'tls']);
    } finally {
      await s.stop();
    }
    const target = await freshDatabase(); // createdb
    await run('pg_restore', ['--no-owner', '--exit-on-error', `--dbname=${target}`, dump]);
    const data = tempDir();
    await run('tar', ['xzf', tls, '-C', data]);
    const r = await serve({ dataDir: data, args: ['--db', target] });
    try {
      assert.equal(r.ca, readFileSync(join(s.dataDir, 'tls', 'cert.pem'), 'utf8'));
      const c = r.client();
      await c.login(await rotated(data, target), 'ops', PASSWORD);
      const list = await c.call('dnsGetDomainList.php', {});
      assert.deepEqual(
        Object.values(list.domains as Record<string, any>).map((d) => d.domain),
        ['kept.example'],
      );
    } finally {
      await r.stop();
    }
  });
});

/** A new API key for `ops` on the store `db` (the helpers' admin would pick the data directory's own test database). */
async function rotated(data: string, db: string): Promise<string> {
  const { stdout } = await run(
    VIGIL,
    ['admin', 'apikey', 'rotate', '--userid', 'ops', '--json', '--data', data, '--db', db],
    { env },
  );
  return JSON.parse(stdout).apikey;
}
