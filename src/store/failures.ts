/**
 * Whether an error says the store could not be reached, as opposed to a
 * query that failed on a reachable store. The spec has a code for the first
 * on every DNS script (`dbConnectionFailure`, "Failed to connect to the
 * database"); everything else stays the script's own system error.
 *
 * Seen with `pg` 8 while test/scale-db-restart.test.ts stops and starts
 * the cluster under a running serve: `connect ECONNREFUSED` (errno code),
 * "Connection terminated unexpectedly" (no code), SQLSTATE 57P01
 * "terminating connection due to administrator command", and 57P03 "the
 * database system is starting up" / "shutting down". SQLSTATE class 08 is
 * PostgreSQL's "connection exception" class. For SQLite the one such case
 * is a file that cannot be opened (SQLITE_CANTOPEN).
 */
const NET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ENOENT',
]);
const PG_SHUTDOWN = new Set(['57P01', '57P02', '57P03']);

function unreachable(err: { code?: unknown; message?: unknown }): boolean {
  const code = typeof err.code === 'string' ? err.code : '';
  if (NET_CODES.has(code) && /connect|socket|read|write/i.test(String(err.message))) return true;
  if (PG_SHUTDOWN.has(code) || /^08[0-9A-Z]{3}$/.test(code)) return true;
  if (code === 'SQLITE_CANTOPEN') return true;
  return /^Connection terminated|timeout exceeded when trying to connect/i.test(String(err.message ?? ''));
}

export function isStoreUnreachable(err: unknown): boolean {
  // Kysely and our own code may wrap the driver's error: follow `cause` a few steps.
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    if (unreachable(e as { code?: unknown; message?: unknown })) return true;
  }
  return false;
}
