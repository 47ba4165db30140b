/**
 * The error catalogue: every code the API can answer, defined once.
 *
 * Script codes are the spec's own (api-spec.md section 7), spelled exactly.
 * Transport codes are Vigil's, for requests that never reach a script
 * (unknown path, wrong method, unreadable body); docs/api.md lists them.
 */

export const SPEC_CODES = [
  // every endpoint
  'notSSL',
  'invalid apikey format',
  'invalid apikey - not in db',
  'sessionTimeout',
  'sessionAuthenticationFailure',
  // every DNS endpoint
  'dbConnectionFailure',
  'dnsEntitlementsOrCreditsMissing',
  // auth.php
  'missing credentials',
  'invalidLogin',
  'sysErrEntitlementLoad',
  'tokenCreation',
  'sysErrdoLogin',
  // audits
  'missingAuditType',
  'invalidAuditType',
  'IPPermissionsProblem',
  'missingScanClientsRec',
  'notEntitled',
  'noriskAlreadyRun',
  // DNS
  'dnsDomainRetrievalFailure',
  'noSuchDomain',
  'mustAcceptAUP',
  'syntaxInvalidDomain',
  'syntaxInvalidDomainType',
  'unableToAddSystem',
  'unspecifiedError',
  'unableToAddDuplicate',
  'domainNotDeleted',
  'syntaxInvalidSeq',
  'recordNotDeleted',
  'syntaxInvalidHostname',
  'syntaxInvalidIP',
  'syntaxInvalidCNAME',
  'syntaxInvalidMX',
  'syntaxInvalidPriority',
  'syntaxInvalidSubdomain',
  'syntaxInvalidFlag',
  'syntaxInvalidTag',
  'syntaxInvalidTxtname',
  'syntaxInvalidTxtdata',
  'syntaxInvalidSrvc',
  'syntaxInvalidProt',
  'syntaxInvalidTarget',
  'syntaxInvalidWeight',
  'syntaxInvalidPort',
  'missingInput',
  'syntaxInvalidTTL',
  'syntaxInvalidAdmin',
  'syntaxInvalidMasters',
  'syntaxInvalidAllowtransferacl',
  'syntaxInvalidNotify',
  'syntaxInvalidAlsoNotify',
  'logicAlsoNotifyRequiresNotify',
] as const;

/** Codes for requests that are not a script call at all (docs/api.md). */
export const TRANSPORT_CODES = {
  unknownScript: 404,
  methodNotAllowed: 405,
  requestTooLarge: 413,
  unsupportedMediaType: 415,
  malformedRequest: 400,
  /** The request (headers and body) did not arrive within --request-timeout. */
  requestTimeout: 408,
  /** The request's headers are over 16 KiB. */
  headersTooLarge: 431,
} as const;

/**
 * Vigil's own script codes, for what the spec leaves open (docs/api.md,
 * "Vigil's own codes"): answered only by extension scripts, never by a spec script.
 */
