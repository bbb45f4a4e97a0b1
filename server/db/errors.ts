// What a failed statement means, whichever driver ran it (postgres.js or PGlite; Drizzle wraps
// both drivers' errors, so the code may sit on a cause).

/** PostgreSQL's unique_violation (SQLSTATE 23505): the row would repeat a unique value. */
export function isUniqueViolation(error: unknown): boolean {
  for (let e: unknown = error; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === '23505') return true;
  }
  return false;
}
