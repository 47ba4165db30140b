import type { ColumnType, Generated } from 'kysely';

/**
 * Table shapes. Times are epoch milliseconds in integer columns (bigint on
 * PostgreSQL); booleans are 0/1 integers so both dialects read the same.
 */
export interface AccountsTable {
  id: Generated<number>;
  userid: string;
  password_hash: string;
  apikey_hash: string;
  email: string | null;
  enabled: number;
  /** Comma list of audit types the account is entitled to. */
  audit_types: string;
  /** Comma list of address patterns / CIDRs the account may audit. */
  allow_ip: string;
  /** null: no DNS subscription. */
  dns_credits: number | null;
  dns_expiry: number | null;
  created_at: number;
}

export interface SessionsTable {
  token_hash: string;
  account_id: number;
  /** The key the token was made with: a token works only with that key. */
  apikey_hash: string;
  created_at: number;
  expires_at: number;
}

/** What a login_throttle row counts (src/accounts/throttle.ts, docs/security.md). */
export type ThrottleScope = 'pair' | 'user' | 'address';

export interface LoginThrottleTable {
  scope: ThrottleScope;
  /** The account's userid; '' on `address` rows. */
  userid: string;
  /** The client address (IPv6: its /64); '' on `user` rows. */
  address: string;
  /** Failed (or still unanswered) attempts in the current window. */
  failures: number;
  last_failure: number;
  /** No attempt is checked before this time; 0 when not locked. */
  locked_until: number;
  /** `pair` rows: last successful login from this address (a known address). */
  last_success: number | null;
}

export interface DomainsTable {
  /** The domain's `seq`. */
  id: Generated<number>;
  account_id: number;
  /** Lower-case A-label form, no trailing dot. */
  name: string;
  type: 'master' | 'slave';
  /** Spec section 3: 0 Unvalidated, 1 Configuration Errors, 2 Waiting, 3 Active. */
  state: number;
  /** 1 until the operator releases a new domain (`admin domain release`). */
  on_hold: number;
  /** SOA serial of the last successful publish (YYYYMMDDnn), 0 before. */
  serial: number;
  created_at: number;
  /** Raised with every write of the domain's records (src/dns/zone-store/records.ts): the records reply cache's key. */
  records_version: Generated<number>;
  /** 1: signed with DNSSEC from the next distribution cycle on (dnsSetDNSSEC.php). */
  dnssec: Generated<number>;
  /** 1: denial of existence by NSEC3 (RFC 9276's parameters), 0: NSEC (dnsSetDNSSEC.php `nsec3`). */
  dnssec_nsec3: Generated<number>;
}

/**
 * A DNSSEC key of a domain (src/dns/zone-store/dnssec-keys.ts owns the
 * table; src/dns/dnssec/keyring.ts decides its times). A key is in the
 * DNSKEY set from created_at to remove_at and signs from active_at to
 * retire_at; null: not scheduled.
 */
export interface DnssecKeysTable {
  id: Generated<number>;
  domain_id: number;
  role: 'ksk' | 'zsk';
  algorithm: number;
  tag: number;
  /** The DNSKEY public key field, base64: the API shows DNSKEY and DS without opening the private half. */
  public_key: string;
  /** PKCS#8, sealed with the key-encryption key (src/dns/dnssec/seal.ts), bound to `zone/role/tag`. */
  sealed: string;
  created_at: number;
  active_at: number;
  retire_at: number | null;
  remove_at: number | null;
}

