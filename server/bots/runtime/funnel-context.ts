// What every behaviour of one running funnel's bot shares: its funnel id, the database, the log,
// and the way Telegram calls are made (transient failures retried, a blocked person marked).
import { type Api, GrammyError } from 'grammy';
import type { FastifyBaseLogger } from 'fastify';
import { isRetryableBotApiError } from '../create-bot';
import type { InboxAlert, RuntimeStore } from './store';
import type { BotRateLimiter } from '../../telegram/rate-limiter';
import type { ReplyTarget } from './replies';

export type RuntimeLog = Pick<FastifyBaseLogger, 'info' | 'warn' | 'error' | 'debug'>;

export interface FunnelContext {
  funnelId: number;
  store: RuntimeStore;
  log: RuntimeLog;
  /** media id → Telegram file_id, shared by every bot of the runtime (media ids are unique). */
  fileIds: Map<number, { fileId: string; kind: 'photo' | 'video' }>;
  /** Stops handling updates after the current one (401 Unauthorized). */
  signal: AbortSignal;
  /** Waits between attempts of a call to a person (SEND_RETRY_DELAYS_MS; tests shorten them). */
  sendRetryDelaysMs?: readonly number[];
  /** Tells the owner someone wrote (through the service bot); best effort, never awaited by updates. */
  alertOwner?: (alert: InboxAlert) => Promise<void>;
  /** The bot's sending rate (shared with its mailings and letters; replies go first). */
  limiter?: BotRateLimiter;
  /** Sends the person's waiting replies up to the given one, after any of theirs already under way (replies.ts). */
  deliver(target: ReplyTarget): Promise<void>;
}

/**
 * Waits between attempts of one call that failed on the network or with Telegram's 5xx: the
 * one retry path for those (auto-retry only waits out 429s, see create-bot.ts).
 */
export const SEND_RETRY_DELAYS_MS: readonly number[] = [250, 1_000, 4_000];

/** Resolves after `ms`, or at once when the bot stops (its stop() waits for the update being handled). */
export const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done);
  });

/** Marker: the person blocked the bot (403); they are marked and the update's work stops. */
export class PersonBlockedError extends Error {
  constructor(readonly telegramId: number) {
    super('The person blocked the bot');
  }
}

export function isUnauthorized(error: unknown): boolean {
  return error instanceof GrammyError && error.error_code === 401;
}

function isBlocked(error: unknown): boolean {
  return error instanceof GrammyError && error.error_code === 403;
}

/**
 * One Telegram call to (or about) a person: network trouble and 5xx are retried with backoff,
 * once per delay (a 429 was already waited out by auto-retry, per bot, and is not retried again
 * here), 403 marks the person blocked and throws PersonBlockedError, 401 and anything else is
 * thrown to the bot's error handler.
 */
export async function callForPerson<T>(fc: FunnelContext, telegramId: number, call: () => Promise<T>): Promise<T> {
  const delays = fc.sendRetryDelaysMs ?? SEND_RETRY_DELAYS_MS;
  for (let attempt = 0; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      if (isBlocked(error)) {
        await fc.store.setBlocked(fc.funnelId, telegramId, true);
        throw new PersonBlockedError(telegramId);
      }
      if (!isRetryableBotApiError(error) || attempt >= delays.length || fc.signal.aborted) throw error;
      await sleep(delays[attempt], fc.signal);
      if (fc.signal.aborted) throw error;
    }
  }
}

/** A convenience for the behaviours: the Api type they call. */
export type BotApi = Api;
