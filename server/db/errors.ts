// What a failed statement means, whichever driver ran it (postgres.js or PGlite; Drizzle wraps
// both drivers' errors, so the code may sit on a cause).

/** PostgreSQL's unique_violation (SQLSTATE 23505): the row would repeat a unique value. */
export function isUniqueViolation(error: unknown): boolean {
  for (let e: unknown = error; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === '23505') return true;
  }
  return false;
}

/** PostgreSQL's SQLSTATEs for "not reachable now": connection exceptions, shutdown or start-up, too many clients. */
const AWAY_SQLSTATE = /^(08...|57P0[1-3]|53300)$/;
const AWAY_NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH']);
/** node-postgres says these in words only (no code). */
const AWAY_MESSAGE = /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection is closed|Client was closed/i;

/**
 * The database could not be reached (down, restarting, shutting down): what was asked did not
 * happen, or did and its answer was lost, and asking again once it is back is the way on.
 * `notOurs` stops the look at an error from elsewhere whose network codes look alike (a Telegram
 * request's), wherever it sits in the chain of causes.
 */
export function isConnectionLost(error: unknown, notOurs: (error: object) => boolean = () => false): boolean {
  for (let at: unknown = error, depth = 0; at && typeof at === 'object' && depth < 5; at = (at as { cause?: unknown }).cause, depth++) {
    if (notOurs(at)) return false;
    const { code, message } = at as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && (AWAY_SQLSTATE.test(code) || AWAY_NETWORK_CODES.has(code))) return true;
    if (typeof message === 'string' && AWAY_MESSAGE.test(message)) return true;
  }
  return false;
}

/**
 * An error as it may be logged: Drizzle's query errors carry the bound parameters (password
 * hashes, token hashes, e-mails) in their message; keep the SQL and the driver's reason only.
 */
export function loggableError(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { message: String(error) };
  const params = (error as { params?: unknown }).params;
  const query = (error as { query?: unknown }).query;
  const cause = (error as { cause?: unknown }).cause;
  const wrapsQuery = params !== undefined && typeof query === 'string' && error.message.startsWith('Failed query:');
  const safe: Record<string, unknown> = {
    type: error.name,
    message: wrapsQuery ? `Failed query: ${query}` : error.message,
    // Only the frames: the stack's head repeats the (possibly multi-line) message.
    stack: error.stack
      ?.split('\n')
      .filter((line) => line.startsWith('    at '))
      .join('\n'),
  };
  const code = (error as { code?: unknown }).code;
  if (code !== undefined) safe.code = code;
  if (cause !== undefined && cause !== error) safe.cause = loggableError(cause);
  return safe;
}
