import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { claimCycle, readSchedule } from '../src/store/cycle-schedule.ts';
import { type Db, openSqlite } from '../src/store/db.ts';
import { openPostgres } from '../src/store/postgres.ts';
import { testDb } from './helpers/pgdb.ts';
import { tempDir } from './helpers/server.ts';

/** The suite's engine: PostgreSQL under VIGIL_TEST_DB, else a SQLite file. */
async function store(): Promise<Db> {
  const dir = tempDir();
  const url = await testDb(dir);
  return url ? openPostgres(url) : openSqlite(join(dir, 'vigil.sqlite'));
}

const T = Date.UTC(2026, 10, 23, 12);

// The claim that makes one cycle per interval for a set of serves
// (src/store/cycle-schedule.ts); test/scale-serves.test.ts shows it across
// real processes, this shows the race itself, many claimants at once.
describe('the distribution schedule', () => {
  test('made once by the first reader; of claims racing for one cycle exactly one wins; the number never repeats', async () => {
    const a = await store();
    try {
      const made = await Promise.all(Array.from({ length: 8 }, (_, i) => readSchedule(a, T + i)));
      assert.equal(new Set(made.map((s) => `${s.cycle}/${s.lastAt}`)).size, 1, 'every reader sees the one row');
      assert.equal(made[0]!.cycle, 0);
      let seen = made[0]!;
      for (let round = 1; round <= 3; round++) {
        // On PostgreSQL these run on separate pooled connections, at once.
        const claims = await Promise.all(
          Array.from({ length: 8 }, (_, i) => claimCycle(a, seen, T + round * 1000 + i)),
        );
        const won = claims.filter((c) => c !== null);
        assert.equal(won.length, 1, `round ${round}: one winner`);
        assert.equal(won[0]!.cycle, round);
        seen = await readSchedule(a, 0);
        assert.deepEqual(seen, won[0]);
      }
      // A process that still holds an old view claims nothing.
      assert.equal(await claimCycle(a, { cycle: 1, lastAt: T }, T + 9999), null);
    } finally {
      await a.destroy();
    }
  });
});
