import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, test } from 'node:test';
import SqliteDatabase from 'better-sqlite3';
import pg from 'pg';
import { dsOnceSigned, kskOf, PASSWORD, SIGNING_ARGS, signedZone, validates } from './helpers/dnssec-serve.ts';
import { testDb } from './helpers/pgdb.ts';
import { adminJson, freePort, serve, tempDir } from './helpers/server.ts';
import { hasTool } from './helpers/tools.ts';

/**
 * Issue 29: after a restore without DATA/dnssec/kek, serve silently made a
 * new key-encryption key, and every change to a signed zone then failed
 * with keyUnsealFailed. Now serve refuses to start, says why on stderr and
 * exits non-zero; only a store without sealed keys gets a fresh key.
 * Both engines (VIGIL_TEST_DB gives each data directory its database).
 */
describe('serve never makes a new key-encryption key for a store that holds keys sealed with another', () => {
  test('a store without sealed keys: serve starts and writes no key file until a zone signs', async () => {
    const s = await serve({ args: SIGNING_ARGS });
    try {
      assert.equal(existsSync(join(s.dataDir, 'dnssec')), false);
      await signedZone(s, 'first.example');
      assert.equal(readFileSync(join(s.dataDir, 'dnssec', 'kek'), 'utf8').trim().length, 44, '32 bytes, base64');
    } finally {
      await s.stop();
    }
  });

  test('key file missing, or another key: serve exits non-zero naming the file and the zones; the right key starts it again', async () => {
    const zone = 'refuse.example';
    const s = await serve({ args: SIGNING_ARGS });
    let ds: string[];
    try {
      ds = (await signedZone(s, zone)).ds;
    } finally {
      await s.stop();
    }
    const kek = join(s.dataDir, 'dnssec', 'kek');
    const kept = join(tempDir(), 'kek');
    renameSync(kek, kept);

    // Missing (a restore that left the key out): refused, and no new key made.
    await assert.rejects(serve({ dataDir: s.dataDir, args: SIGNING_ARGS }), (err: Error) => {
      assert.match(err.message, /^vigil exited 1: /);
      assert.match(
        err.message,
        new RegExp(
          `kekMissing: the store holds 2 DNSSEC private keys \\(zones ${zone.replace('.', '\\.')}\\) sealed with a key-encryption key, and ${kek} does not exist`,
        ),
      );
      assert.match(err.message, /none is made/);
      return true;
    });
    assert.equal(existsSync(kek), false, 'no new key was made');

    // Another key (each serve of a set given its own file): refused too.
    const other = join(tempDir(), 'other.kek');
    writeFileSync(other, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600 });
    await assert.rejects(
      serve({ dataDir: s.dataDir, args: [...SIGNING_ARGS, '--dnssec-key-file', other] }),
      (err: Error) => {
        assert.match(
          err.message,
          new RegExp(`vigil exited 1: .*kekMismatch: ${other} opens none of the store's 2 DNSSEC private keys`),
        );
        return true;
      },
    );
    // Not a key at all.
    writeFileSync(other, 'not a key\n');
    await assert.rejects(
      serve({ dataDir: s.dataDir, args: [...SIGNING_ARGS, '--dnssec-key-file', other] }),
      /kekInvalid/,
    );

    // The key put back: the same DS, and a change is signed.
    renameSync(kept, kek);
    const dnsPort = await freePort();
    const again = await serve({ dataDir: s.dataDir, args: [...SIGNING_ARGS, '--dns-port', String(dnsPort)] });
    try {
      const key = (await adminJson(s.dataDir, 'apikey', 'rotate', '--userid', 'ops')).apikey;
      const c = again.client();
      await c.login(key, 'ops', PASSWORD);
      assert.deepEqual(await dsOnceSigned(c, zone), ds);
      if (hasTool('delv')) {
        const ksk = kskOf((await c.call('dnsGetDNSSEC.php', { domain: zone })).dnskey);
        await c.call('dnsAddA.php', { domain: zone, name: 'later', ip: '192.0.2.46' });
        await c.call('dnsPublish.php', { domain: zone });
        await validates(dnsPort, zone, ksk, `later.${zone}`, '192.0.2.46');
      }
    } finally {
      await again.stop();
    }
  });

  test('a key lost for good: the documented steps (delete the sealed keys, re-sign) give new keys and a new DS', async () => {
    const zone = 'lost.example';
    const s = await serve({ args: SIGNING_ARGS });
    let ds: string[];
    try {
      ds = (await signedZone(s, zone)).ds;
    } finally {
      await s.stop();
    }
    rmSync(join(s.dataDir, 'dnssec'), { recursive: true });
    await assert.rejects(serve({ dataDir: s.dataDir, args: SIGNING_ARGS }), /kekMissing/);
    // docs/dnssec.md, "If the key is lost for good", the two statements as written there.
    const doc = readFileSync(resolve(import.meta.dirname, '../docs/dnssec.md'), 'utf8');
    const statements = /```sql\n([\s\S]*?)```/.exec(doc.slice(doc.indexOf('lost for good')))![1]!;
    await sqlOn(s.dataDir, statements);
    const dnsPort = await freePort();
    const again = await serve({ dataDir: s.dataDir, args: [...SIGNING_ARGS, '--dns-port', String(dnsPort)] });
    try {
      const key = (await adminJson(s.dataDir, 'apikey', 'rotate', '--userid', 'ops')).apikey;
      const c = again.client();
      await c.login(key, 'ops', PASSWORD);
      const fresh = await dsOnceSigned(c, zone);
      assert.notDeepEqual(fresh, ds, 'new keys, a new DS for the registrar');
      assert.ok(existsSync(join(s.dataDir, 'dnssec', 'kek')), 'a new key-encryption key');
      if (hasTool('delv')) {
        const ksk = kskOf((await c.call('dnsGetDNSSEC.php', { domain: zone })).dnskey);
        await validates(dnsPort, zone, ksk, `www.${zone}`, '192.0.2.44');
      }
    } finally {
      await again.stop();
    }
  });
});

/** Runs SQL statements on a data directory's store, as an operator would with sqlite3 or psql. */
async function sqlOn(dataDir: string, statements: string): Promise<void> {
  const url = await testDb(dataDir);
  if (!url) {
    const db = new SqliteDatabase(join(dataDir, 'vigil.sqlite'));
    try {
      db.exec(statements);
    } finally {
      db.close();
    }
    return;
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statements);
  } finally {
    await client.end();
  }
}
