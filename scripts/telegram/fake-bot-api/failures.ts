// Failure injection: the next calls fail with a given Bot API error, an outage for some
// milliseconds, a run of 429s; and the shape of a failed call's answer.
import { ApiError } from './request-body';
import { type ApiOutcome, ControlError, ERRORS, type FailureSpec, type FakeBot } from './model';
import type { FakeState } from './state';

/** A Bot API error as the answer of a call. */
export function failure(error: ApiError): ApiOutcome {
  return {
    ok: false,
    error_code: error.code,
    description: error.description,
    ...(error.parameters ? { parameters: error.parameters } : {}),
  };
}

/** The failures a test has asked for, per bot. */
export class InjectedFailures {
  constructor(private readonly state: FakeState) {}

  takeInjectedFailure(bot: FakeBot, method: string): ApiError | undefined {
    const name = method.toLowerCase();
    const now = Date.now();
    bot.failures = bot.failures.filter((f) => f.until === undefined || f.until > now);
    const failure = bot.failures.find((f) => (f.methods ? f.methods.has(name) : name !== 'getupdates'));
    if (!failure) return undefined;
    if (failure.until !== undefined) return failure.error();
    failure.remaining -= 1;
    if (failure.remaining <= 0) bot.failures.splice(bot.failures.indexOf(failure), 1);
    return failure.error();
  }

  /** The next `count` calls (matching `methods`) fail with the given Bot API error. */
  failNextCalls(token: string, spec: FailureSpec): void {
    const bot = this.state.botFor(token);
    if (!Number.isInteger(spec.count) || spec.count < 1) throw new ControlError(400, 'count must be a positive integer');
    if (!Number.isInteger(spec.error_code) || typeof spec.description !== 'string') {
      throw new ControlError(400, 'error_code (integer) and description (string) are required');
    }
    bot.failures.push({
      remaining: spec.count,
      error: () => new ApiError(spec.error_code, spec.description, spec.parameters),
      methods: spec.methods ? new Set(spec.methods.map((m) => m.toLowerCase())) : undefined,
    });
    this.state.changed();
  }

  /**
   * An outage: for the next `ms` milliseconds every call (matching `methods`; every method but
   * getUpdates when omitted) fails with the given Bot API error, e.g. 502 Bad Gateway.
   */
  failCallsFor(token: string, { ms, ...spec }: Omit<FailureSpec, 'count'> & { ms: number }): void {
    const bot = this.state.botFor(token);
    if (!Number.isFinite(ms) || ms <= 0) throw new ControlError(400, 'ms must be a positive number');
    this.failNextCalls(token, { ...spec, count: 1 });
    const failure = bot.failures[bot.failures.length - 1];
    failure.until = Date.now() + ms;
  }

  /** The next `calls` calls (every method but getUpdates, unless `methods`) get 429 with retry_after. */
  rateLimit(token: string, { calls, retryAfter, methods }: { calls: number; retryAfter: number; methods?: string[] }): void {
    if (!Number.isInteger(retryAfter) || retryAfter < 0) throw new ControlError(400, 'retryAfter must be a whole number of seconds');
    const error = ERRORS.tooManyRequests(retryAfter);
    this.failNextCalls(token, { count: calls, error_code: 429, description: error.description, parameters: error.parameters, methods });
  }
}
