import { commandLogger } from '../log-format.ts';

/**
 * One log line on stderr per admin action, in the form serve's logs take
 * (pino JSON, or pretty on a terminal), so that one log collector keeps the
 * operator's changes next to the service's events. Callers pass facts
 * only: never a password or an API key.
 */
export async function adminEvent(msg: string, facts: Record<string, unknown>): Promise<void> {
  const logger = await commandLogger();
  logger.info({ admin: true, ...facts }, msg);
  logger.flush?.();
}

/** Which settings an `account add|update` changed: their names, never their values (the password among them). */
export function changedSettings(s: object): string[] {
  return Object.keys(s);
}
