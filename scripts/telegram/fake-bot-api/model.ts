// The fake Telegram's shapes: Telegram's limits, what tests and the web page get back, the
// errors, and the state of a bot and its chats that the per-concern modules share.
import type { BotCommand, Chat, Message, MenuButton, ReplyKeyboardMarkup, Update, User, UserFromGetMe, WebhookInfo } from 'grammy/types';
import { randomBytes } from 'node:crypto';
import { ApiError, type Params } from './request-body';

// Telegram's limits, as the Bot API documents them.
export const MESSAGE_TEXT_LIMIT = 4096;
export const CAPTION_LIMIT = 1024;
export const CALLBACK_DATA_LIMIT_BYTES = 64;
export const DESCRIPTION_LIMIT = 512;
export const SHORT_DESCRIPTION_LIMIT = 120;
export const PHOTO_UPLOAD_LIMIT_BYTES = 10 * 1024 * 1024;
export const UPLOAD_LIMIT_BYTES = 50 * 1024 * 1024;
/**
 * Telegram's sending limits, enforced by default so a sender is proven against them: about 30
 * messages a second per bot (a sliding second here); in one chat "no more than one message a
 * second, short bursts allowed" (here: CHAT_BURST messages in any CHAT_WINDOW_MS); with
 * allow_paid_broadcast up to 1,000 a second for eligible bots, 0.1 Star per message beyond the
 * free 30; a message can be deleted for 48 hours.
 */
export const BOT_MESSAGES_PER_SECOND = 30;
export const PAID_MESSAGES_PER_SECOND = 1000;
export const CHAT_BURST = 5;
export const CHAT_WINDOW_MS = 5000;
export const DELETE_WINDOW_S = 48 * 3600;

export interface SendLimits {
  enabled: boolean;
  botPerSecond: number;
  chatBurst: number;
  chatWindowMs: number;
}

/** What the limits saw, per bot (tests and benchmarks read it). */
export interface LimitStats {
  /** 429s answered to this bot. */
  too_many_requests: number;
  /** Messages sent, per wall-clock second (unix seconds → count), the last PER_SECOND_KEEP_S. */
  per_second: Record<string, number>;
  /** The most sent in any one wall-clock second. */
  max_per_second: number;
  /** The most sent (free, not paid) in any sliding second: what Telegram's limit counts. */
  max_in_sliding_second: number;
  paid_messages: number;
  /** 0.1 Star each. */
  stars_spent: number;
  paid_broadcast_eligible: boolean;
}

/** Calls remembered per bot for calls()/waitForCall(); older ones are forgotten (benchmarks make many). */
export const CALL_LOG_LIMIT = 2000;

export const ERRORS = {
  unauthorized: () => new ApiError(401, 'Unauthorized'),
  notFound: () => new ApiError(404, 'Not Found'),
  blocked: () => new ApiError(403, 'Forbidden: bot was blocked by the user'),
  webhookActive: () =>
    new ApiError(409, "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first"),
  otherPoller: () =>
    new ApiError(409, 'Conflict: terminated by other getUpdates request; make sure that only one bot instance is running'),
  tooManyRequests: (retryAfter: number) =>
    new ApiError(429, `Too Many Requests: retry after ${retryAfter}`, { retry_after: retryAfter }),
};

/** A failure of a control operation (bad input from a test or from the web page). */
export class ControlError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** The person on the other side of a private chat. */
export interface Subscriber {
  id: number;
  first_name: string;
  last_name?: string;
  username?: string;
  language_code?: string;
}

export interface ChatEntry {
  message: Message;
  from_bot: boolean;
  deleted: boolean;
  /** Order of events in the whole fake, for "what happened after X". */
  sent_seq: number;
  edited_seq: number;
}

export interface CallbackAnswer {
  callback_query_id: string;
  text?: string;
  show_alert?: boolean;
  url?: string;
  cache_time?: number;
}

export interface ApiCall {
  method: string;
  params: Record<string, unknown>;
  ok: boolean;
  error_code?: number;
  description?: string;
  at: number;
}

export interface BotSummary {
  token: string;
  id: number;
  username: string;
  first_name: string;
  revoked: boolean;
}

export interface BotStateSnapshot extends BotSummary {
  me: UserFromGetMe;
  webhook: WebhookInfo & { secret_token?: string };
  /** True while a getUpdates long poll is waiting. */
  polling: boolean;
  pending_update_count: number;
  default_menu_button: MenuButton;
  /** Keyed by language code; "" is the default. */
  descriptions: Record<string, string>;
  short_descriptions: Record<string, string>;
  /** Keyed by `${scope.type}[:chat_id]|${language_code}`. */
  commands: Record<string, BotCommand[]>;
  chats: Array<{ id: number; user: Subscriber; blocked: boolean; menu_button?: MenuButton; message_count: number }>;
  injected_failures: number;
}