export const EXTENSION_CODES = [
  /** A form field the extension script does not take (a spec script only logs it). */
  'unknownParameter',
  /** dnsSetDNSSEC.php: `enable` is neither YES nor NO. */
  'syntaxInvalidEnable',
  /**
   * dnsSetDNSSEC.php: `nsec3` is given but is neither YES nor NO. Its own
   * code, as every other field has (syntaxInvalid + field), so a client can
   * tell which of the two fields to fix.
   */
  'syntaxInvalidNsec3',
  /** DNSSEC on a slave domain: its masters sign it (or not). */
  'dnssecMasterOnly',
  /** A KSK roll on a domain that is not signed yet (signing off, or its first cycle has not run). */
  'dnssecNotEnabled',
  /**
   * A CNAME beside other data at its name, or other data beside a CNAME
   * (RFC 2181 10.1), at add or import. Answered by the spec's add scripts
   * too: the spec has no code for it, and `unspecifiedError` would not tell
   * the user what to change (docs/api.md).
   */
  'cnameConflict',
  // Fields of the record types beyond the spec (INTERFACE.md "Record types beyond the spec"; src/dns/rr/).
  'syntaxInvalidKeytag',
  'syntaxInvalidAlgorithm',
  'syntaxInvalidDigesttype',
  'syntaxInvalidDigest',
  'syntaxInvalidUsage',
  'syntaxInvalidSelector',
  'syntaxInvalidMatchingtype',
  'syntaxInvalidData',
  'syntaxInvalidFptype',
  'syntaxInvalidFingerprint',
  'syntaxInvalidParams',
  'syntaxInvalidOrder',
  'syntaxInvalidPreference',
  'syntaxInvalidFlags',
  'syntaxInvalidService',
  'syntaxInvalidRegexp',
  'syntaxInvalidReplacement',
  // Audits: ports and schedules (INTERFACE.md "Audits: ports and schedules"; docs/audits.md, issue 31).
  /**
   * saRunAudit / saScheduleAudit: `ports` is not a list of TCP ports and
   * ranges (an empty item, a reversed range, 0, a port above 65535) or
   * counts more ports than the server allows (--audit-max-ports, 65,535 at most).
   */
  'syntaxInvalidPorts',
  /** saScheduleAudit: `every` is not day, week or month, or `alert` not always or changes. */
  'syntaxInvalidSchedule',
  /** saDeleteSchedule: the id names no schedule of the caller's account. */
  'noSuchSchedule',
  /** saScheduleAudit: the account holds --schedule-limit schedules already. */
  'scheduleLimitReached',
  /**
   * saRunAudit (and each scheduled run): the account has --audit-queue-limit
   * audits queued or running already. Answered by the spec's saRunAudit too:
   * no spec code means "too many", and one account must not fill the queue
   * (issue 31 measured 200 audits queued in 0.4 s) (docs/audits.md).
   */
  'auditQueueFull',
] as const;

export type SpecCode = (typeof SPEC_CODES)[number];
export type ExtensionCode = (typeof EXTENSION_CODES)[number];
/** reportLoadFailure carries a variable part: `reportLoadFailure[<code>]`. */
export type ReportLoadFailure = `reportLoadFailure[${string}]`;
export type TransportCode = keyof typeof TRANSPORT_CODES;
export type ErrorCode = SpecCode | ReportLoadFailure | TransportCode | ExtensionCode;

/**
 * A failure that the API answers with a code; never carries free text.
 * `logFields` say whom it concerned, for the transport's log line (a failed
 * login's account); they never hold a secret and never reach the reply.
 */
export class ApiError extends Error {
  readonly code: ErrorCode;

  constructor(
    code: ErrorCode,
    readonly logFields: Readonly<Record<string, string>> = {},
  ) {
    // An answer, not a fault: no stack trace to capture (it is the costly part of a throw).
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(code);
    Error.stackTraceLimit = limit;
    this.code = code;
    this.name = 'ApiError';
  }
}

/**
 * A refusal the caller may try again after a delay (login throttling). The
 * domain says only how long; the transport turns it into its own signal
 * (HTTP 429 and Retry-After). `logFields` name who was throttled, for the
 * log line; they never hold a secret.
 */
export class RetryLaterError extends ApiError {
  constructor(
    code: ErrorCode,
    readonly retryAfterSeconds: number,
    logFields: Readonly<Record<string, string>> = {},
  ) {
    super(code, logFields);
    this.name = 'RetryLaterError';
  }
}

export function fail(code: ErrorCode): never {
  throw new ApiError(code);
}

export function reportLoadFailure(reason: string): ReportLoadFailure {
  return `reportLoadFailure[${reason}]`;
}

/**
 * Faults inside the service that no reply may name: the spec gives
 * dnsPublish.php and dnsBuildZone.php no code but `unspecifiedError` for a
 * system error (api-spec.md section 7), so the script answers that, and the
 * fault's code goes to the log line ("script failed", `err.code`) and to the
 * metrics (docs/operations.md, "Worker threads").
 */
export const FAULT_CODES = [
  /** A job on a worker thread (a publish's checks, a signing) threw an untyped error: that thread is replaced. */
  'workerThreadFailed',
  /** A worker thread died (out of memory, a crash) with the job in flight. */
  'workerThreadLost',
] as const;
export type FaultCode = (typeof FAULT_CODES)[number];

/** A fault with its typed code and where it happened; never an ApiError, so the script answers its system error. */
export class FaultError extends Error {
  constructor(
    readonly code: FaultCode,
    /** Which part failed (`publish`, `sign`): a log field, never free text. */
    readonly thread: string,
    options?: ErrorOptions,
  ) {
    super(code, options);
    this.name = 'FaultError';
  }
}
