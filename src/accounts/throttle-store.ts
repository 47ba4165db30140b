import type { Kysely } from 'kysely';
import type { Database, LoginThrottleTable, ThrottleScope } from '../store/schema.ts';

/**
 * The one owner of the `login_throttle` table (issue 13): throttle.ts
 * decides (counts, locks, known addresses), this file queries. Callers pass
 * the executor: the store or their transaction.
 */
type Executor = Kysely<Database>;
export type ThrottleRow = LoginThrottleTable;
export type ThrottleKey = Pick<ThrottleRow, 'scope' | 'userid' | 'address'>;

const byKeys = (keys: ThrottleKey[]) => (eb: any) =>
  eb.or(keys.map((k) => eb.and({ scope: k.scope, userid: k.userid, address: k.address })));
const byKey = <Q extends { where(...a: any[]): Q }>(q: Q, k: ThrottleKey): Q =>
  q.where('scope', '=', k.scope).where('userid', '=', k.userid).where('address', '=', k.address);

export async function throttleRows(db: Executor, keys: ThrottleKey[]): Promise<ThrottleRow[]> {
  return db.selectFrom('login_throttle').selectAll().where(byKeys(keys)).execute();
}

/**
 * Makes sure the rows exist, writing each (a no-op update when it does):
 * on SQLite this takes the database's write lock before anything is read,
 * on PostgreSQL it locks the rows (see LoginThrottle.reserve).
 */
export async function touchRows(trx: Executor, keys: ThrottleKey[]): Promise<void> {
  await trx
    .insertInto('login_throttle')
    .values(keys.map((k) => ({ ...k, failures: 0, last_failure: 0, locked_until: 0, last_success: null })))
    .onConflict((oc) =>
      oc.columns(['scope', 'userid', 'address']).doUpdateSet((eb) => ({ failures: eb.ref('login_throttle.failures') })),
    )
    .execute();
}

export async function setFailures(
  trx: Executor,
  key: ThrottleKey,
  failures: number,
  lastFailure: number,
  lockedUntil: number,
): Promise<void> {
  await byKey(
    trx.updateTable('login_throttle').set({ failures, last_failure: lastFailure, locked_until: lockedUntil }),
    key,
  ).execute();
}

/** A right password from this pair: its count starts again and the address becomes known. */
export async function pairSucceeded(trx: Executor, userid: string, address: string, now: number): Promise<void> {
  await byKey(trx.updateTable('login_throttle').set({ failures: 0, locked_until: 0, last_success: now }), {
    scope: 'pair',
    userid,
    address,
  }).execute();
}

/**
 * Gives one failure back; the lock it set goes too unless the count still
 * calls for one (`free` failures or more): a longer wait is safe.
 */
export async function giveBackFailure(trx: Executor, key: ThrottleKey, free: number): Promise<void> {
  const update = trx.updateTable('login_throttle').set((eb) => ({
    failures: eb
      .case()
      .when('failures', '>', 0)
      .then(eb('failures', '-', 1))
      .else(0)
      .end(),
    locked_until: eb.case().when('failures', '<=', free).then(0).else(eb.ref('locked_until')).end(),
  }));
  await byKey(update, key).execute();
}

/** Rows with failures, most recently locked first. */
export async function failingRows(db: Executor): Promise<ThrottleRow[]> {
  return db
    .selectFrom('login_throttle')
    .selectAll()
    .where('failures', '>', 0)
    .orderBy('locked_until', 'desc')
    .orderBy('last_failure', 'desc')
    .execute();
}

/**
 * Forgets failures: of one pair, of a userid's rows, of an address's rows, or (no selection) all. Returns
 * rows changed.
 */
export async function clearFailures(db: Executor, sel: { userid?: string; address?: string }): Promise<number> {
  let q = db.updateTable('login_throttle').set({ failures: 0, locked_until: 0 }).where('failures', '>', 0);
  const { userid, address } = sel;
  if (userid !== undefined && address !== undefined) q = byKey(q, { scope: 'pair', userid, address });
  else if (userid !== undefined)
    q = q.where('scope', 'in', ['pair', 'user'] as ThrottleScope[]).where('userid', '=', userid);
  else if (address !== undefined)
    q = q.where('scope', 'in', ['pair', 'address'] as ThrottleScope[]).where('address', '=', address);
  const [result] = await q.execute();
  return Number(result?.numUpdatedRows ?? 0);
}

/** Drops rows unlocked, without a failure since `failedBefore` and not known since `knownBefore`. */
export async function pruneRows(db: Executor, now: number, failedBefore: number, knownBefore: number): Promise<void> {
  await db
    .deleteFrom('login_throttle')
    .where('locked_until', '<', now)
    .where('last_failure', '<', failedBefore)
    .where((eb) => eb.or([eb('last_success', 'is', null), eb('last_success', '<', knownBefore)]))
    .execute();
}