export interface RecordsTable {
  /** The record's `seq`. */
  id: Generated<number>;
  domain_id: number;
  type: string;
  /** The record type's stored data, JSON. */
  data: string;
  /**
   * The owner name on the wire (lower case, no trailing dot), so that the
   * record set of an add is found by index (src/dns/limits.ts). Null on
   * rows written before it existed or by paths that never need it; the
   * limits check fills those in when it meets them.
   */
  owner: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface ZonePublicationsTable {
  zone: string;
  /** null once the domain is deleted: the next cycle removes the zone. */
  domain_id: number | null;
  served_serial: number | null;
  served_snapshot: string | null;
  pending_serial: number | null;
  pending_snapshot: string | null;
  removing: number;
  changed_at: number;
  /** The served version is signed and must be signed again by then (epoch ms); null: unsigned. */
  served_resign_at: ColumnType<number | null, number | null | undefined, number | null>;
  /** The same for the pending version. */
  pending_resign_at: ColumnType<number | null, number | null | undefined, number | null>;
  /** Raised at each write of the served version, in commit order: what a name server's reload asks for. */
  served_seq: ColumnType<number | null, number | null | undefined, number | null>;
}

export type AuditState = 'queued' | 'running' | 'done' | 'failed';

export interface AuditsTable {
  /** The audit's `scanuid`. */
  id: Generated<number>;
  account_id: number;
  type: string;
  /** The address patterns as requested, normalized (comma list). */
  hostip: string;
  excludedos: number;
  /** 1: mail the account when the audit ends (notification=OCMP). */
  notification: number;
  state: AuditState;
  /** Why an audit failed (a short code, docs/audits.md). */
  reason: string | null;
  /** Times a worker has taken it; a restart past the limit fails it. */
  attempts: Generated<number>;
  lease_owner: string | null;
  lease_until: number | null;
  queued_at: number;
  started_at: number | null;
  ended_at: number | null;
  /** The finished report's JSON (`scaninfo`); never changes once written. */
  report: string | null;
  notified_at: number | null;
  /**
   * What the audit covered, JSON `AuditCoverage` (src/audit/baseline.ts); null before migration 008 and until
   * it ends.
   */
  coverage: ColumnType<string | null, string | null | undefined, string | null>;
  /** While queued or running: JSON `AuditProgress` (src/audit/progress.ts), written at most about once a second. */
  progress: ColumnType<string | null, string | null | undefined, string | null>;
  /** The TCP ports asked for (saRunAudit `ports`, normalized ranges); null: the type's list (migration 011). */
  ports: ColumnType<string | null, string | null | undefined, string | null>;
  /** The schedule that started it; null: saRunAudit, or the schedule was deleted since. */
  schedule_id: ColumnType<number | null, number | null | undefined, number | null>;
  /** A scheduled audit's mail: 'sent', or 'held' (alert=changes and nothing changed); null: not decided yet. */
  alert_mail: ColumnType<'sent' | 'held' | null, 'sent' | 'held' | null | undefined, 'sent' | 'held' | null>;
}

/** An audit request kept with its cadence (saScheduleAudit; src/audit/schedule-store.ts owns the table). */
export interface AuditSchedulesTable {
  /** The schedule's `scheduleid`. */
  id: Generated<number>;
  account_id: number;
  type: string;
  /** The address patterns as requested, normalized (comma list), or the caller's address when none was given. */
  hostip: string;
  excludedos: number;
  /** Normalized `ports` ranges; null: the type's list. */
  ports: string | null;
  /** 1: mail the account when a run ends (notification=OCMP). */
  notification: number;
  every: 'day' | 'week' | 'month';
  alert: 'always' | 'changes';
  /** When it was made (epoch ms): runs fall on this time of day, weekday or day of the month. */
  created_at: number;
  /** When it runs next (epoch ms); moved on by the process that starts the run. */
  next_run_at: number;
  /** 1: `admin schedule run` asked for a run now, whatever next_run_at says. */
  run_requested: Generated<number>;
  /** The audit its latest run made (its `lastscanuid`); null before the first run. */
  last_audit_id: number | null;
}

export interface AuditTargetsTable {
  audit_id: number;
  address: string;
  /** Order of the address in the expanded request. */
  position: number;
}

/** One row (id 1): the set's last distribution cycle (src/store/cycle-schedule.ts). */
export interface DistributionScheduleTable {
  id: number;
  /** Number of the last cycle claimed by any process; a claim moves it by one. */
  cycle: number;
  /** When that cycle was claimed (epoch ms): the set's schedule counts from here. */
  last_at: number;
  /** Raised by a cycle that removed zones: served_seq numbering goes on above it (migration 013). */
  served_seq_floor: ColumnType<number, number | undefined, number>;
}

export interface Database {
  accounts: AccountsTable;
  sessions: SessionsTable;
  login_throttle: LoginThrottleTable;
  domains: DomainsTable;
  records: RecordsTable;
  zone_publications: ZonePublicationsTable;
  dnssec_keys: DnssecKeysTable;
  audits: AuditsTable;
  audit_targets: AuditTargetsTable;
  audit_schedules: AuditSchedulesTable;
  distribution_schedule: DistributionScheduleTable;
}
