// One way to wait out a database that cannot be reached (restarting, a lost connection): the
// bot runtime's writes after a claim and the outbox's outcomes both go through it, so what was
// asked lands as soon as the database answers again.
import { isConnectionLost } from './errors';

/** Waits while the database cannot be reached: doubled from the first, up to the last, each ±20 %. */
export const DATABASE_RETRY_MIN_MS = 250;
export const DATABASE_RETRY_MAX_MS = 2_000;
const JITTER = 0.2;

export interface RetryOptions {
  /** Stops trying (the error is thrown) once aborted; a wait ends at once when it is. */
  signal?: AbortSignal;
  /** Gives up (the error is thrown) after trying for this long. */
  forMs?: number;
  /** Called before each wait (to log it). */
  onWait?(error: unknown, attempt: number): void;
  /** An error that only looks like a lost connection (another service's network error). */
  notOurs?(error: object): boolean;
}

function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise<void>((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    timer.unref();
    signal?.addEventListener('abort', done);
  });
}

/** Runs `work` until it succeeds or fails for another reason than a database that cannot be reached. */
export async function untilDatabaseAnswers<T>(work: () => Promise<T>, options: RetryOptions = {}): Promise<T> {
  const started = performance.now();
  for (let attempt = 1, delay = DATABASE_RETRY_MIN_MS; ; attempt++, delay = Math.min(delay * 2, DATABASE_RETRY_MAX_MS)) {
    try {
      return await work();
    } catch (error) {
      const givenUp = options.signal?.aborted || (options.forMs !== undefined && performance.now() - started > options.forMs);
      if (givenUp || !isConnectionLost(error, options.notOurs)) throw error;
      options.onWait?.(error, attempt);
      await pause(delay * (1 - JITTER + Math.random() * 2 * JITTER), options.signal);
      if (options.signal?.aborted) throw error;
    }
  }
}
