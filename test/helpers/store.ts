import { buildConfig } from '../../src/config.ts';
import { openStore } from '../../src/store/open.ts';
import { testDb } from './pgdb.ts';
import { tempDir } from './server.ts';

/**
 * A data directory whose store exists, as `serve` leaves it on its first
 * start: `admin` never creates one (INTERFACE.md), so tests that run admin
 * before any server make it here.
 */
export async function dataDirWithStore(): Promise<string> {
  const dataDir = tempDir();
  const db = await openStore(buildConfig({ dataDir, db: await testDb(dataDir) }));
  await db.destroy();
  return dataDir;
}
