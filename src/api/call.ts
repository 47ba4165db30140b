import type { AccountRow } from '../accounts/accounts.ts';
import type { Sessions } from '../accounts/sessions.ts';
import type { Clock } from '../clock.ts';
import type { Config } from '../config.ts';
import { CONTRACTS, type Contract, type ParamSpec, type ScriptName } from './contract/index.ts';
import type { Db } from '../store/db.ts';
import type { Form } from './form.ts';
import type { Domains } from '../dns/domains.ts';
import type { Publisher } from '../dns/publish.ts';
import type { ZoneEdits } from '../dns/zone-edits.ts';
import type { DnssecSettings } from '../dns/dnssec-settings.ts';
import type { Audits } from '../audit/service.ts';
import type { Schedules } from '../audit/schedules.ts';
import type { Logger } from 'pino';
import type { DistributionSchedule } from '../dns/cycle-loop.ts';
import type { ZoneHealth } from '../dns/health/service.ts';

/** The domain services a script may call; built once by app.ts. */
export interface Services {
  readonly config: Config;
  readonly clock: Clock;
  readonly db: Db;
  readonly sessions: Sessions;
  readonly dns: DnsServices;
  readonly audits: Audits;
  /** Audit schedules (saScheduleAudit, saGetScheduleList, saDeleteSchedule; issue 31). */
  readonly schedules: Schedules;
  /** For event lines of the scripts (publish); never given a secret. */
  readonly logger: Logger;
}

export interface DnsServices {
  readonly domains: Domains;
  readonly edits: ZoneEdits;
  readonly publisher: Publisher;
  /** DNSSEC per domain (extension scripts, issue 19). */
  readonly dnssec: DnssecSettings;
  /** When this server distributes next: what "when is my change live?" answers. */
  readonly schedule: DistributionSchedule;
  /** Zone health (dnsCheckDomain.php, the publish hint; issue 30). */
  readonly health: ZoneHealth;
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

/** A script's parameters as the table declares them (src/api/contract/schema.ts). */
export type Params = Readonly<Record<string, ParamSpec>>;

/**
 * Params from plain name lists, for an entry not yet given kinds: text,
 * checked by the domain (what every entry was before issue 16).
 */
export function params(required: readonly string[], optional: readonly string[] = []): Params {
  const spec = (req: boolean): ParamSpec => ({ required: req, kind: 'text', checkedBy: 'domain', doc: '' });
  return Object.freeze(
    Object.fromEntries([...required.map((n) => [n, spec(true)]), ...optional.map((n) => [n, spec(false)])]),
  );
}

/**
 * A served script: its declarations (src/api/contract/, which the API
 * checks before `run`, see src/api/validate.ts) and the domain call that does the work.
 */
export interface SessionScript extends Contract {
  readonly session: true;
  run(call: Call): Promise<Reply>;
}
export interface LoginScript extends Contract {
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

/** A session script: the contract of `name` and its `run`. */
export function sessionScript(name: ScriptName, run: (call: Call) => Promise<Reply>): SessionScript {
  return Object.freeze({ ...(CONTRACTS[name] as Contract), session: true, run });
}
