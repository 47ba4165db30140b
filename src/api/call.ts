import type { AccountRow } from '../accounts/accounts.ts';
import type { Sessions } from '../accounts/sessions.ts';
import type { Clock } from '../clock.ts';
import type { Config } from '../config.ts';
import type { ReportLoadFailure, SpecCode } from '../errors.ts';
import type { Db } from '../store/db.ts';
import type { Form } from './form.ts';
import type { Domains } from '../dns/domains.ts';
import type { Publisher } from '../dns/publish.ts';
import type { ZoneEdits } from '../dns/zone-edits.ts';
import type { Audits } from '../audit/service.ts';
import type { Logger } from 'pino';
import type { DistributionSchedule } from '../dns/cycle-loop.ts';

/** The domain services a script may call; built once by app.ts. */
export interface Services {
  readonly config: Config;
  readonly clock: Clock;
  readonly db: Db;
  readonly sessions: Sessions;
  readonly dns: DnsServices;
  readonly audits: Audits;
  /** For event lines of the scripts (publish); never given a secret. */
  readonly logger: Logger;
}

export interface DnsServices {
  readonly domains: Domains;
  readonly edits: ZoneEdits;
  readonly publisher: Publisher;
  /** When this server distributes next: what "when is my change live?" answers. */
  readonly schedule: DistributionSchedule;
}

/** One script call, after transport rules; no HTTP in here. */
export interface AnonymousCall {
  readonly form: Form;
  readonly clientAddress: string;
  readonly services: Services;
}

export interface Call extends AnonymousCall {
  /** The caller, authenticated by API key and session token. */
  readonly account: AccountRow;
}

/** Extra success fields; `status` is added by the transport. */
export type Reply = Record<string, unknown>;

/**
 * A script's own form fields (spec section 4's "extra request parameters"),
 * by name: `required` must be sent (it may still be blank where the spec
 * allows, e.g. dnsAddA's `name`), `optional` may be left out. `apikey`, and
 * `sessionToken` for session scripts, come on top and are not listed.
 * The table is what tests (test/fuzz-scripts.test.ts) drive every script
 * from; a later issue grows it into types and rules per field.
 */
export type Params = Readonly<Record<string, 'required' | 'optional'>>;

/** Params from the spec's lists: the required names, then the optional ones. */
export function params(required: readonly string[], optional: readonly string[] = []): Params {
  return Object.freeze(Object.fromEntries([...required.map((n) => [n, 'required']), ...optional.map((n) => [n, 'optional'])]));
}

interface ScriptBase {
  /** The code an unexpected failure answers: the spec's system error for it. */
  readonly systemError: SpecCode | ReportLoadFailure;
  /**
   * The code when the store cannot be reached at all (src/store/failures.ts);
   * unset: `systemError`. The spec gives `dbConnectionFailure` to every DNS
   * script (5 to 21) and no such code to auth.php or the audit scripts.
   */
  readonly storeDownError?: SpecCode;
  readonly params: Params;
}
export interface SessionScript extends ScriptBase {
  readonly session: true;
  run(call: Call): Promise<Reply>;
}
export interface LoginScript extends ScriptBase {
  readonly session: false;
  run(call: AnonymousCall): Promise<Reply>;
}
/** A shared script name that serves several operations (spec note on 14, 18-20). */
export interface AliasScript {
  readonly alias: (form: Form) => SessionScript | LoginScript;
  /** Every operation `alias` may choose, so the table still lists each one's params. */
  readonly operations: readonly (SessionScript | LoginScript)[];
}
export type Script = SessionScript | LoginScript | AliasScript;
