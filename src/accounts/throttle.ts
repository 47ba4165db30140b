import type { Clock } from '../clock.ts';
import { parseIP } from '../ip.ts';
import type { Db } from '../store/db.ts';
import type { ThrottleScope } from '../store/schema.ts';
import {
  clearFailures,
  failingRows,
  giveBackFailure,
  pairSucceeded,
  pruneRows,
  setFailures,
  type ThrottleKey as Key,
  type ThrottleRow as Row,
  throttleRows,
  touchRows,
} from './throttle-store.ts';

/**
 * Failed-login throttling, kept in the store so that every server process
 * sharing it counts the same attempts (docs/security.md, "Login throttling").
 *
 * Three counters, each a row:
 *   - `pair` (userid, address): after `free` failures every further one
 *     holds the pair for a doubling delay, at most a minute; 100 failures in
 *     a row lock it until a day has passed without one (or the operator
 *     clears it).
 *   - `address`: one address guessing many accounts is slowed down (short
 *     delays, at most 30 s), never locked for long.
 *   - `user`: many addresses guessing one userid (a distributed attack) are
 *     slowed down together, at most 60 s between attempts, and locked like a
 *     pair after 100 failures in a row.
 * The delays are short because a guess needs the account's API key (128
 * bits) as well as its password: the old 15-minute pair lock protected
 * little and kept real users with a mistyped password out (issue 28). The
 * ceiling is NIST SP 800-63B's (section 5.2.2: at most 100 consecutive
 * failed attempts on one account); docs/security.md has the figures.
 * An address the userid logged in from in the last 30 days is a known
 * address (the "device cookie" idea of OWASP's authentication cheat sheet,
 * with the address as the device): attempts from it are counted on its pair
 * only, so neither another address's guesses nor a neighbour's on a shared
 * address can lock the real user out from where they usually log in.
 *
 * Atomic: `reserve` counts the attempt as a failure, in one transaction,
 * before the password is checked; `succeeded` gives it back. A burst sent at
 * once therefore gets exactly `free` checks, whatever the number of
 * processes: the old check-then-record order let 171 to 456 of 1,000
 * concurrent guesses through (issue 12, item 4).
 */
interface Policy {
  /** Failures in a window before the first delay. */
  readonly free: number;
  readonly firstDelayMs: number;
  /** The longest delay below the ceiling. */
  readonly capMs: number;
  /** The count starts again after this long without a failure. */
  readonly windowMs: number;
  /** Failures in a window that lock for the rest of it; none: delays only. */
  readonly ceiling?: number;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** NIST SP 800-63B 5.2.2: no more than 100 consecutive failed attempts on one account. */
const NIST_CEILING = 100;
export const POLICY: Readonly<Record<ThrottleScope, Policy>> = {
  pair: { free: 5, firstDelayMs: 1000, capMs: MINUTE, windowMs: 24 * HOUR, ceiling: NIST_CEILING },
  // 20: a single address reaches its pair's first delay (5) long before this,
  // so only several addresses together reach it.
  user: { free: 20, firstDelayMs: 1000, capMs: MINUTE, windowMs: 24 * HOUR, ceiling: NIST_CEILING },
  // A shared address (NAT, proxy) holds many users' typing mistakes: more
  // free failures, a short window and a short cap, so it recovers in minutes;
  // no ceiling (it is not an account, and a lock would keep everyone behind it out).
  address: { free: 20, firstDelayMs: 1000, capMs: 30_000, windowMs: HOUR },
};
/** A successful login makes its address known to the userid for this long. */
export const KNOWN_ADDRESS_MS = 30 * 24 * HOUR;
/** Rows idle this long are deleted (longest window; known addresses kept). */
const PRUNE_EVERY_MS = MINUTE;

/** The lock a failure count sets, counted from the failure. */
export function delayMs(scope: ThrottleScope, failures: number): number {
  const p = POLICY[scope];
  if (failures < p.free) return 0;
  // Until the count is forgotten (see `fresh` in reserve).
  if (p.ceiling !== undefined && failures >= p.ceiling) return p.windowMs;
  return Math.min(p.capMs, p.firstDelayMs * 2 ** Math.min(failures - p.free, 30));
}

/**
 * The address a throttle counts: IPv4-mapped IPv6 as IPv4; other IPv6 as its
 * /64, since one subscriber usually holds a whole /64 and could otherwise
 * take a fresh address for every guess.
 */
export function throttleAddress(ip: string): string {
  const addr = parseIP(ip.trim());
  if (addr === null) return ip.trim();
  if (addr.kind() === 'ipv4') return addr.toString();
  const v6 = addr as import('ipaddr.js').IPv6;
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().toString();
  const groups = v6
    .toNormalizedString()
    .split(':')
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''));
  return `${groups.join(':')}::/64`;
}

/** Outcome of `reserve`. */
export type Reservation =
  | { readonly allowed: true; readonly known: boolean }
  | { readonly allowed: false; readonly retryAfterMs: number; readonly scope: ThrottleScope };

/** One row as the operator sees it (`bin/vigil admin throttle list`). */
export interface ThrottleEntry {
  scope: ThrottleScope;
  userid: string | null;
  address: string | null;
  failures: number;
  lastFailure: string;
  /** ISO time the lock ends; null when not locked now. */
  lockedUntil: string | null;
  /** Whole seconds left of the lock (0: not locked). */
  retryAfterSeconds: number;
}

export interface ClearSelection {
  userid?: string;
  address?: string;
  all?: boolean;
}

