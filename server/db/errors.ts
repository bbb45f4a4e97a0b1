// What a failed statement means, whichever driver ran it (postgres.js or PGlite; Drizzle wraps
// both drivers' errors, so the code may sit on a cause).

/** PostgreSQL's unique_violation (SQLSTATE 23505): the row would repeat a unique value. */
export function isUniqueViolation(error: unknown): boolean {
  for (let e: unknown = error; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === '23505') return true;
  }
  return false;
}

/** SQLSTATEs of a server that is away for a while: connection exceptions (08…) and a shutdown or start-up (57P0…). */
const AWAY_STATES = /^(08|57P0[1-3])/;
const AWAY_NETWORK = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
/** node-postgres's own words for a connection that ended under it, and for a pool that could not connect in time. */
const AWAY_MESSAGES = /Connection terminated|Client has encountered a connection error|timeout exceeded when trying to connect|Client was closed/i;

/** The statement failed because the database could not be reached (not because of what it said): worth trying again later. */
export function isConnectionLost(error: unknown): boolean {
  for (let e: unknown = error; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && (AWAY_NETWORK.has(code) || AWAY_STATES.test(code))) return true;
    if (typeof message === 'string' && AWAY_MESSAGES.test(message)) return true;
  }
  return false;
}
