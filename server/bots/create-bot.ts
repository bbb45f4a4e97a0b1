// The one way this server makes a grammY bot: the Bot API root is injectable (tests and local
// development point it at scripts/telegram/fake-bot-api.ts), 429s are waited out per bot, and
// calls go through the lean fetch of bot-api-fetch.ts.
import { autoRetry } from '@grammyjs/auto-retry';
import { type ApiClientOptions, Bot, GrammyError, HttpError, type Transformer } from 'grammy';
import type { UserFromGetMe } from 'grammy/types';
import { botApiFetch, directJsonCalls } from './bot-api-fetch';

/** A 429 asking to wait longer than this fails the call instead of stalling it. */
export const MAX_RATE_LIMIT_WAIT_S = 60;
/** Retries of one call after 429s (auto-retry); Telegram's 5xx are retried by the caller. */
export const MAX_API_RETRIES = 3;

export interface CreateBotOptions {
  /** TELEGRAM_API_ROOT, without a trailing slash. */
  apiRoot: string;
  /** Known bot identity (skips getMe on start). */
  botInfo?: UserFromGetMe;
  /** Per-request timeout; must exceed the long polling timeout (30 s). grammY's default is 500 s. */
  timeoutSeconds?: number;
  /** Run around every attempt, inside auto-retry (a retried call passes through them again). */
  perAttempt?: Transformer[];
}

/** grammY's own per-request timeout. */
const DEFAULT_TIMEOUT_S = 500;

export function createBot(token: string, { apiRoot, botInfo, timeoutSeconds = DEFAULT_TIMEOUT_S, perAttempt = [] }: CreateBotOptions): Bot {
  const bot = new Bot(token, {
    client: {
      apiRoot,
      // grammY types `fetch` as node-fetch's; it only calls it with (url, {method, headers, body, signal}).
      fetch: botApiFetch as unknown as NonNullable<ApiClientOptions['fetch']>,
      timeoutSeconds,
    },
    ...(botInfo ? { botInfo } : {}),
  });
  // auto-retry waits out 429s (retry_after, per bot) and nothing else. Network failures and
  // Telegram's 5xx are rethrown at once: the caller retries them in one place with its own short
  // backoff (callForPerson for replies, the polling and set-up loops for the rest), instead of
  // auto-retry's 3 s doubling backoff multiplying with the caller's retries.
  bot.api.config.use(
    directJsonCalls(apiRoot, token, timeoutSeconds),
    ...perAttempt,
    autoRetry({
      maxRetryAttempts: MAX_API_RETRIES,
      maxDelaySeconds: MAX_RATE_LIMIT_WAIT_S,
      rethrowHttpErrors: true,
      rethrowInternalServerErrors: true,
    }),
  );
  return bot;
}

/** The network error under an HttpError (its code, e.g. ECONNREFUSED), if any. */
function networkErrorCode(error: HttpError): string | undefined {
  const inner = error.error as { code?: unknown; cause?: { code?: unknown } } | undefined;
  const code = inner?.code ?? inner?.cause?.code;
  return typeof code === 'string' ? code : undefined;
}

/** Network failures that happen before a request leaves: it surely never reached Telegram. */
const NEVER_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/**
 * A failure after which the message surely was not delivered, so sending it again cannot make a
 * duplicate: Telegram's 5xx answer, or a connection that was never made. A timeout or a reset
 * mid-request may have delivered it: that is not one of these.
 */
export function surelyNotDelivered(error: unknown): boolean {
  if (error instanceof GrammyError) return error.error_code >= 500;
  if (error instanceof HttpError) {
    const code = networkErrorCode(error);
    return code !== undefined && NEVER_SENT_CODES.has(code);
  }
  return false;
}

/** Failures worth retrying later: the network, Telegram's 5xx, and 429s auto-retry gave up on. */
export function isTransientBotApiError(error: unknown): boolean {
  return error instanceof HttpError || (error instanceof GrammyError && (error.error_code >= 500 || error.error_code === 429));
}

/**
 * A Bot API failure in words safe for logs. Never the token: grammY keeps it out of its own
 * messages, but the network error underneath carries the request URL, which contains it.
 */
export function describeBotApiError(error: unknown, token: string): string {
  let text: string;
  if (error instanceof GrammyError) {
    text = `${error.method} answered ${error.error_code} ${error.description}`;
  } else if (error instanceof HttpError) {
    const code = networkErrorCode(error);
    text = `${error.message}${code ? ` (${code})` : ''}`;
  } else {
    text = error instanceof Error ? error.message : String(error);
  }
  return text.split(token).join('<token>');
}
