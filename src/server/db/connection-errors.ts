import { DatabaseThreadStoppedError } from './pglite-thread.js';

/** Socket errors of a database server that is gone, restarting or out of reach. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ECONNABORTED',
]);

/**
 * SQLSTATEs of a server going away or not yet back: class 08 (connection exception), admin_shutdown (57P01, `pg_ctl
 * stop -m fast`), crash_shutdown (57P02, another backend crashed or `-m immediate`), cannot_connect_now (57P03: the
 * server is starting up or shutting down).
 */
const SERVER_GONE = /^(08[0-9A-Z]{3}|57P0[123])$/;

/** What the pg driver says when the socket under a client closed or a new one could not be made in time. */
const DRIVER_GONE =
  /Connection terminated|not queryable|connection timeout|Client has encountered a connection error|the database system is (starting up|shutting down|in recovery mode)/i;

/**
 * Whether `error` says the database itself is out of reach (stopped, restarting, the network gone), rather than that a
 * statement was wrong: the database is then taken for down until a probe connects again (database-health.ts).
 */
export function isConnectionLost(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false;
  const { code, message, errors } = error as { code?: unknown; message?: unknown; errors?: unknown };
  if (typeof code === 'string' && (NETWORK_CODES.has(code) || SERVER_GONE.test(code))) return true;
  if (typeof message === 'string' && DRIVER_GONE.test(message)) return true;
  // Connecting to a name with several addresses fails with one error per address.
  return Array.isArray(errors) && errors.some(isConnectionLost);
}

/** The pool had no connection free for the whole wait (pg-pool's `connectionTimeoutMillis`): busy, not down. */
const POOL_WAIT = /timeout exceeded when trying to connect/i;

/**
 * Whether a request that failed with `error` should be answered 503 (try again shortly) rather than 500: the database
 * is out of reach, its pool busy, or the embedded database's thread stopped and is starting again (pglite-thread.ts).
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (isConnectionLost(error) || error instanceof DatabaseThreadStoppedError) return true;
  const message = (error as { message?: unknown } | null)?.message;
  return typeof message === 'string' && POOL_WAIT.test(message);
}
