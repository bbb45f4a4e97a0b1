// Whether a running funnel's bot reaches Telegram. Every Bot API call of the bot (polling,
// replies, its webhook) reports here: a network failure or a 5xx is a failure, any answer of
// Telegram's (a 4xx included: Telegram was reached) a success. After failures alone for longer
// than TELEGRAM_UNREACHABLE_AFTER_MS the funnel's API says "cannot reach Telegram since" the first
// of them; the first success clears it. Kept in memory, per bot: after a restart it rebuilds from
// the next failures (the funnel's API reads it in the same process).
import { HttpError, type Transformer } from 'grammy';

/** A hiccup shorter than this is not shown: polling retries within seconds. */
export const TELEGRAM_UNREACHABLE_AFTER_MS = 45_000;

export class TelegramReachability {
  /** When the current run of failures began (null: the last call reached Telegram). */
  private failingSince: number | null = null;

  constructor(
    private readonly thresholdMs = TELEGRAM_UNREACHABLE_AFTER_MS,
    private readonly now: () => number = Date.now,
  ) {}

  failed(): void {
    this.failingSince ??= this.now();
  }

  succeeded(): void {
    this.failingSince = null;
  }

  /** Since when Telegram has not been reached, once that is longer than the threshold; else null. */
  unreachableSince(): Date | null {
    if (this.failingSince === null || this.now() - this.failingSince < this.thresholdMs) return null;
    return new Date(this.failingSince);
  }

  /** A Bot API transformer that reports every attempt's outcome (an aborted call reports nothing). */
  observer(): Transformer {
    return async (prev, method, payload, signal) => {
      let result: Awaited<ReturnType<typeof prev>>;
      try {
        result = await prev(method, payload, signal);
      } catch (error) {
        const aborted = (signal as AbortSignal | undefined)?.aborted ?? false;
        if (error instanceof HttpError && !aborted) this.failed();
        throw error;
      }
      if (!result.ok && result.error_code >= 500) this.failed();
      else this.succeeded();
      return result;
    };
  }
}
