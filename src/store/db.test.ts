import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { sql } from 'kysely';
import { openSqlite } from './db.ts';

// Issue 12, item 9: an answered commit must survive a power loss, not only kill -9.
test('the SQLite store syncs every commit: WAL with synchronous = FULL', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'vigil-db-'));
  const db = await openSqlite(join(dir, 'vigil.sqlite'));
  try {
    assert.equal((await sql<{ journal_mode: string }>`PRAGMA journal_mode`.execute(db)).rows[0]?.journal_mode, 'wal');
    // 2 = FULL (sqlite.org/pragma.html#pragma_synchronous); NORMAL is 1.
    assert.equal((await sql<{ synchronous: number }>`PRAGMA synchronous`.execute(db)).rows[0]?.synchronous, 2);
  } finally {
    await db.destroy();
    rmSync(dir, { recursive: true, force: true });
  }
});
