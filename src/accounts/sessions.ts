import type { Clock } from '../clock.ts';
import { Gate } from '../gate.ts';
import type { Db } from '../store/db.ts';
import { ApiError, RetryLaterError, fail } from '../errors.ts';
import type { AccountRow } from './accounts.ts';
import {
  APIKEY_FORMAT,
  DUMMY_PASSWORD_HASH,
  TOKEN_FORMAT,
  newSessionToken,
  sameHash,
  secretHash,
  verifyPassword,
} from './secrets.ts';
import { LoginThrottle } from './throttle.ts';
import { accountByKeyHash, deleteExpiredSessions, insertSession, sessionAccount } from './account-store.ts';

/** Expired tokens are kept this long so that callers learn `sessionTimeout`. */
const EXPIRED_KEPT_MS = 7 * 86_400_000;

/**
 * Password checks (scrypt, ~100 ms of CPU on libuv's 4-thread pool) from
 * addresses the userid has not logged in from, at once in one process.
 * A guessing burst's free attempts (20 from ten addresses) otherwise filled
 * the pool and queued the real user's login behind them for 2 to 5 s
 * (bench/hostile/guessing.ts); known addresses never wait here. CPU
 * fairness only: the throttle itself is in the store.
 */
const UNKNOWN_CHECKS_AT_ONCE = 2;

export interface Credentials {
  apikey: string | undefined;
  userid: string | undefined;
  password: string | undefined;
  clientAddress: string;
}

/**
 * Authentication: `auth.php` logins and the API-key + session-token check of
 * every other call. Knows nothing of HTTP.
 */
export class Sessions {
  readonly throttle: LoginThrottle;
  private readonly unknownChecks = new Gate(UNKNOWN_CHECKS_AT_ONCE);

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly ttlMs: number,
  ) {
    this.throttle = new LoginThrottle(db, clock);
  }

  private async accountByKey(apikey: string | undefined): Promise<AccountRow> {
    if (apikey === undefined || !APIKEY_FORMAT.test(apikey)) fail('invalid apikey format');
    const row = await accountByKeyHash(this.db, secretHash(apikey));
    return row ?? fail('invalid apikey - not in db');
  }

  /**
   * Passwords actually checked by this instance (throttled attempts are
   * not): what tests and the guessing benchmark count.
   */
  passwordChecks = 0;

  /** auth.php: returns a new session token. */
  async login(c: Credentials): Promise<string> {
    const account = await this.accountByKey(c.apikey);
    if (!c.userid || !c.password) fail('missing credentials');
    // Counted against the account the key names, not the userid typed: only
    // that account's password can be checked here, so typing another
    // account's userid (with one's own key) cannot lock that account.
    const userid = account.userid;
    // The slot is taken before the password is tried, in one transaction:
    // requests sent at once cannot all pass a check made before any of
    // them is recorded. While throttled the password is not even tried.
    const slot = await this.throttle.reserve(userid, c.clientAddress);
    if (!slot.allowed) {
      // The userid logged is the account's, never the typed field (people
      // type passwords into it); the password is never logged.
      throw new RetryLaterError('invalidLogin', Math.max(1, Math.ceil(slot.retryAfterMs / 1000)), {
        userid,
        address: c.clientAddress,
        throttle: slot.scope,
      });
    }
    this.passwordChecks++;
    const sameUser = userid === c.userid;
    const check = () => verifyPassword(c.password!, sameUser ? account.password_hash : DUMMY_PASSWORD_HASH);
    const passwordOk = await (slot.known ? check() : this.unknownChecks.run(check));
    // A wrong password stays counted: the reservation was its failure.
    // The account's userid (never the typed field: people type passwords into it).
    if (!sameUser || !passwordOk) throw new ApiError('invalidLogin', { userid, address: c.clientAddress });
    await this.throttle.succeeded(userid, c.clientAddress, slot);
    if (account.enabled !== 1) fail('invalidLogin');
    return this.issue(account);
  }

  private async issue(account: AccountRow): Promise<string> {
    const now = this.clock.now();
    const token = newSessionToken();
    try {
      await this.db.transaction().execute(async (trx) => {
        await deleteExpiredSessions(trx, now - EXPIRED_KEPT_MS);
        await insertSession(trx, {
          token_hash: secretHash(token),
          account_id: account.id,
          apikey_hash: account.apikey_hash,
          created_at: now,
          expires_at: now + this.ttlMs,
        });
      });
    } catch (err) {
      if (err instanceof ApiError) throw err;
      fail('tokenCreation');
    }
    return token;
  }

  /** The key + token check of every call but auth.php; returns the caller. */
  async authenticate(apikey: string | undefined, token: string | undefined): Promise<AccountRow> {
    if (apikey === undefined || !APIKEY_FORMAT.test(apikey)) fail('invalid apikey format');
    const keyHash = secretHash(apikey);
    if (token !== undefined && TOKEN_FORMAT.test(token)) {
      // Fast path: one query finds the token, its account and the bound key.
      const found = await sessionAccount(this.db, secretHash(token));
      if (found && sameHash(found.account.apikey_hash, keyHash) && sameHash(found.boundKey, keyHash)) {
        if (found.account.enabled !== 1) fail('sessionAuthenticationFailure');
        if (found.expiresAt <= this.clock.now()) fail('sessionTimeout');
        return found.account;
      }
    }
    // Slow path only decides which error to give.
    await this.accountByKey(apikey);
    fail('sessionAuthenticationFailure');
  }
}
