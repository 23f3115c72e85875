/**
 * "The database cannot be reached right now" as opposed to "this query is wrong". The first kind is a
 * 503 with Retry-After at the HTTP edge and a pause in the job workers; it goes away by itself when the
 * database is back (a restart, a failover, a dropped connection, a lock held too long).
 */

/** Socket-level failures: the server is down, restarting, or the network between us dropped. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ECONNABORTED',
]);

/** PostgreSQL SQLSTATEs of a server that is going away, starting, or full. */
const PG_UNAVAILABLE_STATES = new Set([
  '57P01', // admin_shutdown (also pg_terminate_backend)
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now (starting up, shutting down, in recovery)
  '53300', // too_many_connections
]);

/** pg and pg-pool report a lost or never-made connection by message only. */
const PG_CONNECTION_MESSAGES = [
  /^Connection terminated/, // "… unexpectedly", "… due to connection timeout"
  /^timeout exceeded when trying to connect/, // pg-pool connectionTimeoutMillis
  /is not queryable$/, // "Client was closed and is not queryable", "… connection error and is not queryable"
  /^Client has encountered a connection error/,
  /^Cannot use a pool after calling end/,
];

/**
 * SQLite result codes (better-sqlite3 gives the extended code, e.g. SQLITE_IOERR_WRITE): the lock is
 * still held after busy_timeout and withTx's retries, the file cannot be opened or written, the disk is
 * full. Corruption and constraint errors are not here: retrying does not help them.
 */
const SQLITE_UNAVAILABLE_PREFIXES = ['SQLITE_BUSY', 'SQLITE_LOCKED', 'SQLITE_IOERR', 'SQLITE_CANTOPEN', 'SQLITE_FULL'];

export function isDatabaseUnavailable(error: unknown): boolean {
  return check(error, 0);
}

function check(error: unknown, depth: number): boolean {
  if (error === null || typeof error !== 'object' || depth > 3) return false;
  const e = error as { code?: unknown; message?: unknown; errors?: unknown; cause?: unknown };
  const code = typeof e.code === 'string' ? e.code : '';
  if (NETWORK_CODES.has(code) || PG_UNAVAILABLE_STATES.has(code)) return true;
  // Class 08: connection exceptions (08000, 08003, 08006, 08001, 08004…).
  if (/^08[0-9A-Z]{3}$/.test(code)) return true;
  if (SQLITE_UNAVAILABLE_PREFIXES.some((p) => code === p || code.startsWith(`${p}_`))) return true;
  if (typeof e.message === 'string' && !code.startsWith('SQLITE') && PG_CONNECTION_MESSAGES.some((re) => re.test(e.message as string))) {
    return true;
  }
  // Node reports a refused dual-stack connect as an AggregateError of the attempts.
  if (Array.isArray(e.errors) && e.errors.some((inner) => check(inner, depth + 1))) return true;
  return e.cause !== undefined && check(e.cause, depth + 1);
}

/** Seconds a client is told to wait (Retry-After) while the database is unavailable. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;
