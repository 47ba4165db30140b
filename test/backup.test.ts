import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomBytes, X509Certificate } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { connect } from 'node:tls';
import { describe, test } from 'node:test';
import { promisify } from 'node:util';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect } from 'kysely';
import { create, extract } from 'tar';
import { migrationProvider } from '../src/store/migrations.ts';
import { udpQuery } from './helpers/dns-client.ts';
import { dbArgs, freshDatabase, TEST_DB, testDb } from './helpers/pgdb.ts';
import { kskOf, PASSWORD as SIGNER_PASSWORD, SIGNING_ARGS, signedZone, validates } from './helpers/dnssec-serve.ts';
import { hasTool } from './helpers/tools.ts';
import { addAccount, admin, adminJson, freePort, serve, tempDir, VIGIL } from './helpers/server.ts';
import { eventually } from './helpers/wait.ts';

const run = promisify(execFile);
const PASSWORD = 'correct horse 5';
// These tests are about the data directory's SQLite file itself; under VIGIL_TEST_DB (PostgreSQL) they skip.
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

// The archive's store is a SQLite file whichever engine it came from, so both engines are checked the same way.
describe('admin backup and restore of a live, populated data directory (both engines)', () => {
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
    const db = await dbArgs(restored);
    const { stdout } = await run(VIGIL, ['admin', 'restore', file, '--data', restored, ...db], { env });
    assert.match(stdout, /restored .* into /);
    assert.equal(statSync(join(restored, 'tls', 'key.pem')).mode & 0o777, 0o600);
    assert.match(
      await fails('admin', 'restore', file, '--data', restored, ...db),
      TEST_DB ? /tls\/cert\.pem exists/ : new RegExp(`${join(restored, 'vigil.sqlite')} exists`),
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
  test('PostgreSQL: a database without a Vigil store is not backed up; one unreachable is named', async () => {
    const data = tempDir();
    const unreachable = await fails(
      'admin',
      'backup',
      join(data, 'x.tar.gz'),
      '--data',
      data,
      '--db',
      'postgres://127.0.0.1:1/none',
    );
    assert.match(unreachable, /dbUnreachable/);
    if (TEST_DB) {
      const empty = await freshDatabase();
      assert.match(
        await fails('admin', 'backup', join(data, 'x.tar.gz'), '--data', data, '--db', empty),
        /holds no Vigil store/,
      );
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

/** `bin/vigil admin ARGS` on `dataDir`'s store, started under umask 022 (the usual default, which leaves new files world-readable). */
async function adminUmask022(dataDir: string, ...args: string[]): Promise<string> {
  const argv = ['admin', ...args, '--data', dataDir, ...(await dbArgs(dataDir))];
  const { stdout } = await run('sh', ['-c', 'umask 022; exec "$0" "$@"', VIGIL, ...argv], { env });
  return stdout;
}

describe('backup and restore keep DNSSEC: the same keys, the same DS, signing goes on (both engines)', {
  skip: hasTool('delv') && hasTool('dig') ? false : 'needs delv and dig',
}, () => {
  test('backup (0600, with the key-encryption key) -> restore into a new directory -> serve signs a change with the same KSK', async () => {
    const zone = 'keep.example';
    const dnsPort = await freePort();
    const s = await serve({ args: ['--dns-port', String(dnsPort), ...SIGNING_ARGS] });
    const file = join(tempDir(), 'vigil.tar.gz');
    let ds: string[];
    let ksk: string;
    try {
      const signed = await signedZone(s, zone);
      ds = signed.ds;
      ksk = kskOf((await signed.c.call('dnsGetDNSSEC.php', { domain: zone })).dnskey);
      await validates(dnsPort, zone, ksk, `www.${zone}`, '192.0.2.44');
      // Taken while serve runs, under umask 022: the file is still the owner's alone.
      const out = await adminUmask022(s.dataDir, 'backup', file);
      assert.match(out, /dnssec\/kek/);
      assert.equal(statSync(file).mode & 0o777, 0o600, 'the archive holds the key-encryption key');
      const look = tempDir();
      await extract({ file, cwd: look });
      assert.equal(
        readFileSync(join(look, 'dnssec', 'kek'), 'utf8'),
        readFileSync(join(s.dataDir, 'dnssec', 'kek'), 'utf8'),
      );
      const manifest = JSON.parse(readFileSync(join(look, 'vigil-backup.json'), 'utf8'));
      assert.equal(manifest.format, 2);
      assert.equal(manifest.engine, TEST_DB ? 'postgresql' : 'sqlite');
    } finally {
      await s.stop();
    }

    // Into a new data directory (and, on PostgreSQL, its own new database).
    const restored = join(tempDir(), 'data');
    const { stdout } = await run(VIGIL, ['admin', 'restore', file, '--data', restored, ...(await dbArgs(restored))], {
      env,
    });
    assert.match(stdout, /restored .*dnssec\/kek/);
    assert.equal(statSync(join(restored, 'dnssec', 'kek')).mode & 0o777, 0o600);
    assert.equal(
      readFileSync(join(restored, 'dnssec', 'kek'), 'utf8'),
      readFileSync(join(s.dataDir, 'dnssec', 'kek'), 'utf8'),
    );
    // A second restore would overwrite the store: refused, naming it.
    assert.match(
      await fails('admin', 'restore', file, '--data', restored, ...(await dbArgs(restored))),
      TEST_DB ? /exists: restore only into a data directory without TLS files/ : /vigil\.sqlite exists/,
    );
    if (TEST_DB)
      assert.match(
        await fails('admin', 'restore', file, '--data', join(tempDir(), 'other'), ...(await dbArgs(restored))),
        /already holds a store: restore only into an empty database/,
      );

    const dnsPort2 = await freePort();
    const r = await serve({ dataDir: restored, args: ['--dns-port', String(dnsPort2), ...SIGNING_ARGS] });
    try {
      const key = (await adminJson(restored, 'apikey', 'rotate', '--userid', 'ops')).apikey;
      const c = r.client();
      await c.login(key, 'ops', SIGNER_PASSWORD);
      const status = await c.call('dnsGetDNSSEC.php', { domain: zone });
      assert.deepEqual(status.ds, ds, 'the same DS: the registrar changes nothing');
      assert.equal(kskOf(status.dnskey), ksk);
      // What was signed before is served and validates...
      await validates(dnsPort2, zone, ksk, `www.${zone}`, '192.0.2.44');
      // ...and a change is signed by the restored keys (their private halves opened by the restored key).
      await c.call('dnsAddA.php', { domain: zone, name: 'after', ip: '192.0.2.45' });
      assert.equal((await c.call('dnsPublish.php', { domain: zone })).errors, undefined);
      await validates(dnsPort2, zone, ksk, `after.${zone}`, '192.0.2.45');
      assert.doesNotMatch(r.stderr(), /keyUnsealFailed|signing failed/);
    } finally {
      await r.stop();
    }
  });

  test('one format for both engines: a PostgreSQL backup restores into a SQLite data directory, keys and DS included', {
    skip: TEST_DB ? false : 'needs VIGIL_TEST_DB (a PostgreSQL server to back up from)',
  }, async () => {
    const zone = 'move.example';
    const s = await serve({ args: SIGNING_ARGS });
    const file = join(tempDir(), 'vigil.tar.gz');
    let ds: string[];
    try {
      ds = (await signedZone(s, zone)).ds;
      await admin(s.dataDir, 'backup', file);
    } finally {
      await s.stop();
    }
    const restored = join(tempDir(), 'data');
    // No --db: the data directory's SQLite file.
    await run(VIGIL, ['admin', 'restore', file, '--data', restored], { env });
    assert.ok(existsSync(join(restored, 'vigil.sqlite')));
    // `--db ''` after the helpers' own --db: this serve runs on the SQLite file.
    const r = await serve({ dataDir: restored, args: [...SIGNING_ARGS, '--db', ''] });
    try {
      const { stdout } = await run(
        VIGIL,
        ['admin', 'apikey', 'rotate', '--userid', 'ops', '--json', '--data', restored],
        { env },
      );
      const c = r.client();
      await c.login(JSON.parse(stdout).apikey, 'ops', SIGNER_PASSWORD);
      assert.deepEqual((await c.call('dnsGetDNSSEC.php', { domain: zone })).ds, ds);
      assert.doesNotMatch(r.stderr(), /keyUnsealFailed|signing failed/);
    } finally {
      await r.stop();
    }
  });

  test('a format-1 backup (an older Vigil: no key inside) of signed zones: restore says what is missing, serve refuses until it is back', async () => {
    const s = await serve({ args: SIGNING_ARGS });
    const file = join(tempDir(), 'b.tar.gz');
    try {
      await signedZone(s, 'old-format.example');
      await admin(s.dataDir, 'backup', file);
    } finally {
      await s.stop();
    }
    // The archive as format 1 wrote it: the same store and TLS files, no dnssec/kek.
    const look = tempDir();
    await extract({ file, cwd: look });
    const manifest = JSON.parse(readFileSync(join(look, 'vigil-backup.json'), 'utf8'));
    writeFileSync(
      join(look, 'vigil-backup.json'),
      JSON.stringify({
        ...manifest,
        format: 1,
        engine: undefined,
        files: manifest.files.filter((f: string) => f !== 'dnssec/kek'),
      }),
    );
    const old = join(tempDir(), 'old.tar.gz');
    await create({ gzip: true, cwd: look, file: old }, ['vigil-backup.json', 'vigil.sqlite', 'tls']);
    const restored = join(tempDir(), 'data');
    const r = await run(VIGIL, ['admin', 'restore', old, '--data', restored, ...(await dbArgs(restored))], { env });
    const kek = join(restored, 'dnssec', 'kek');
    assert.match(
      r.stderr,
      new RegExp(`holds no key-encryption key: put the backed-up directory's dnssec/kek at ${kek}`),
    );
    await assert.rejects(serve({ dataDir: restored }), /kekMissing/);
    mkdirSync(dirname(kek), { mode: 0o700 });
    writeFileSync(kek, readFileSync(join(s.dataDir, 'dnssec', 'kek')), { mode: 0o600 });
    const again = await serve({ dataDir: restored });
    assert.equal(await again.stop(), 0);
  });

  test('restore refuses a key-encryption key file that holds another key, before writing anything', async () => {
    const s = await serve({ args: SIGNING_ARGS });
    const file = join(tempDir(), 'vigil.tar.gz');
    try {
      await signedZone(s, 'other-key.example');
      await admin(s.dataDir, 'backup', file);
    } finally {
      await s.stop();
    }
    const restored = join(tempDir(), 'data');
    const elsewhere = join(tempDir(), 'kek');
    writeFileSync(elsewhere, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600 });
    const db = await dbArgs(restored);
    assert.match(
      await fails('admin', 'restore', file, '--data', restored, '--dnssec-key-file', elsewhere, ...db),
      new RegExp(`${elsewhere} exists and holds another key-encryption key`),
    );
    assert.deepEqual(readdirSync(restored), [], 'nothing restored');
    // Named a new file, the key goes there (a set's shared --dnssec-key-file), and not into DATA/dnssec/.
    const shared = join(tempDir(), 'shared', 'dnssec.kek');
    await run(VIGIL, ['admin', 'restore', file, '--data', restored, '--dnssec-key-file', shared, ...db], { env });
    assert.equal(readFileSync(shared, 'utf8'), readFileSync(join(s.dataDir, 'dnssec', 'kek'), 'utf8'));
    assert.equal(statSync(shared).mode & 0o777, 0o600);
    assert.equal(existsSync(join(restored, 'dnssec')), false);
  });

  test('backup refuses when the key-encryption key is missing or another: such a backup could never sign', async () => {
    const s = await serve({ args: SIGNING_ARGS });
    try {
      await signedZone(s, 'no-key.example');
    } finally {
      await s.stop();
    }
    const other = join(tempDir(), 'kek');
    writeFileSync(other, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600 });
    const file = join(tempDir(), 'b.tar.gz');
    const db = await dbArgs(s.dataDir);
    assert.match(
      await fails('admin', 'backup', file, '--data', s.dataDir, '--dnssec-key-file', other, ...db),
      /not backed up: kekMismatch: .* opens none of the store's 2 DNSSEC private keys \(zones no-key\.example\)/,
    );
    assert.match(
      await fails('admin', 'backup', file, '--data', s.dataDir, '--dnssec-key-file', `${other}.none`, ...db),
      /not backed up: kekMissing: /,
    );
    assert.equal(existsSync(file), false);
    // --dnssec-key-file naming the right key (here, a copy of it) is carried as dnssec/kek.
    const copy = join(tempDir(), 'kek-copy');
    writeFileSync(copy, readFileSync(join(s.dataDir, 'dnssec', 'kek')), { mode: 0o600 });
    await run(VIGIL, ['admin', 'backup', file, '--data', s.dataDir, '--dnssec-key-file', copy, ...db], { env });
    const look = tempDir();
    await extract({ file, cwd: look });
    assert.equal(readFileSync(join(look, 'dnssec', 'kek'), 'utf8'), readFileSync(copy, 'utf8'));
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
