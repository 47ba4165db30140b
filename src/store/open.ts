import { type Config, sqlitePath } from '../config.ts';
import { type Db, openSqlite } from './db.ts';
import { openPostgres } from './postgres.ts';

/** The store `config` names: PostgreSQL when `db` is a postgres:// URL, else the SQLite file in the data directory. */
export async function openStore(config: Config): Promise<Db> {
  if (config.db) return openPostgres(config.db);
  return openSqlite(sqlitePath(config.dataDir));
}
