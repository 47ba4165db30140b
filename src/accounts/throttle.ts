import type { Clock } from '../clock.ts';
import type { Db } from '../store/db.ts';

/**
 * Failed-login throttling, kept in the store so that every server process
 * sharing it counts the same failures.
 *
 * Each key (the userid, and the client address) gets FREE_FAILURES misses;
 * the count starts again after WINDOW_MS without a miss. After that every further miss locks the key for a doubling
 * delay. The userid's lock is capped at one minute so that an attacker
 * cannot lock the real user out for long; an address's lock grows to 15
 * minutes. A successful login clears both keys.
 */
const FREE_FAILURES = 5;
const WINDOW_MS = 15 * 60_000;
const CAP_MS = { user: 60_000, addr: 15 * 60_000 } as const;

export type ThrottleKind = keyof typeof CAP_MS;
export const throttleKey = (kind: ThrottleKind, id: string) => `${kind}:${id}`;

export class LoginThrottle {
  constructor(private readonly db: Db, private readonly clock: Clock) {}

  /** True while any of the keys is locked. */
  async isLocked(keys: string[]): Promise<boolean> {
    const now = this.clock.now();
    const rows = await this.db.selectFrom('login_throttle').select('locked_until').where('key', 'in', keys).execute();
    return rows.some((r) => Number(r.locked_until) > now);
  }

  async recordFailure(keys: string[]): Promise<void> {
    const now = this.clock.now();
    await this.db.transaction().execute(async (trx) => {
      for (const key of keys) {
        const row = await trx.selectFrom('login_throttle').selectAll().where('key', '=', key).executeTakeFirst();
        const fresh = !row || now - Number(row.last_failure) > WINDOW_MS;
        const failures = fresh ? 1 : row.failures + 1;
        const over = failures - FREE_FAILURES;
        const cap = CAP_MS[key.startsWith('user:') ? 'user' : 'addr'];
        const lockedUntil = over > 0 ? now + Math.min(cap, 1000 * 2 ** Math.min(over - 1, 20)) : 0;
        const values = { failures, last_failure: now, locked_until: lockedUntil };
        if (row) await trx.updateTable('login_throttle').set(values).where('key', '=', key).execute();
        else await trx.insertInto('login_throttle').values({ key, ...values }).execute();
      }
    });
  }

  async clear(keys: string[]): Promise<void> {
    await this.db.deleteFrom('login_throttle').where('key', 'in', keys).execute();
  }
}
