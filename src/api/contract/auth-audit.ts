import { SCANINFO } from './audit-report.ts';

/** saRunAudit's and saScheduleAudit's `ports` (INTERFACE.md "Audits: ports and schedules"). */
/** saRunAudit's audit type, which a schedule takes too (schedules.ts). */
export const AUDIT_TYPE = {
  required: true,
  kind: 'enum',
  values: ['advanced', 'standard', 'norisk', 'desktop', 'basic'],
  missingCode: 'missingAuditType',
  code: 'invalidAuditType',
  checkedBy: 'table',
  doc: 'the audit type',
} as const;

/** saRunAudit's `excludedos`, which a schedule takes too. */
export const EXCLUDE_DOS = {
  required: false,
  kind: 'presence',
  checkedBy: 'table',
  doc: 'present with any value: the denial-of-service checks are left out',
} as const;

export const PORTS = {
  required: false,
  kind: 'text',
  code: 'syntaxInvalidPorts',
  checkedBy: 'domain',
  doc: "extension: TCP ports and ranges to scan instead of the audit type's list, e.g. `22,80,443,8000-8100`; at most 65,535 counting repeats (or the server's --audit-max-ports); the checks stay the type's. An empty item, a reversed range, 0 or a port above 65535 answers `syntaxInvalidPorts`",
} as const;

/** auth.php and the audit scripts (spec 1-4). */
export const authAuditContracts = {
  'auth.php': {
    summary: 'log in: API key, userid and password give a session token',
    requires: [],
    params: {
      // Checked by the domain: the spec answers the API key's codes before `missing credentials`.
      userid: {
        required: true,
        kind: 'text',
        code: 'missing credentials',
        checkedBy: 'domain',
        doc: "the account's user id",
      },
      password: { required: true, kind: 'text', code: 'missing credentials', checkedBy: 'domain', doc: 'its password' },
    },
    reply: {
      sessionToken: { type: 'string', doc: 'valid for --session-ttl (24 h); send it with the key on every other call' },
    },
    errors: ['invalidLogin', 'tokenCreation'],
    systemError: 'sysErrdoLogin',
  },
  'saGetAuditList.php': {
    summary: "list the account's audits, newest first",
    requires: ['session'],
    params: {},
    reply: {
      scancount: { type: 'number' },
      scans: {
        type: 'array',
        optional: true,
        doc: 'absent when there are none',
        items: {
          type: 'object',
          fields: {
            scanuid: { type: 'string' },
            folder: { type: 'string', doc: 'queued, running, done or failed' },
            hostip: { type: 'string' },
            time_end: { type: 'string' },
            time_queued: { type: 'string' },
            time_start: { type: 'string' },
            type: { type: 'string' },
            progress: {
              type: 'object',
              optional: true,
              doc: 'extension: while queued or running',
              fields: {
                phase: { type: 'string', enum: ['queued', 'scanning', 'detecting', 'checking', 'reporting'] },
                portsScanned: { type: 'number' },
                portsTotal: { type: 'number' },
                checksDone: { type: 'number' },
                checksTotal: { type: 'number' },
              },
            },
            statusText: {
              type: 'string',
              optional: true,
              doc: "extension: a failed audit's reason, `failed: <code>`; a scheduled run refused at its start gives the code saRunAudit would have answered (`failed: notEntitled`)",
            },
            scheduleid: {
              type: 'string',
              optional: true,
              doc: 'extension: the schedule whose run it is (saGetScheduleList)',
            },
          },
        },
      },
    },
    errors: [],
    systemError: 'missingScanClientsRec',
  },
  'saGetAuditReport.php': {
    summary: "one audit's report",
    requires: ['session'],
    params: {
      // reportLoadFailure[missingScanuid] / [invalidScanuid]: a variable code, the audit service gives it.
      scanuid: {
        required: true,
        kind: 'seq',
        checkedBy: 'domain',
        doc: 'an audit id from the list: a positive decimal number, no leading zeros',
      },
    },
    reply: { scaninfo: SCANINFO },
    errors: ['reportLoadFailure[<reason>]'],
    systemError: 'reportLoadFailure[system]',
  },
  'saRunAudit.php': {
    summary: 'queue an audit of addresses the account may audit',
    requires: ['session', 'auditEntitlement'],
    params: {
      audittype: AUDIT_TYPE,
      ipaddr: {
        required: false,
        kind: 'ipPatterns',
        code: 'IPPermissionsProblem',
        checkedBy: 'domain',
        doc: "comma-separated IPv4/IPv6 addresses, CIDRs or IPv4 patterns with `*` or `a-b` in any octet; at most 256 addresses; absent or blank: the caller's address",
      },
      excludedos: EXCLUDE_DOS,
      notification: {
        required: false,
        kind: 'text',
        checkedBy: 'table',
        doc: "`OCMP`: mail the account's address when the audit ends",
      },
      ports: PORTS,
    },
    reply: { scanuid: { type: 'string', doc: "extension: the queued audit's id, as in the list" } },
    errors: ['IPPermissionsProblem', 'syntaxInvalidPorts', 'noriskAlreadyRun', 'auditQueueFull'],
    systemError: 'missingScanClientsRec',
  },
} as const;
