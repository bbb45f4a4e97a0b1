// The one way tests (and the bench) wait for something to become true: poll, and fail naming
// what never happened. Wait for a positive signal this way, never "sleep, then assert nothing".

/** How often `eventually` reads again. */
export const EVENTUALLY_POLL_MS = 20;

export interface EventuallyOptions {
  timeoutMs?: number;
  /** How often to read again (a read over HTTP may want it slower). */
  pollMs?: number;
  /** Asked after each read that did not pass: a message fails the wait at once (the process under test exited, say). */
  failNow?: () => string | undefined;
  /** Added to the timeout's error: what helps to see why (the output of the process under test, say). */
  explain?: () => string;
}

/**
 * Reads until `check` passes, or fails naming `what` after the timeout (5 s unless told, as a
 * number or in the options); returns the value that passed.
 */
export async function eventually<T>(read: () => Promise<T> | T, check: (value: T) => boolean, what: string, options: number | EventuallyOptions = {}): Promise<T> {
  const { timeoutMs = 5000, pollMs = EVENTUALLY_POLL_MS, failNow, explain } = typeof options === 'number' ? { timeoutMs: options } : options;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (check(value)) return value;
    const failure = failNow?.();
    if (failure !== undefined) throw new Error(`While waiting for ${what}: ${failure}`);
    if (Date.now() > deadline) {
      throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what} (last: ${JSON.stringify(value)})${explain ? `\n${explain()}` : ''}`);
    }
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}

/** `eventually` for a plain condition. */
export async function until(check: () => boolean | Promise<boolean>, what: string, options: number | EventuallyOptions = {}): Promise<void> {
  await eventually(check, (ok) => ok, what, options);
}

/** A process a test started (a server, `npm start`): what it printed, and whether it has exited. */
export interface WatchedProcess {
  child: { exitCode: number | null };
  output: () => string;
}

/** Options for waiting on something a process does: fail at once if it exits, and show its output on a timeout. */
export function whileRunning(run: WatchedProcess, timeoutMs: number, pollMs?: number): EventuallyOptions {
  return {
    timeoutMs,
    pollMs,
    failNow: () => (run.child.exitCode !== null ? `the process exited (${run.child.exitCode}):\n${run.output()}` : undefined),
    explain: run.output,
  };
}
