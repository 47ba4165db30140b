import { commandLogger } from '../log-format.ts';

/**
 * One log line on stderr per admin action, in the form serve's logs take
 * (pino JSON, or pretty when VIGIL_LOG_FORMAT asks), so that one log
 * collector keeps the operator's changes next to the service's events.
 * Callers pass facts only: never a password or an API key.
 *
 * An operator at a terminal has just read the command's result; the same
 * facts again as a log line are noise (issue 29), so a TTY on stderr gets
 * none unless VIGIL_LOG_FORMAT names a format. A pipe, a file, journald or
 * a cron job's mail still get the line.
 */
export async function adminEvent(msg: string, facts: Record<string, unknown>): Promise<void> {
  if (!adminLogWanted()) return;
  const logger = await commandLogger();
  logger.info({ admin: true, ...facts }, msg);
  logger.flush?.();
}

/** Whether an admin command writes its log line: not to a terminal, unless a format is asked for. */
export function adminLogWanted(
  stderrIsTTY = process.stderr.isTTY === true,
  format = process.env.VIGIL_LOG_FORMAT,
): boolean {
  return !stderrIsTTY || format === 'json' || format === 'pretty';
}

/** Which settings an `account add|update` changed: their names, never their values (the password among them). */
export function changedSettings(s: object): string[] {
  return Object.keys(s);
}
