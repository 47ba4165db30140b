import { AccountInputError } from '../accounts/accounts.ts';
import { buildConfig } from '../config.ts';
import type { Db } from '../store/db.ts';

/**
 * Opens the store an admin command names, runs the work, closes it;
 * operator mistakes exit 1 with a message. Never creates a store: a
 * mistyped --data must not get a fresh empty one (INTERFACE.md).
 */
export async function withStore(o: Record<string, any>, work: (db: Db) => Promise<void>): Promise<void> {
  // The store (and the DNS code) is loaded only when a command runs: `--help` needs neither.
  const { openStore } = await import('../store/open.ts');
  const db = await openStore(buildConfig({ dataDir: o.data, db: o.db ?? null }), { create: false });
  try {
    await work(db);
  } catch (err) {
    if (!(err instanceof AccountInputError)) throw err;
    process.stderr.write(`vigil: ${err.message}\n`);
    process.exitCode = 1;
  } finally {
    await db.destroy();
  }
}
