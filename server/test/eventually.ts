// The one way tests (and the bench) wait for something to become true: poll, and fail naming
// what never happened. Wait for a positive signal this way, never "sleep, then assert nothing".

/** How often `eventually` reads again. */
export const EVENTUALLY_POLL_MS = 20;

/** Reads until `check` passes, or fails naming `what` after `timeoutMs`; returns the value that passed. */
export async function eventually<T>(read: () => Promise<T> | T, check: (value: T) => boolean, what: string, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (check(value)) return value;
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what} (last: ${JSON.stringify(value)})`);
    await new Promise((resolve) => setTimeout(resolve, EVENTUALLY_POLL_MS));
  }
}

/** `eventually` for a plain condition. */
export async function until(check: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
  await eventually(check, (ok) => ok, what, timeoutMs);
}
