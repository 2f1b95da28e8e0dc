/**
 * Whether a failure means the database could not be reached, not that the work itself was wrong:
 * the connection was refused or lost, the server is shutting down or not yet accepting
 * connections (SQLSTATE class 08, 57P01-57P03), it has no connection slot left (53300), it ended
 * the session (any FATAL: e.g. the database not accepting connections), or the pool could not
 * hand out a connection in time. The same request can succeed once the database is
 * back, so HTTP answers it 503 with Retry-After, not 500.
 */
const UNAVAILABLE_STATES = new Set(['57P01', '57P02', '57P03', '53300']);

/** The pg client and pool's own errors, which carry no SQLSTATE */
const CONNECTION_MESSAGE = /connection terminated|not queryable|connection timeout|timeout exceeded when trying to connect|pool after calling end|driver not connected|connection is not established/i;

export interface ErrorLike {
  code?: unknown;
  severity?: unknown;
  syscall?: unknown;
  message?: unknown;
  cause?: unknown;
  driverError?: unknown;
  errors?: unknown;
}

/** A connection failure told by the socket or the pg client rather than by the server (no SQLSTATE). */
export function isSocketOrClientFailure(error: ErrorLike): boolean {
  if (typeof error.syscall === 'string' || (typeof error.code === 'string' && /^E[A-Z]+$/.test(error.code))) return true;
  return typeof error.message === 'string' && CONNECTION_MESSAGE.test(error.message);
}

/** The errors `error` wraps (TypeORM's driverError, a cause, an AggregateError's list), one level down. */
export function wrappedErrors(error: ErrorLike): unknown[] {
  return [error.driverError, error.cause, ...(Array.isArray(error.errors) ? error.errors : [])];
}

export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (depth > 5 || typeof error !== 'object' || error === null) return false;
  const e = error as ErrorLike;
  if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)) return e.code.startsWith('08') || UNAVAILABLE_STATES.has(e.code) || e.severity === 'FATAL';
  if (isSocketOrClientFailure(e)) return true;
  return wrappedErrors(e).some((inner) => isDatabaseUnavailable(inner, depth + 1));
}
