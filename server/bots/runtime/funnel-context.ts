// What every behaviour of one running funnel's bot shares: its funnel id, the database, the log,
// and the way Telegram calls are made (transient failures retried, a blocked person marked).
import { type Api, GrammyError, HttpError } from 'grammy';
import type { FastifyBaseLogger } from 'fastify';
import { surelyNotDelivered } from '../../telegram/client';
import type { InboxAlert, RuntimeStore } from './store';
import type { BotRateLimiter } from '../../telegram/rate-limiter';
import type { ReplyTarget } from './replies';
import { isConnectionLost } from '../../db/errors';
import { untilDatabaseAnswers as untilDatabaseAnswersAt } from '../../db/retry';

export type RuntimeLog = Pick<FastifyBaseLogger, 'info' | 'warn' | 'error' | 'debug'>;

export interface FunnelContext {
  funnelId: number;
  store: RuntimeStore;
  log: RuntimeLog;
  /** Stops handling updates after the current one (401 Unauthorized). */
  signal: AbortSignal;
  /** Waits between attempts of a call to a person (SEND_RETRY_DELAYS_MS; tests shorten them). */
  sendRetryDelaysMs?: readonly number[];
  /** How long a reply may wait for Telegram before it is given up (REPLY_GIVE_UP_MS; tests shorten it). */
  replyGiveUpMs?: number;
  /** Tells the owner someone wrote (through the service bot); best effort, never awaited by updates. */
  alertOwner?: (alert: InboxAlert) => Promise<void>;
  /** The bot's sending rate (shared with its mailings and letters; replies go first). */
  limiter?: BotRateLimiter;
  /** Sends the person's waiting replies up to the given one, after any of theirs already under way (replies.ts). */
  deliver(target: ReplyTarget): Promise<void>;
}

/**
 * Waits between attempts of one call that surely did not deliver (Telegram's 5xx, a refused
 * connection): the one retry path for those (auto-retry only waits out 429s, see telegram/client.ts).
 * After these, the last one repeats (with jitter) until the reply is REPLY_GIVE_UP_MS old: a reply
 * waits out an outage of Telegram, and goes within a few seconds of its end.
 */
export const SEND_RETRY_DELAYS_MS: readonly number[] = [250, 1_000, 3_000];
/** A reply Telegram could not take for this long is given up: recorded failed, with why. */
export const REPLY_GIVE_UP_MS = 15 * 60_000;
/** Waits of a repeated retry vary by this share either way, so many bots do not retry in step. */
export const RETRY_JITTER = 0.2;

/** `ms`, give or take RETRY_JITTER. */
export function jittered(ms: number): number {
  return ms * (1 - RETRY_JITTER + Math.random() * 2 * RETRY_JITTER);
}

const isTelegramError = (at: object) => at instanceof GrammyError || at instanceof HttpError;
export const isDatabaseUnavailable = (error: unknown): boolean => isConnectionLost(error, isTelegramError);

/**
 * Runs `work` until the database answers: while it cannot be reached, waits (capped, jittered)
 * and asks again; any other failure is thrown. Gives up (throws) only when the bot stops.
 */
export function untilDatabaseAnswers<T>(fc: Pick<FunnelContext, 'signal' | 'log' | 'funnelId'>, what: string, work: () => Promise<T>): Promise<T> {
  return untilDatabaseAnswersAt(work, {
    signal: fc.signal,
    notOurs: isTelegramError,
    onWait: () => fc.log.warn({ funnel_id: fc.funnelId }, `could not ${what}, the database is unavailable; trying again`),
  });
}

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
 * One Telegram call to (or about) a person. A failure that surely did not deliver (5xx, a
 * refused connection) is retried, after SEND_RETRY_DELAYS_MS and then every last one of them,
 * until `giveUpAt` (an epoch ms; default: REPLY_GIVE_UP_MS from now) or the bot stops. A 429 was
 * already waited out by auto-retry, per bot, and is not retried again here. 403 marks the person
 * blocked and throws PersonBlockedError; 401, a failure that may have delivered (a timeout, a
 * reset mid-request) and anything else are thrown to the caller: never sent blindly again.
 */
export async function callForPerson<T>(fc: FunnelContext, telegramId: number, call: () => Promise<T>, giveUpAt?: number): Promise<T> {
  const delays = fc.sendRetryDelaysMs ?? SEND_RETRY_DELAYS_MS;
  const deadline = giveUpAt ?? Date.now() + (fc.replyGiveUpMs ?? REPLY_GIVE_UP_MS);
  for (let attempt = 0; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      if (isBlocked(error)) {
        await untilDatabaseAnswers(fc, 'mark a person blocked', () => fc.store.setBlocked(fc.funnelId, telegramId, true));
        throw new PersonBlockedError(telegramId);
      }
      if (!surelyNotDelivered(error) || fc.signal.aborted) throw error;
      const delay = attempt < delays.length ? delays[attempt] : jittered(delays[delays.length - 1] ?? 0);
      if (Date.now() + delay > deadline) throw error;
      await sleep(delay, fc.signal);
      if (fc.signal.aborted) throw error;
    }
  }
}

/** A convenience for the behaviours: the Api type they call. */
export type BotApi = Api;
