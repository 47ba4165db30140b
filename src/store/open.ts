import { type Config, sqlitePath } from '../config.ts';
import { type Db, openSqlite } from './db.ts';

/** The store `config` names: the SQLite file in the data directory (PostgreSQL comes later). */
export async function openStore(config: Config): Promise<Db> {
  if (config.db) throw new Error('PostgreSQL (--db postgres://…) is not available in this version; omit --db to use the SQLite file');
  return openSqlite(sqlitePath(config.dataDir));
}
