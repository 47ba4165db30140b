import { AUDIT_TYPE, EXCLUDE_DOS, PORTS } from './auth-audit.ts';
import type { Contract } from './schema.ts';

/**
 * Audit schedules (issue 31; INTERFACE.md "Audits: ports and schedules";
 * docs/audits.md, "Schedules"): extension scripts with saRunAudit's
 * transport, codes and system error.
 */
const SCHEDULE = {
  requires: ['session'],
  systemError: 'missingScanClientsRec',
  extension: true,
} as const;

export const scheduleContracts = {
  'saScheduleAudit.php': {
    ...SCHEDULE,
    requires: ['session', 'auditEntitlement'],
    summary:
      'extension: run an audit every day, week or month; checked now as saRunAudit checks a request, and again at each run',
    params: {
      audittype: AUDIT_TYPE,
      every: {
        required: true,
        kind: 'enum',
        values: ['day', 'week', 'month'],
        missingCode: 'syntaxInvalidSchedule',
        code: 'syntaxInvalidSchedule',
        checkedBy: 'table',
        doc: 'how often: the first run is one period after the schedule is made, at the same time of day (UTC); `month` keeps the day of the month (the 31st runs on the last day of shorter months). A norisk schedule must be `month` and runs every 30 days',
      },
      alert: {
        required: false,
        kind: 'enum',
        values: ['always', 'changes'],
        code: 'syntaxInvalidSchedule',
        checkedBy: 'table',
        doc: '`always` (the default): a mail after every run when `notification` is OCMP; `changes`: only when a finding is new or resolved since the previous run (a first run and a failed run always mail)',
      },
      ipaddr: {
        required: false,
        kind: 'ipPatterns',
        code: 'IPPermissionsProblem',
        checkedBy: 'domain',
        doc: "as saRunAudit's: addresses, CIDRs or IPv4 patterns, at most 256 addresses; absent or blank: the caller's address now",
      },
      excludedos: EXCLUDE_DOS,
      notification: {
        required: false,
        kind: 'text',
        checkedBy: 'table',
        doc: "`OCMP`: mail the account's address when a run ends (or is refused), as `alert` says",
      },
      ports: PORTS,
    },
    reply: { scheduleid: { type: 'string', doc: 'the new schedule' } },
    errors: [
      'IPPermissionsProblem',
      'syntaxInvalidPorts',
      'syntaxInvalidSchedule',
      'noriskAlreadyRun',
      'scheduleLimitReached',
    ],
  },
  'saGetScheduleList.php': {
    ...SCHEDULE,
    summary: "extension: the account's schedules with their next run",
    params: {},
    reply: {
      schedules: {
        type: 'array',
        optional: true,
        doc: 'absent when there are none',
        items: {
          type: 'object',
          fields: {
            scheduleid: { type: 'string' },
            ipaddr: { type: 'string', doc: 'the targets as scheduled' },
            audittype: { type: 'string' },
            every: { type: 'string', enum: ['day', 'week', 'month'] },
            alert: { type: 'string', enum: ['always', 'changes'] },
            nextrun: { type: 'string', doc: 'ISO 8601 UTC, e.g. `2026-11-30T12:00:00Z`' },
            lastscanuid: { type: 'string', doc: "the latest run's audit (saGetAuditList); empty before the first run" },
            ports: { type: 'string', doc: "extension: the ports asked for, as ranges; empty: the audit type's list" },
            excludedos: { type: 'boolean', doc: 'extension' },
            notification: { type: 'boolean', doc: 'extension: runs mail the account' },
          },
        },
      },
    },
    errors: [],
  },
  'saDeleteSchedule.php': {
    ...SCHEDULE,
    summary: 'extension: delete a schedule (its audits stay)',
    params: {
      scheduleid: {
        required: true,
        kind: 'text',
        code: 'noSuchSchedule',
        checkedBy: 'domain',
        doc: "a schedule id from saGetScheduleList; absent, malformed or not the account's: `noSuchSchedule`",
      },
    },
    reply: {},
    errors: ['noSuchSchedule'],
  },
} as const satisfies Record<string, Contract>;
