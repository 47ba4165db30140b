import { Option } from 'commander';
import { DEFAULTS } from '../config.ts';
import { parseDuration } from '../duration.ts';
import { checked } from './options.ts';

/** A whole number from `min` to `max`, for the per-account limits. */
const within = (min: number, max: number) => (t: string) => {
  if (!/^\d{1,6}$/.test(t) || Number(t) < min || Number(t) > max) throw new Error(`must be ${min} to ${max}`);
  return Number(t);
};

export const parseQueueLimit = within(1, 100_000);
export const parseScheduleLimit = within(0, 100_000);
export const parseMaxPorts = within(1, 65_535);

const limitOption = (flags: string, help: string, env: string, parse: (t: string) => number, def: number) =>
  new Option(flags, help).env(env).argParser(checked(parse)).default(def, String(def));

/*
 * `serve`'s flags for what one account may ask of the audits (issue 31;
 * docs/audits.md, "Limits"): audits queued or running, schedules held, and
 * ports in one `ports` list. Every process of a set should be given the
 * same: `worker` reads them from the environment (VIGIL_AUDIT_QUEUE_LIMIT,
 * VIGIL_AUDIT_MAX_PORTS), as it does the account limit.
 */
export const queueLimitOption = () =>
  limitOption(
    '--audit-queue-limit <n>',
    'audits of one account queued or running at once (more: auditQueueFull)',
    'VIGIL_AUDIT_QUEUE_LIMIT',
    parseQueueLimit,
    DEFAULTS.auditQueueLimit,
  );

export const scheduleLimitOption = () =>
  limitOption(
    '--schedule-limit <n>',
    'audit schedules one account may hold (0: none)',
    'VIGIL_SCHEDULE_LIMIT',
    parseScheduleLimit,
    DEFAULTS.scheduleLimit,
  );

export const maxPortsOption = () =>
  limitOption(
    '--audit-max-ports <n>',
    'ports one saRunAudit or saScheduleAudit `ports` list may name, counting repeats',
    'VIGIL_AUDIT_MAX_PORTS',
    parseMaxPorts,
    DEFAULTS.auditMaxPorts,
  );

/** The worker's view of the same limits: from the environment, as serve's flags read it. */
export function auditLimitsFromEnv(env = process.env): { auditQueueLimit?: number; auditMaxPorts?: number } {
  const out: { auditQueueLimit?: number; auditMaxPorts?: number } = {};
  const read = (name: string, parse: (t: string) => number) => {
    try {
      return parse(env[name]!);
    } catch (err) {
      throw new Error(`${name}: ${(err as Error).message}`);
    }
  };
  if (env.VIGIL_AUDIT_QUEUE_LIMIT) out.auditQueueLimit = read('VIGIL_AUDIT_QUEUE_LIMIT', parseQueueLimit);
  if (env.VIGIL_AUDIT_MAX_PORTS) out.auditMaxPorts = read('VIGIL_AUDIT_MAX_PORTS', parseMaxPorts);
  return out;
}

/**
 * VIGIL_SCHEDULE_POLL (no flag: tests and operators who know why): how
 * often each process looks for due schedules; src/audit/scheduler.ts.
 */
export function schedulePollMs(env = process.env): number | undefined {
  const text = env.VIGIL_SCHEDULE_POLL;
  if (!text) return undefined;
  const ms = parseDuration(text);
  if (ms < 50) throw new Error('VIGIL_SCHEDULE_POLL: at least 50ms');
  return ms;
}