function isKnown(rows: Row[], now: number): boolean {
  const pair = rows.find((r) => r.scope === 'pair')!;
  return pair.last_success !== null && now - Number(pair.last_success) < KNOWN_ADDRESS_MS;
}

/** The rows an attempt answers to: a known address, to its pair alone (see above). */
function counted(rows: Row[], known: boolean): Row[] {
  return known ? rows.filter((r) => r.scope === 'pair') : rows;
}

/** The longest lock among the rows that count, if any. */
function refusal(rows: Row[], now: number): Reservation | null {
  const waits = counted(rows, isKnown(rows, now))
    .map((r) => ({ scope: r.scope, ms: Number(r.locked_until) - now }))
    .filter((w) => w.ms > 0);
  if (!waits.length) return null;
  const longest = waits.reduce((a, b) => (b.ms > a.ms ? b : a));
  return { allowed: false, retryAfterMs: longest.ms, scope: longest.scope };
}

export class LoginThrottle {
  private lastPrune = 0;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  /**
   * Takes a slot for one login attempt of `userid` from `ip`, or says how
   * long to wait. The slot is recorded as a failure before the password is
   * checked; call `succeeded` when it was right.
   */
  async reserve(userid: string, ip: string): Promise<Reservation> {
    const now = this.clock.now();
    const address = throttleAddress(ip);
    // Always this order (pair, user, address): PostgreSQL row locks are then
    // taken in one order by every transaction, so they cannot deadlock.
    const keys: Key[] = [
      { scope: 'pair', userid, address },
      { scope: 'user', userid, address: '' },
      { scope: 'address', userid: '', address },
    ];
    // Fast path, read only: an attempt already locked out is refused without
    // a write. Refusing on a read that may be a moment old is safe (it lets
    // no guess through); under a burst almost every attempt ends here, and a
    // write transaction for each cost ~1 ms and queued the real user behind
    // them (bench/hostile/guessing.ts).
    const seen = await throttleRows(this.db, keys);
    const early = seen.length === 3 ? refusal(seen, now) : null;
    if (early) return early;
    const verdict = await this.db.transaction().execute(async (trx) => {
      // Write first: on SQLite this takes the database's write lock before
      // anything is read (a read first would let two processes read the same
      // count, and the later writer fails with SQLITE_BUSY_SNAPSHOT); on
      // PostgreSQL it locks the three rows (a no-op update still locks).
      await touchRows(trx, keys);
      const rows = await throttleRows(trx, keys);
      const refused = refusal(rows, now);
      if (refused) return refused;
      const known = isKnown(rows, now);
      for (const r of counted(rows, known)) {
        // At the window, not after it: a ceiling lock (windowMs long) ends just as its count is forgotten.
        const fresh = now - Number(r.last_failure) >= POLICY[r.scope].windowMs;
        const failures = fresh ? 1 : r.failures + 1;
        const wait = delayMs(r.scope, failures);
        await setFailures(trx, r, failures, now, wait ? now + wait : 0);
      }
      return { allowed: true, known } as const;
    });
    if (now - this.lastPrune > PRUNE_EVERY_MS) {
      this.lastPrune = now;
      await this.prune(now);
    }
    return verdict;
  }

  /**
   * The reserved attempt had the right password: its pair starts again and
   * its address becomes known; the slot it took from the userid's and the
   * address's counts is given back. Those two are not cleared: one success
   * (the attacker's own account, say) must not wipe out others' failures.
   */
  async succeeded(userid: string, ip: string, reservation: { known: boolean }): Promise<void> {
    const now = this.clock.now();
    const address = throttleAddress(ip);
    await this.db.transaction().execute(async (trx) => {
      await pairSucceeded(trx, userid, address, now);
      if (reservation.known) return;
      for (const key of [
        { scope: 'user', userid, address: '' },
        { scope: 'address', userid: '', address },
      ] as const) {
        // The lock this slot set (if any) goes too, unless others' failures
        // since still call for one (then it is kept: a longer wait is safe).
        await giveBackFailure(trx, key, POLICY[key.scope].free);
      }
    });
  }

  /** Rows with failures, most recently locked first. */
  async list(): Promise<ThrottleEntry[]> {
    const now = this.clock.now();
    const rows = await failingRows(this.db);
    return rows.map((r) => {
      const left = Number(r.locked_until) - now;
      return {
        scope: r.scope,
        userid: r.scope === 'address' ? null : r.userid,
        address: r.scope === 'user' ? null : r.address,
        failures: r.failures,
        lastFailure: new Date(Number(r.last_failure)).toISOString(),
        lockedUntil: left > 0 ? new Date(Number(r.locked_until)).toISOString() : null,
        retryAfterSeconds: left > 0 ? Math.ceil(left / 1000) : 0,
      };
    });
  }

  /**
   * Forgets the failures (and so the locks) of the rows selected: a userid's
   * pairs and userid row, an address's pairs and address row, or with both
   * the one pair. Known addresses stay known. Returns how many rows changed.
   */
  async clear(sel: ClearSelection): Promise<number> {
    if (!sel.all && sel.userid === undefined && sel.address === undefined) throw new Error('nothing selected');
    const address = sel.address === undefined ? undefined : throttleAddress(sel.address);
    return clearFailures(this.db, sel.all ? {} : { userid: sel.userid, address });
  }

  /** Drops rows that hold nothing any more: no failure in the longest window, no recent success. */
  private async prune(now: number): Promise<void> {
    await pruneRows(this.db, now, now - POLICY.pair.windowMs, now - KNOWN_ADDRESS_MS);
  }
}
