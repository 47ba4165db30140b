import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * The engine tests run on: VIGIL_TEST_DB names a PostgreSQL server (a
 * postgres:// URL whose user may CREATE DATABASE); unset, SQLite as always.
 * Each data directory gets its own fresh database, so that an app, the
 * `serve` started on the same directory later and `admin` on it share one
 * store, exactly as they share the SQLite file in that directory.
 */
export const TEST_DB = process.env.VIGIL_TEST_DB || null;

const byDataDir = new Map<string, Promise<string>>();
const made: string[] = [];

/** The URL of `base`'s server with another database name. */
function withDatabase(base: string, name: string): string {
  const url = new URL(base);
  url.pathname = `/${name}`;
  return url.toString();
}

/** A new, empty database on the test server; dropped when this test process exits. */
export async function freshDatabase(): Promise<string> {
  if (!TEST_DB) throw new Error('VIGIL_TEST_DB is not set');
  const name = `vigil_test_${randomBytes(6).toString('hex')}`;
  const client = new pg.Client({ connectionString: TEST_DB });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  made.push(name);
  return withDatabase(TEST_DB, name);
}

/** The store of a data directory: its own PostgreSQL database under VIGIL_TEST_DB, else null (the SQLite file). */
export function testDb(dataDir: string): Promise<string | null> {
  if (!TEST_DB) return Promise.resolve(null);
  let url = byDataDir.get(dataDir);
  if (!url) byDataDir.set(dataDir, (url = freshDatabase()));
  return url;
}

/** `--db URL` for bin/vigil on that data directory, or nothing on SQLite. */
export async function dbArgs(dataDir: string): Promise<string[]> {
  const url = await testDb(dataDir);
  return url ? ['--db', url] : [];
}

// At exit nothing async runs any more: a short synchronous child drops the
// databases (FORCE ends connections a killed or stuck child process left).
process.once('exit', () => {
  if (!made.length || !TEST_DB) return;
  const script = `const pg = require('pg'); (async () => { const c = new pg.Client({ connectionString: process.env.URL });
    await c.connect(); for (const n of process.env.NAMES.split(',')) await c.query('DROP DATABASE IF EXISTS ' + n + ' WITH (FORCE)').catch(() => {});
    await c.end(); })().catch(() => {});`;
  spawnSync(process.execPath, ['-e', script], {
    env: { ...process.env, URL: TEST_DB, NAMES: made.join(',') },
    cwd: import.meta.dirname,
    timeout: 10_000,
    stdio: 'ignore',
  });
});
