import type { Kysely, Selectable } from 'kysely';
import { writeFirst } from '../store/dialect.ts';
import { precompile } from '../store/precompiled.ts';
import { perStoreCache } from '../store/read-cache.ts';
import type { AccountsTable, Database, SessionsTable } from '../store/schema.ts';

/**
 * The accounts store: the one owner of the tables `accounts` and
 * `sessions` (issue 13). Every query on them is here; accounts.ts and
 * sessions.ts decide, this file queries (`login_throttle` is
 * throttle-store.ts's). Callers pass the executor: the store or the
 * transaction they run in.
 */
type Executor = Kysely<Database>;
export type AccountRow = Selectable<AccountsTable>;
export type NewAccount = Omit<AccountRow, 'id'>;

/**
 * Whether the userid is taken, read under the write lock (SQLite; see
 * writeFirst) because an insert follows: two `admin account add` of one
 * userid then get "already exists", not "database is locked". On
 * PostgreSQL the unique index refuses the second.
 */
export async function useridTaken(trx: Executor, userid: string): Promise<boolean> {
  await writeFirst(trx, 'accounts');
  return (await trx.selectFrom('accounts').select('id').where('userid', '=', userid).executeTakeFirst()) !== undefined;
}

export async function accountByUserid(db: Executor, userid: string): Promise<AccountRow | undefined> {
  return db.selectFrom('accounts').selectAll().where('userid', '=', userid).executeTakeFirst();
}

export async function accountByKeyHash(db: Executor, apikeyHash: string): Promise<AccountRow | undefined> {
  return db.selectFrom('accounts').selectAll().where('apikey_hash', '=', apikeyHash).executeTakeFirst();
}

export async function insertAccount(trx: Executor, values: NewAccount): Promise<AccountRow> {
  return trx.insertInto('accounts').values(values).returningAll().executeTakeFirstOrThrow();
}

export async function updateAccountRow(trx: Executor, id: number, values: Partial<AccountRow>): Promise<AccountRow> {
  return trx.updateTable('accounts').set(values).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

export async function listAccountRows(db: Executor): Promise<AccountRow[]> {
  return db.selectFrom('accounts').selectAll().orderBy('userid').execute();
}

/** True once any account exists (serve's first-start hint). */
export async function anyAccount(db: Executor): Promise<boolean> {
  return (await db.selectFrom('accounts').select('id').limit(1).execute()).length > 0;
}

/** Userids by account id, for lists that show whose a row is (e.g. `admin domain list`). */
export async function useridsOf(db: Executor, ids: number[]): Promise<Map<number, string>> {
  const unique = [...new Set(ids)];
  if (!unique.length) return new Map();
  const rows = await db.selectFrom('accounts').select(['id', 'userid']).where('id', 'in', unique).execute();
  return new Map(rows.map((r) => [r.id, r.userid]));
}

export type SessionRow = Selectable<SessionsTable>;

export async function insertSession(trx: Executor, session: SessionRow): Promise<void> {
  await trx.insertInto('sessions').values(session).execute();
}

export async function deleteExpiredSessions(trx: Executor, before: number): Promise<void> {
  await trx.deleteFrom('sessions').where('expires_at', '<', before).execute();
}

/** Ends every session of the account (a new password or key, a disabled account). */
export async function deleteSessionsOf(trx: Executor, accountId: number): Promise<void> {
  await trx.deleteFrom('sessions').where('account_id', '=', accountId).execute();
}

type TokenAccountRow = AccountRow & { bound_key: string; expires_at: number };

/**
 * A session token's account, with the key the token was made with and its
 * expiry. Split once when read, not per call: the account is shared by every
 * call of the session while it is cached, so it is frozen.
 */
export interface SessionAccount {
  readonly account: Readonly<AccountRow>;
  readonly boundKey: string;
  readonly expiresAt: number;
}

const sessionQueries = new WeakMap<Executor, (db: Executor, tokenHash: string) => Promise<TokenAccountRow[]>>();

/**
 * The one query of every authenticated call: token, its account and the
 * bound key. Compiled once per store (src/store/precompiled.ts).
 */
export async function sessionAccount(db: Executor, tokenHash: string): Promise<SessionAccount | undefined> {
  let query = sessionQueries.get(db);
  if (!query) {
    query = precompile<TokenAccountRow, [string]>(
      (hash) =>
        db
          .selectFrom('sessions')
          .innerJoin('accounts', 'accounts.id', 'sessions.account_id')
          .selectAll('accounts')
          .select(['sessions.apikey_hash as bound_key', 'sessions.expires_at'])
          .where('sessions.token_hash', '=', hash!),
      1,
    );
    sessionQueries.set(db, query);
  }
  const run = query;
  // Kept while the store is unchanged (src/store/read-cache.ts); null stands for "no such token".
  const found = await sessionCache(db).get(db, tokenHash, async () => {
    const row = (await run(db, tokenHash))[0];
    if (!row) return null;
    const { bound_key: boundKey, expires_at: expiresAt, ...account } = row;
    return { account: Object.freeze(account), boundKey, expiresAt: Number(expiresAt) };
  });
  return found ?? undefined;
}

const sessionCache = perStoreCache<string, SessionAccount | null>();

/** Who an account is, for the mail and log lines of its audits. */
export async function accountContact(
  db: Executor,
  id: number,
): Promise<{ userid: string; email: string | null } | undefined> {
  return db.selectFrom('accounts').select(['userid', 'email']).where('id', '=', id).executeTakeFirst();
}

/** An account by its id (a scheduled run checks its account as a request's is checked); undefined: deleted. */
export async function accountById(db: Executor, id: number): Promise<AccountRow | undefined> {
  return db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst();
}
