import assert from 'node:assert/strict';
import { existsSync, lstatSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, test } from 'node:test';
import { finished, runAudit } from './helpers/audits.ts';
import { SIGNING_ARGS, signedZone } from './helpers/dnssec-serve.ts';
import { TEST_DB } from './helpers/pgdb.ts';
import { admin, serve, tempDir } from './helpers/server.ts';
import { eventually } from './helpers/wait.ts';

/** Every path under `dir` (itself included) whose mode lets the group or others read, write or enter it. */
function openToOthers(dir: string): string[] {
  const out: string[] = [];
  const walk = (path: string) => {
    const st = lstatSync(path);
    if (st.mode & 0o077) out.push(`${relative(dir, path) || '.'} ${(st.mode & 0o777).toString(8)}`);
    if (st.isDirectory()) for (const name of readdirSync(path)) walk(join(path, name));
  };
  walk(dir);
  return out;
}

/** Every file under `dir`, relative. */
function files(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort();
}

// Issue 29: the systemd unit sets UMask=0077, but a plain `serve` from a shell
// (umask 022 on most systems) left the store, its WAL, the outbox mail and the
// data directory itself readable by every user of the machine.
describe('a plain serve under umask 022 leaves nothing under the data directory readable by others', () => {
  test('data directory 0700; store, -wal/-shm, TLS key and certificate, DNSSEC key, outbox mail 0600', async () => {
    // Inherited by the serve and admin processes this test starts.
    process.umask(0o022);
    const data = join(tempDir(), 'data'); // made by serve itself
    const s = await serve({ dataDir: data, args: SIGNING_ARGS });
    try {
      // A signed zone makes DATA/dnssec/kek; an audit with notification and no --smtp-url makes an outbox mail.
      const { c } = await signedZone(s, 'modes.example');
      await admin(
        data,
        'account',
        'update',
        '--userid',
        'ops',
        '--audit-types',
        'basic',
        '--allow-ip',
        '127.0.1.0/24',
        '--email',
        'owner@example.test',
      );
      const scanuid = await runAudit(c, { ipaddr: '127.0.1.31', audittype: 'basic', notification: 'OCMP' });
      await finished(c, scanuid);
      await eventually(
        // The mail is written to a .tmp and renamed: wait for the .eml itself (a listing between the two saw only the .tmp).
        async () =>
          existsSync(join(data, 'outbox')) && readdirSync(join(data, 'outbox')).some((f) => f.endsWith('.eml')),
        'an outbox mail',
      );
      const made = files(data);
      const expected = ['dnssec/kek', 'tls/cert.pem', 'tls/key.pem'];
      // On SQLite the store and, while serve runs, its WAL and shared-memory files.
      if (!TEST_DB) expected.push('vigil.sqlite', 'vigil.sqlite-wal', 'vigil.sqlite-shm');
      for (const f of expected) assert.ok(made.includes(f), `${f} in ${made.join(', ')}`);
      assert.ok(
        made.some((f) => /^outbox\/.+\.eml$/.test(f)),
        made.join(', '),
      );
      assert.deepEqual(openToOthers(data), [], 'while serve runs');
    } finally {
      assert.equal(await s.stop(), 0);
    }
    assert.deepEqual(openToOthers(data), [], 'after serve stopped');
  });

  test('an existing data directory left open (0755) is narrowed to 0700 at start, as systemd does', async () => {
    process.umask(0o022);
    const data = join(tempDir(), 'data');
    mkdirSync(data, { mode: 0o755 });
    assert.equal(statSync(data).mode & 0o777, 0o755);
    const s = await serve({ dataDir: data });
    assert.equal(await s.stop(), 0);
    assert.deepEqual(openToOthers(data), []);
  });
});