export interface ChatSnapshot {
  id: number;
  user: Subscriber;
  blocked: boolean;
  menu_button: MenuButton;
  reply_keyboard: ReplyKeyboardMarkup | null;
  /** The one-time keyboard was used: folded away (still reachable by its icon, as in Telegram). */
  reply_keyboard_hidden: boolean;
  entries: ChatEntry[];
  callback_answers: CallbackAnswer[];
}

export interface FailureSpec {
  /** How many calls fail. */
  count: number;
  error_code: number;
  description: string;
  parameters?: { retry_after?: number };
  /** Only these methods fail (any case); every method except getUpdates when omitted. */
  methods?: string[];
}

export interface WaitOptions {
  timeoutMs?: number;
}

export interface WaitForBotMessageOptions extends WaitOptions {
  predicate?: (message: Message) => boolean;
  /** Also count a message edited (not only sent) in the window. */
  includeEdits?: boolean;
  /**
   * Which messages count: 'last-user-action' (default) = sent after the person's latest message
   * or button press in that chat, i.e. the bot's reply to it; 'any' = any the bot ever sent there.
   */
  since?: 'last-user-action' | 'any';
}

export interface StoredMessage {
  message: Message;
  fromBot: boolean;
  deleted: boolean;
  sentSeq: number;
  editedSeq: number;
}

export interface FakeChat {
  id: number;
  user: Subscriber;
  chat: Chat.PrivateChat;
  messages: Map<number, StoredMessage>;
  nextMessageId: number;
  blocked: boolean;
  menuButton?: MenuButton;
  replyKeyboard?: ReplyKeyboardMarkup;
  /** A one-time keyboard the person used: folded away until the bot sends a keyboard again. */
  replyKeyboardHidden?: boolean;
  lastUserActionSeq: number;
  chatInstance: string;
  callbackAnswers: CallbackAnswer[];
}

export interface CallbackRecord {
  chatId: number;
  answered: boolean;
}

export interface PendingPoll {
  deliver(): void;
  fail(error: ApiError): void;
}

export interface Webhook {
  url: string;
  secret_token?: string;
  allowed_updates: string[];
  max_connections: number;
  last_error_date?: number;
  last_error_message?: string;
}

export interface InjectedFailure {
  remaining: number;
  /** A failure for a while (an outage): every matching call fails until then (epoch ms), however many. */
  until?: number;
  error: () => ApiError;
  methods?: Set<string>;
}

export interface StoredFile {
  file_id: string;
  file_unique_id: string;
  kind: 'photo' | 'video';
  botId: number;
  data?: Buffer;
  url?: string;
  contentType: string;
  file_size?: number;
  file_path: string;
  file_name?: string;
  width: number;
  height: number;
}

export interface FakeBot {
  token: string;
  me: UserFromGetMe;
  revoked: boolean;
  updates: Update[];
  nextUpdateId: number;
  allowedUpdates: string[];
  poll?: PendingPoll;
  webhook?: Webhook;
  delivery?: AbortController;
  delivering: boolean;
  descriptions: Map<string, string>;
  shortDescriptions: Map<string, string>;
  commands: Map<string, BotCommand[]>;
  defaultMenuButton?: MenuButton;
  chats: Map<number, FakeChat>;
  failures: InjectedFailure[];
  calls: ApiCall[];
  callbacks: Map<string, CallbackRecord>;
  /** Send times (ms) in the last second: free ones, and paid ones. */
  freeSends: number[];
  paidSends: number[];
  chatSends: Map<number, number[]>;
  stats: { tooMany: number; perSecond: Map<number, number>; maxSlidingSecond: number; paidMessages: number; starTenths: number };
  paidBroadcastEligible: boolean;
}

export type ApiOutcome =
  | { ok: true; result: unknown; description?: string }
  | { ok: false; error_code: number; description: string; parameters?: { retry_after?: number } };

/** A result with Telegram's extra "description" (setWebhook says "Webhook was set"). */
export class Described {
  constructor(
    readonly result: unknown,
    readonly description: string,
  ) {}
}

export type Handler = (bot: FakeBot, p: Params, signal: AbortSignal) => unknown;

export interface FakeTelegramOptions {
  /** First wait before a failed webhook delivery is retried; doubles up to 30 s. */
  webhookRetryMs?: number;
  /** How long a webhook may take to answer one update. */
  webhookTimeoutMs?: number;
  /** Telegram's sending limits (on by default). */
  limits?: Partial<SendLimits>;
  /** How long a bot has to answer a pre_checkout_query (Telegram: 10 s; tests shorten it). */
  preCheckoutTimeoutMs?: number;
}

export const now = () => Math.floor(Date.now() / 1000);
export const clone = <T>(value: T): T => structuredClone(value);
export const clamp = (n: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, n));

export function randomId(bytes: number): string {
  return randomBytes(bytes).toString('base64url');
}

export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

/** The bot as the sender of its messages. */
export function botUser(bot: FakeBot): User {
  return { id: bot.me.id, is_bot: true, first_name: bot.me.first_name, username: bot.me.username };
}
