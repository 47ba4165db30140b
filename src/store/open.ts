import { existsSync } from 'node:fs';
import { type Config, sqlitePath } from '../config.ts';
import { type Db, openSqlite } from './db.ts';
import { openPostgres } from './postgres.ts';

/** `admin` pointed at a data directory without a store (INTERFACE.md: it never creates one). */
export class NoStoreError extends Error {
  readonly code = 'noStore';
  constructor(readonly path: string) {
    super(
      `no store at ${path}: admin does not create one (check --data or --db; serve creates the store on its first start)`,
    );
    this.name = 'NoStoreError';
  }
}

export interface OpenOptions {
  /**
   * false: refuse (NoStoreError) rather than create a missing SQLite file. PostgreSQL databases are never
   * created here.
   */
  create?: boolean;
}

/** The store `config` names: PostgreSQL when `db` is a postgres:// URL, else the SQLite file in the data directory. */
export async function openStore(config: Config, options: OpenOptions = {}): Promise<Db> {
  if (config.db) return openPostgres(config.db);
  const file = sqlitePath(config.dataDir);
  // A mistyped --data would otherwise get a fresh empty store and report "no accounts".
  if (options.create === false && !existsSync(file)) throw new NoStoreError(file);
  return openSqlite(file);
}
