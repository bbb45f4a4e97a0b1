// The state and behaviour of the fake Telegram: bots, their chats with people, the update
// queue (long polling and webhooks), the Bot API methods, and the control operations tests
// and a person use to play the other side of a chat. No HTTP here; see ../fake-bot-api.ts.
import { randomBytes, randomInt } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type {
  BotCommand,
  BotCommandScope,
  CallbackQuery,
  Chat,
  ChatMemberUpdated,
  File,
  InlineKeyboardButton,
  InlineKeyboardMarkup,
  MenuButton,
  Message,
  MessageEntity,
  PhotoSize,
  ReplyKeyboardMarkup,
  Update,
  User,
  UserFromGetMe,
  Video,
  WebhookInfo,
} from 'grammy/types';
import { ApiError, badRequest, type FileInput, Params, type UploadedFile } from './request-body';
import { commandEntities, HtmlParseError, parseTelegramHtml, trimText } from './telegram-html';

// Telegram's limits, as the Bot API documents them.
export const MESSAGE_TEXT_LIMIT = 4096;
export const CAPTION_LIMIT = 1024;
export const CALLBACK_DATA_LIMIT_BYTES = 64;
export const DESCRIPTION_LIMIT = 512;
export const SHORT_DESCRIPTION_LIMIT = 120;
export const PHOTO_UPLOAD_LIMIT_BYTES = 10 * 1024 * 1024;
export const UPLOAD_LIMIT_BYTES = 50 * 1024 * 1024;
const MAX_POLL_TIMEOUT_S = 50;
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
/** Methods that send a message: they count against the limits. */
const SENDING_METHODS = new Set(['sendmessage', 'sendphoto', 'sendvideo', 'senddocument', 'sendanimation', 'sendaudio', 'sendvoice', 'copymessage', 'forwardmessage']);
/** Per-second send counts are kept this long (benchmarks read them after a run). */
const PER_SECOND_KEEP_S = 900;

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
/** Update types a bot gets when allowed_updates is empty (Telegram's default). */
const OPT_IN_UPDATE_TYPES = new Set(['chat_member', 'message_reaction', 'message_reaction_count']);

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

interface StoredMessage {
  message: Message;
  fromBot: boolean;
  deleted: boolean;
  sentSeq: number;
  editedSeq: number;
}

interface FakeChat {
  id: number;
  user: Subscriber;
  chat: Chat.PrivateChat;
  messages: Map<number, StoredMessage>;
  nextMessageId: number;
  blocked: boolean;
  menuButton?: MenuButton;
  replyKeyboard?: ReplyKeyboardMarkup;
  lastUserActionSeq: number;
  chatInstance: string;
  callbackAnswers: CallbackAnswer[];
}

interface CallbackRecord {
  chatId: number;
  answered: boolean;
}

interface PendingPoll {
  deliver(): void;
  fail(error: ApiError): void;
}

interface Webhook {
  url: string;
  secret_token?: string;
  allowed_updates: string[];
  max_connections: number;
  last_error_date?: number;
  last_error_message?: string;
}

interface InjectedFailure {
  remaining: number;
  /** A failure for a while (an outage): every matching call fails until then (epoch ms), however many. */
  until?: number;
  error: () => ApiError;
  methods?: Set<string>;
}

interface StoredFile {
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

interface FakeBot {
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
class Described {
  constructor(
    readonly result: unknown,
    readonly description: string,
  ) {}
}

type Handler = (bot: FakeBot, p: Params, signal: AbortSignal) => unknown;

export interface FakeTelegramOptions {
  /** First wait before a failed webhook delivery is retried; doubles up to 30 s. */
  webhookRetryMs?: number;
  /** How long a webhook may take to answer one update. */
  webhookTimeoutMs?: number;
  /** Telegram's sending limits (on by default). */
  limits?: Partial<SendLimits>;
}

const now = () => Math.floor(Date.now() / 1000);
const clone = <T>(value: T): T => structuredClone(value);
const clamp = (n: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, n));

function randomId(bytes: number): string {
  return randomBytes(bytes).toString('base64url');
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

function updateType(update: Omit<Update, 'update_id'>): string {
  return Object.keys(update).find((key) => key !== 'update_id') ?? '';
}

function isAllowed(type: string, allowed: string[]): boolean {
  return allowed.length === 0 ? !OPT_IN_UPDATE_TYPES.has(type) : allowed.includes(type);
}

function commandsKey(scope: BotCommandScope | undefined, language: string | undefined): string {
  const type = scope?.type ?? 'default';
  const chat = scope && 'chat_id' in scope ? `:${scope.chat_id}` : '';
  return `${type}${chat}|${language ?? ''}`;
}

/** Width and height of a PNG, JPEG or GIF, read from its header; a guess for anything else. */
function imageSize(data: Buffer): { width: number; height: number } {
  if (data.length > 24 && data.readUInt32BE(0) === 0x89504e47) {
    return { width: data.readUInt32BE(16), height: data.readUInt32BE(20) };
  }
  if (data.length > 10 && data.toString('latin1', 0, 3) === 'GIF') {
    return { width: data.readUInt16LE(6), height: data.readUInt16LE(8) };
  }
  if (data.length > 4 && data[0] === 0xff && data[1] === 0xd8) {
    let i = 2;
    while (i + 9 < data.length) {
      if (data[i] !== 0xff) break;
      const marker = data[i + 1];
      const length = data.readUInt16BE(i + 2);
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
        return { width: data.readUInt16BE(i + 7), height: data.readUInt16BE(i + 5) };
      }
      i += 2 + length;
    }
  }
  return { width: 1280, height: 720 };
}

const INLINE_BUTTON_KINDS = [
  'url',
  'callback_data',
  'web_app',
  'login_url',
  'switch_inline_query',
  'switch_inline_query_current_chat',
  'switch_inline_query_chosen_chat',
  'copy_text',
  'callback_game',
  'pay',
] as const;

function validateInlineKeyboard(markup: InlineKeyboardMarkup): InlineKeyboardMarkup {
  const rows = (markup as { inline_keyboard: unknown }).inline_keyboard;
  if (!Array.isArray(rows) || rows.some((row) => !Array.isArray(row))) {
    throw badRequest('field "inline_keyboard" of the InlineKeyboardMarkup must be an Array of Arrays');
  }
  for (const row of rows as unknown[][]) {
    for (const raw of row) {
      const button = raw as Record<string, unknown>;
      if (typeof button !== 'object' || button === null || typeof button.text !== 'string') {
        throw badRequest(`can't parse inline keyboard button: Field "text" must be of type String`);
      }
      const kinds = INLINE_BUTTON_KINDS.filter((kind) => button[kind] !== undefined);
      if (kinds.length === 0) throw badRequest(`can't parse inline keyboard button: Text buttons are unallowed in the inline keyboard`);
      if (kinds.length > 1) throw badRequest(`can't parse inline keyboard button: only one of the optional fields must be used`);
      if (button.text === '') throw badRequest('BUTTON_TEXT_INVALID');
      if (kinds[0] === 'callback_data') {
        const data = String(button.callback_data);
        const bytes = Buffer.byteLength(data, 'utf8');
        if (bytes < 1 || bytes > CALLBACK_DATA_LIMIT_BYTES) throw badRequest('BUTTON_DATA_INVALID');
      }
      if (kinds[0] === 'url') {
        const url = String(button.url);
        if (!isHttpUrl(url) && !/^tg:\/\//.test(url)) {
          throw badRequest(`inline keyboard button URL '${url}' is invalid: Unsupported URL protocol`);
        }
      }
      if (kinds[0] === 'web_app') {
        const url = String((button.web_app as { url?: unknown } | null)?.url ?? '');
        // Telegram wants https here; the fake also takes http, as Telegram's test environment does,
        // so a Mini App on a local address can be played with.
        if (!isHttpUrl(url)) throw badRequest(`inline keyboard button Web App URL '${url}' is invalid: Only HTTPS links are allowed`);
      }
    }
  }
  return { inline_keyboard: rows as InlineKeyboardButton[][] };
}

function validateMenuButton(button: MenuButton | undefined): MenuButton | undefined {
  if (!button || button.type === 'default') return undefined;
  if (button.type === 'commands') return { type: 'commands' };
  if (button.type === 'web_app') {
    if (typeof button.text !== 'string' || button.text === '') throw badRequest('menu button text must be non-empty');
    if (!button.web_app || typeof button.web_app.url !== 'string' || !isHttpUrl(button.web_app.url)) {
      throw badRequest('BUTTON_URL_INVALID');
    }
    return { type: 'web_app', text: button.text, web_app: { url: button.web_app.url } };
  }
  throw badRequest("can't parse menu button: unsupported menu button type");
}

export class FakeTelegram {
  /** Emits 'change' after anything in any bot or chat changed. */
  readonly events = new EventEmitter();
  /** Bumped on every change; the web page long-polls on it. */
  version = 0;
  private seq = 0;
  private closed = false;
  private readonly bots = new Map<string, FakeBot>();
  private readonly files = new Map<string, StoredFile>();
  private readonly filesByPath = new Map<string, StoredFile>();
  private readonly webhookRetryMs: number;
  private readonly webhookTimeoutMs: number;
  private readonly handlers: Record<string, Handler>;
  readonly limits: SendLimits;

  constructor(options: FakeTelegramOptions = {}) {
    this.limits = { enabled: true, botPerSecond: BOT_MESSAGES_PER_SECOND, chatBurst: CHAT_BURST, chatWindowMs: CHAT_WINDOW_MS, ...options.limits };
    this.webhookRetryMs = options.webhookRetryMs ?? 1000;
    this.webhookTimeoutMs = options.webhookTimeoutMs ?? 10_000;
    this.events.setMaxListeners(0);
    const h: Record<string, Handler> = {
      getMe: (bot) => bot.me,
      getUpdates: (bot, p, signal) => this.getUpdates(bot, p, signal),
      setWebhook: (bot, p) => this.setWebhook(bot, p),
      deleteWebhook: (bot, p) => this.deleteWebhook(bot, p),
      getWebhookInfo: (bot) => this.webhookInfo(bot),
      sendMessage: (bot, p) => this.sendMessage(bot, p),
      sendPhoto: (bot, p) => this.sendMedia(bot, p, 'photo'),
      sendVideo: (bot, p) => this.sendMedia(bot, p, 'video'),
      sendChatAction: (bot, p) => {
        this.writableChat(bot, p);
        return true;
      },
      answerCallbackQuery: (bot, p) => this.answerCallbackQuery(bot, p),
      editMessageText: (bot, p) => this.editMessageText(bot, p),
      editMessageCaption: (bot, p) => this.editMessageCaption(bot, p),
      editMessageReplyMarkup: (bot, p) => this.editMessageReplyMarkup(bot, p),
      deleteMessage: (bot, p) => this.deleteMessage(bot, p),
      setMyDescription: (bot, p) => this.setText(bot.descriptions, p, 'description', DESCRIPTION_LIMIT),
      getMyDescription: (bot, p) => ({ description: bot.descriptions.get(p.string('language_code') ?? '') ?? '' }),
      setMyShortDescription: (bot, p) => this.setText(bot.shortDescriptions, p, 'short_description', SHORT_DESCRIPTION_LIMIT),
      getMyShortDescription: (bot, p) => ({
        short_description: bot.shortDescriptions.get(p.string('language_code') ?? '') ?? '',
      }),
      setChatMenuButton: (bot, p) => this.setChatMenuButton(bot, p),
      getChatMenuButton: (bot, p) => this.getChatMenuButton(bot, p),
      setMyCommands: (bot, p) => this.setMyCommands(bot, p),
      getMyCommands: (bot, p) =>
        bot.commands.get(commandsKey(p.json<BotCommandScope>('scope'), p.string('language_code'))) ?? [],
      deleteMyCommands: (bot, p) => {
        bot.commands.delete(commandsKey(p.json<BotCommandScope>('scope'), p.string('language_code')));
        this.changed();
        return true;
      },
      getFile: (bot, p) => this.getFile(bot, p),
    };
    // Telegram matches method names case-insensitively.
    this.handlers = Object.fromEntries(Object.entries(h).map(([name, handler]) => [name.toLowerCase(), handler]));
  }

  // ---------------------------------------------------------------- Bot API entry

  /** Runs one Bot API call for a token, as the HTTP route /bot<token>/<method> does. */
  async callMethod(token: string, method: string, params: Params, signal: AbortSignal = new AbortController().signal): Promise<ApiOutcome> {
    const bot = this.bots.get(token);
    if (!bot || bot.revoked) return this.failure(ERRORS.unauthorized());
    const outcome = await this.run(bot, method, params, signal);
    bot.calls.push({
      method,
      params: params.summary(),
      ok: outcome.ok,
      ...(outcome.ok ? {} : { error_code: outcome.error_code, description: outcome.description }),
      at: Date.now(),
    });
    if (bot.calls.length > CALL_LOG_LIMIT) bot.calls.splice(0, bot.calls.length - CALL_LOG_LIMIT);
    this.events.emit('call', bot.token);
    return outcome;
  }

  private async run(bot: FakeBot, method: string, params: Params, signal: AbortSignal): Promise<ApiOutcome> {
    const handler = this.handlers[method.toLowerCase()];
    if (!handler) return this.failure(ERRORS.notFound());
    const injected = this.takeInjectedFailure(bot, method);
    if (injected) return this.failure(injected);
    const sending = SENDING_METHODS.has(method.toLowerCase()) && this.limits.enabled;
    const paid = sending && params.boolean('allow_paid_broadcast') === true;
    if (sending) {
      const refused = this.overLimit(bot, params, paid);
      if (refused) return this.failure(refused);
    }
    try {
      const result = await handler(bot, params, signal);
      if (sending) this.countSend(bot, params, paid);
      if (result instanceof Described) return { ok: true, result: result.result, description: result.description };
      return { ok: true, result };
    } catch (error) {
      if (error instanceof ApiError) return this.failure(error);
      throw error;
    }
  }

  /** A 429 (or 400 for a paid broadcast the bot may not use) when this send would break a limit. */
  private overLimit(bot: FakeBot, params: Params, paid: boolean): ApiError | undefined {
    const at = Date.now();
    if (paid && !bot.paidBroadcastEligible) return badRequest('paid broadcasts are not available for the bot');
    const window = paid ? bot.paidSends : bot.freeSends;
    while (window.length > 0 && window[0] <= at - 1000) window.shift();
    const limit = paid ? PAID_MESSAGES_PER_SECOND : this.limits.botPerSecond;
    const tooMany = (retryAt: number) => {
      bot.stats.tooMany += 1;
      return ERRORS.tooManyRequests(Math.max(1, Math.ceil((retryAt - at) / 1000)));
    };
    if (window.length >= limit) return tooMany(window[0] + 1000);
    const chatId = params.integer('chat_id');
    if (chatId !== undefined) {
      const sends = bot.chatSends.get(chatId);
      if (sends) {
        while (sends.length > 0 && sends[0] <= at - this.limits.chatWindowMs) sends.shift();
        if (sends.length >= this.limits.chatBurst) return tooMany(sends[0] + this.limits.chatWindowMs);
      }
    }
    return undefined;
  }

  private countSend(bot: FakeBot, params: Params, paid: boolean): void {
    const at = Date.now();
    if (paid) {
      bot.paidSends.push(at);
      while (bot.freeSends.length > 0 && bot.freeSends[0] <= at - 1000) bot.freeSends.shift();
      // The first 30 of a second are free; the rest cost 0.1 Star each.
      if (bot.freeSends.length < BOT_MESSAGES_PER_SECOND) bot.freeSends.push(at);
      else {
        bot.stats.paidMessages += 1;
        bot.stats.starTenths += 1;
      }
    } else bot.freeSends.push(at);
    // The most messages (paid ones aside) seen in any sliding second: Telegram's own window.
    while (bot.freeSends.length > 0 && bot.freeSends[0] <= at - 1000) bot.freeSends.shift();
    bot.stats.maxSlidingSecond = Math.max(bot.stats.maxSlidingSecond, bot.freeSends.length);
    const chatId = params.integer('chat_id');
    if (chatId !== undefined) {
      const sends = bot.chatSends.get(chatId) ?? [];
      sends.push(at);
      bot.chatSends.set(chatId, sends);
      if (bot.chatSends.size > 50_000) for (const [id, list] of bot.chatSends) if ((list.at(-1) ?? 0) <= at - this.limits.chatWindowMs) bot.chatSends.delete(id);
    }
    const second = Math.floor(at / 1000);
    bot.stats.perSecond.set(second, (bot.stats.perSecond.get(second) ?? 0) + 1);
    if (bot.stats.perSecond.size > PER_SECOND_KEEP_S) bot.stats.perSecond.delete(bot.stats.perSecond.keys().next().value!);
  }

  /** What the sending limits saw for a bot. */
  limitStats(token: string): LimitStats {
    const bot = this.botFor(token);
    const perSecond = Object.fromEntries([...bot.stats.perSecond].map(([k, v]) => [String(k), v]));
    return {
      too_many_requests: bot.stats.tooMany,
      per_second: perSecond,
      max_per_second: Math.max(0, ...bot.stats.perSecond.values()),
      max_in_sliding_second: bot.stats.maxSlidingSecond,
      paid_messages: bot.stats.paidMessages,
      stars_spent: bot.stats.starTenths / 10,
      paid_broadcast_eligible: bot.paidBroadcastEligible,
    };
  }

  /** Telegram lets only some bots use allow_paid_broadcast (enough Stars and users). */
  setPaidBroadcastEligible(token: string, eligible: boolean): void {
    this.botFor(token).paidBroadcastEligible = eligible;
  }

  /** Makes every message of the bot look `seconds` older (for the 48-hour delete rule). */
  ageMessages(token: string, seconds: number): void {
    for (const chat of this.botFor(token).chats.values()) for (const stored of chat.messages.values()) stored.message.date -= seconds;
  }

  private failure(error: ApiError): ApiOutcome {
    return {
      ok: false,
      error_code: error.code,
      description: error.description,
      ...(error.parameters ? { parameters: error.parameters } : {}),
    };
  }

  private takeInjectedFailure(bot: FakeBot, method: string): ApiError | undefined {
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

  /** The bytes behind /file/bot<token>/<file_path>. */
  download(token: string, filePath: string): StoredFile | undefined {
    const bot = this.bots.get(token);
    const file = this.filesByPath.get(filePath);
    if (!bot || bot.revoked || !file || file.botId !== bot.me.id) return undefined;
    return file;
  }

  /** A stored file by file_id, for the web page (no token needed: the page is local). */
  fileById(fileId: string): StoredFile | undefined {
    return this.files.get(fileId);
  }

  // ---------------------------------------------------------------- updates

  private getUpdates(bot: FakeBot, p: Params, signal: AbortSignal): Update[] | Promise<Update[]> {
    if (bot.webhook) throw ERRORS.webhookActive();
    const allowed = p.json<string[]>('allowed_updates');
    if (Array.isArray(allowed)) bot.allowedUpdates = allowed;
    const offset = p.integer('offset') ?? 0;
    if (offset > 0) bot.updates = bot.updates.filter((u) => u.update_id >= offset);
    else if (offset < 0) bot.updates = bot.updates.slice(offset);
    const limit = clamp(p.integer('limit') ?? 100, 1, 100);
    const timeout = clamp(p.integer('timeout') ?? 0, 0, MAX_POLL_TIMEOUT_S);
    bot.poll?.fail(ERRORS.otherPoller());
    if (bot.updates.length > 0 || timeout === 0) return bot.updates.slice(0, limit);
    return new Promise<Update[]>((resolve, reject) => {
      const finish = (settle: () => void) => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        if (bot.poll === poll) bot.poll = undefined;
        this.changed();
        settle();
      };
      const poll: PendingPoll = {
        deliver: () => finish(() => resolve(bot.updates.slice(0, limit))),
        fail: (error) => finish(() => reject(error)),
      };
      const onAbort = () => finish(() => resolve([]));
      const timer = setTimeout(() => finish(() => resolve([])), timeout * 1000);
      signal.addEventListener('abort', onAbort);
      bot.poll = poll;
      this.changed();
    });
  }

  /**
   * Queues an update for the bot and hands it out. An update its allowed_updates exclude is not
   * created at all, as in Telegram: it is returned with update_id 0 and never delivered.
   */
  private pushUpdate(bot: FakeBot, body: Omit<Update, 'update_id'>): Update {
    const allowed = bot.webhook ? bot.webhook.allowed_updates : bot.allowedUpdates;
    if (!isAllowed(updateType(body), allowed)) return { update_id: 0, ...body } as Update;
    const update = { update_id: bot.nextUpdateId++, ...body } as Update;
    bot.updates.push(update);
    bot.poll?.deliver();
    if (bot.webhook) this.startDelivery(bot);
    this.changed();
    return update;
  }

  private setWebhook(bot: FakeBot, p: Params): Described {
    const url = p.string('url') ?? '';
    if (url === '') return this.deleteWebhook(bot, p, 'Webhook was deleted');
    // Telegram demands https; the fake also takes http so a server on this machine can be the
    // webhook (Telegram itself cannot reach one here anyway).
    if (!isHttpUrl(url)) throw badRequest('bad webhook: An HTTPS URL must be provided for webhook');
    const secret = p.string('secret_token');
    if (secret !== undefined && !/^[A-Za-z0-9_-]{1,256}$/.test(secret)) {
      throw badRequest('secret token contains unallowed characters');
    }
    const allowed = p.json<string[]>('allowed_updates');
    const same =
      bot.webhook?.url === url &&
      bot.webhook.secret_token === secret &&
      (!allowed || JSON.stringify(allowed) === JSON.stringify(bot.webhook.allowed_updates));
    if (p.boolean('drop_pending_updates')) bot.updates = [];
    bot.poll?.fail(ERRORS.webhookActive());
    bot.delivery?.abort();
    bot.webhook = {
      url,
      secret_token: secret,
      allowed_updates: Array.isArray(allowed) ? allowed : (bot.webhook?.allowed_updates ?? bot.allowedUpdates),
      max_connections: clamp(p.integer('max_connections') ?? 40, 1, 100),
    };
    this.changed();
    this.startDelivery(bot);
    return new Described(true, same ? 'Webhook is already set' : 'Webhook was set');
  }

  private deleteWebhook(bot: FakeBot, p: Params, description?: string): Described {
    const had = bot.webhook !== undefined;
    if (p.boolean('drop_pending_updates')) bot.updates = [];
    bot.webhook = undefined;
    bot.delivery?.abort();
    this.changed();
    return new Described(true, description ?? (had ? 'Webhook was deleted' : 'Webhook is already deleted'));
  }

  private webhookInfo(bot: FakeBot): WebhookInfo {
    const hook = bot.webhook;
    return {
      url: hook?.url ?? '',
      has_custom_certificate: false,
      pending_update_count: bot.updates.length,
      ...(hook
        ? {
            max_connections: hook.max_connections,
            ip_address: '127.0.0.1',
            ...(hook.allowed_updates.length ? { allowed_updates: hook.allowed_updates as WebhookInfo['allowed_updates'] } : {}),
            ...(hook.last_error_date ? { last_error_date: hook.last_error_date, last_error_message: hook.last_error_message } : {}),
          }
        : {}),
    };
  }

  private startDelivery(bot: FakeBot): void {
    if (bot.delivering || !bot.webhook || bot.revoked || this.closed || bot.updates.length === 0) return;
    bot.delivering = true;
    void this.deliverUpdates(bot).finally(() => {
      bot.delivering = false;
      // An update may have arrived after the loop saw an empty queue.
      this.startDelivery(bot);
    });
  }

  /** POSTs queued updates to the webhook one by one, in order, retrying failures with backoff. */
  private async deliverUpdates(bot: FakeBot): Promise<void> {
    let delay = this.webhookRetryMs;
    while (bot.webhook && !bot.revoked && !this.closed && bot.updates.length > 0) {
      const webhook = bot.webhook;
      const update = bot.updates[0];
      const controller = new AbortController();
      bot.delivery = controller;
      const error = await this.postUpdate(bot, webhook, update, controller.signal);
      if (this.closed) return;
      if (error === null) {
        bot.updates = bot.updates.filter((u) => u.update_id !== update.update_id);
        delay = this.webhookRetryMs;
        this.changed();
        continue;
      }
      if (controller.signal.aborted) continue; // the webhook was changed or deleted meanwhile
      webhook.last_error_date = now();
      webhook.last_error_message = error;
      this.changed();
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, delay);
        controller.signal.addEventListener('abort', () => {
          clearTimeout(timer);
          resolve();
        });
      });
      delay = Math.min(delay * 2, 30_000);
    }
  }

  /** Delivers one update; null on success, else Telegram-style last_error_message. */
  private async postUpdate(bot: FakeBot, webhook: Webhook, update: Update, signal: AbortSignal): Promise<string | null> {
    try {
      const response = await fetch(webhook.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(webhook.secret_token ? { 'x-telegram-bot-api-secret-token': webhook.secret_token } : {}),
        },
        body: JSON.stringify(update),
        signal: AbortSignal.any([signal, AbortSignal.timeout(this.webhookTimeoutMs)]),
      });
      const body = await response.text();
      if (response.status < 200 || response.status > 299) {
        return `Wrong response from the webhook: ${response.status} ${response.statusText}`;
      }
      // A webhook may answer with one Bot API call in its response body; Telegram runs it.
      if (body && (response.headers.get('content-type') ?? '').includes('application/json')) {
        this.runWebhookReply(bot, body);
      }
      return null;
    } catch (error) {
      if (error instanceof Error && error.name === 'TimeoutError') return 'Read timeout expired';
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      return cause?.code === 'ECONNREFUSED' ? 'Connection refused' : `Connection failed: ${cause?.message ?? String(error)}`;
    }
  }

  private runWebhookReply(bot: FakeBot, body: string): void {
    try {
      const reply = JSON.parse(body) as Record<string, unknown>;
      if (typeof reply.method !== 'string') return;
      const { method, ...rest } = reply;
      void this.callMethod(bot.token, method as string, new Params(rest, new Map()));
    } catch {
      // Telegram ignores a webhook reply it cannot read.
    }
  }

  // ---------------------------------------------------------------- chats and messages

  private chatOf(bot: FakeBot, p: Params): FakeChat {
    const raw = p.string('chat_id');
    if (raw === undefined || raw === '') throw badRequest('chat_id is empty');
    const chat = /^-?\d+$/.test(raw) ? bot.chats.get(Number(raw)) : undefined;
    if (!chat) throw badRequest('chat not found');
    return chat;
  }

  private writableChat(bot: FakeBot, p: Params): FakeChat {
    const chat = this.chatOf(bot, p);
    if (chat.blocked) throw ERRORS.blocked();
    return chat;
  }

  private botUser(bot: FakeBot): User {
    return { id: bot.me.id, is_bot: true, first_name: bot.me.first_name, username: bot.me.username };
  }

  /** Text or caption with its entities, from parse_mode HTML or explicit entities. */
  private formatted(p: Params, textKey: string, entitiesKey: string): { text: string; entities: MessageEntity[] } {
    const raw = p.string(textKey) ?? '';
    const mode = p.string('parse_mode');
    if (mode) {
      if (mode.toLowerCase() !== 'html') {
        if (/^markdown(v2)?$/i.test(mode)) {
          throw badRequest(`can't parse entities: the fake Bot API understands parse_mode HTML only, not ${mode}`);
        }
        throw badRequest('unsupported parse_mode');
      }
      try {
        return parseTelegramHtml(raw);
      } catch (error) {
        if (error instanceof HtmlParseError) throw badRequest(`can't parse entities: ${error.message}`);
        throw error;
      }
    }
    return trimText(raw, p.json<MessageEntity[]>(entitiesKey) ?? []);
  }

  /** Applies reply_markup: an inline keyboard goes on the message, a reply keyboard on the chat. */
  private replyMarkup(chat: FakeChat, p: Params): InlineKeyboardMarkup | undefined {
    const markup = p.json<Record<string, unknown>>('reply_markup', 'reply keyboard markup');
    if (!markup) return undefined;
    if (typeof markup !== 'object') throw badRequest("can't parse reply keyboard markup JSON object");
    if ('inline_keyboard' in markup) return validateInlineKeyboard(markup as unknown as InlineKeyboardMarkup);
    if ('keyboard' in markup) {
      if (!Array.isArray(markup.keyboard)) throw badRequest('field "keyboard" of the ReplyKeyboardMarkup must be an Array of Arrays');
      chat.replyKeyboard = markup as unknown as ReplyKeyboardMarkup;
    } else if (markup.remove_keyboard) {
      chat.replyKeyboard = undefined;
    } else if (!markup.force_reply) {
      throw badRequest("can't parse reply keyboard markup JSON object");
    }
    return undefined;
  }

  private replyTo(chat: FakeChat, p: Params): Message | undefined {
    const parameters = p.json<{ message_id?: number; allow_sending_without_reply?: boolean }>('reply_parameters');
    const id = parameters?.message_id ?? p.integer('reply_to_message_id');
    if (id === undefined) return undefined;
    const stored = chat.messages.get(id);
    if (!stored || stored.deleted) {
      if (parameters?.allow_sending_without_reply || p.boolean('allow_sending_without_reply')) return undefined;
      throw badRequest('message to be replied not found');
    }
    const replied = clone(stored.message) as Message & { reply_to_message?: unknown };
    delete replied.reply_to_message;
    return replied;
  }

  private storeBotMessage(bot: FakeBot, chat: FakeChat, fields: Record<string, unknown>): Message {
    const message = {
      message_id: chat.nextMessageId++,
      from: this.botUser(bot),
      chat: chat.chat,
      date: now(),
      ...fields,
    } as unknown as Message;
    chat.messages.set(message.message_id, { message, fromBot: true, deleted: false, sentSeq: ++this.seq, editedSeq: 0 });
    this.changed();
    return message;
  }

  private sendMessage(bot: FakeBot, p: Params): Message {
    const chat = this.writableChat(bot, p);
    const { text, entities } = this.formatted(p, 'text', 'entities');
    if (text === '') throw badRequest('message text is empty');
    if (text.length > MESSAGE_TEXT_LIMIT) throw badRequest('message is too long');
    const replyTo = this.replyTo(chat, p);
    const inline = this.replyMarkup(chat, p);
    return this.storeBotMessage(bot, chat, {
      ...(replyTo ? { reply_to_message: replyTo } : {}),
      text,
      ...(entities.length ? { entities } : {}),
      ...(inline ? { reply_markup: inline } : {}),
    });
  }

  private sendMedia(bot: FakeBot, p: Params, kind: 'photo' | 'video'): Message {
    const chat = this.writableChat(bot, p);
    const input = p.file(kind);
    if (!input) throw badRequest(`there is no ${kind} in the request`);
    const { text: caption, entities } = this.formatted(p, 'caption', 'caption_entities');
    if (caption.length > CAPTION_LIMIT) throw badRequest('message caption is too long');
    const replyTo = this.replyTo(chat, p);
    const inline = this.replyMarkup(chat, p);
    const file = this.resolveFile(bot, input, kind, p);
    const media =
      kind === 'photo'
        ? { photo: this.photoSizes(file) }
        : {
            video: {
              file_id: file.file_id,
              file_unique_id: file.file_unique_id,
              width: p.integer('width') ?? file.width,
              height: p.integer('height') ?? file.height,
              duration: p.integer('duration') ?? 0,
              mime_type: file.contentType,
              ...(file.file_name ? { file_name: file.file_name } : {}),
              ...(file.file_size !== undefined ? { file_size: file.file_size } : {}),
            } satisfies Video,
          };
    return this.storeBotMessage(bot, chat, {
      ...(replyTo ? { reply_to_message: replyTo } : {}),
      ...media,
      ...(caption ? { caption } : {}),
      ...(entities.length ? { caption_entities: entities } : {}),
      ...(p.boolean('has_spoiler') ? { has_media_spoiler: true } : {}),
      ...(inline ? { reply_markup: inline } : {}),
    });
  }

  private photoSizes(file: StoredFile): PhotoSize[] {
    const full: PhotoSize = {
      file_id: file.file_id,
      file_unique_id: file.file_unique_id,
      width: file.width,
      height: file.height,
      ...(file.file_size !== undefined ? { file_size: file.file_size } : {}),
    };
    if (Math.max(file.width, file.height) <= 320) return [full];
    // Telegram also makes smaller copies; the fake names one, backed by the same bytes.
    const scale = 320 / Math.max(file.width, file.height);
    const thumb: PhotoSize = {
      file_id: `${file.file_id}-s`,
      file_unique_id: `${file.file_unique_id}s`,
      width: Math.round(file.width * scale),
      height: Math.round(file.height * scale),
    };
    this.files.set(thumb.file_id, { ...file, file_id: thumb.file_id, file_unique_id: thumb.file_unique_id });
    return [thumb, full];
  }

  /** An upload becomes a new stored file; a file_id is looked up; a URL is taken on trust. */
  private resolveFile(bot: FakeBot, input: FileInput, kind: 'photo' | 'video', p: Params): StoredFile {
    if ('upload' in input) return this.storeUpload(bot, input.upload, kind);
    const reference = input.reference;
    if (isHttpUrl(reference)) {
      return this.storeFile(bot, kind, { url: reference, contentType: kind === 'photo' ? 'image/jpeg' : 'video/mp4', width: p.integer('width') ?? 1280, height: p.integer('height') ?? 720 });
    }
    const known = this.files.get(reference);
    if (!known || known.botId !== bot.me.id) throw badRequest('wrong file identifier/HTTP URL specified');
    if (known.kind !== kind) {
      const name = (k: string) => k[0].toUpperCase() + k.slice(1);
      throw badRequest(`can't use file of type ${name(known.kind)} as ${name(kind)}`);
    }
    return known;
  }

  private storeUpload(bot: FakeBot, upload: UploadedFile, kind: 'photo' | 'video'): StoredFile {
    if (upload.data.length === 0) throw badRequest('file must be non-empty');
    if (upload.data.length > UPLOAD_LIMIT_BYTES) throw new ApiError(413, 'Request Entity Too Large');
    if (kind === 'photo' && upload.data.length > PHOTO_UPLOAD_LIMIT_BYTES) throw badRequest('PHOTO_SAVE_FILE_INVALID');
    const size = kind === 'photo' ? imageSize(upload.data) : { width: 1280, height: 720 };
    const contentType =
      upload.contentType !== 'application/octet-stream'
        ? upload.contentType
        : kind === 'photo'
          ? 'image/jpeg'
          : 'video/mp4';
    return this.storeFile(bot, kind, { data: upload.data, contentType, file_name: upload.filename, file_size: upload.data.length, ...size });
  }

  private storeFile(
    bot: FakeBot,
    kind: 'photo' | 'video',
    fields: Pick<StoredFile, 'contentType' | 'width' | 'height'> & Partial<Pick<StoredFile, 'data' | 'url' | 'file_size' | 'file_name'>>,
  ): StoredFile {
    const prefix = kind === 'photo' ? 'AgACAgIAAxkBAA' : 'BAACAgIAAxkBAA';
    const extension = kind === 'photo' ? 'jpg' : 'mp4';
    const file: StoredFile = {
      file_id: prefix + randomId(24),
      file_unique_id: 'AQAD' + randomId(8),
      kind,
      botId: bot.me.id,
      file_path: `${kind}s/file_${this.files.size}.${extension}`,
      ...fields,
    };
    this.files.set(file.file_id, file);
    this.filesByPath.set(file.file_path, file);
    return file;
  }

  private getFile(bot: FakeBot, p: Params): File {
    const fileId = p.string('file_id');
    const file = fileId ? this.files.get(fileId) : undefined;
    if (!file || file.botId !== bot.me.id) throw badRequest('invalid file_id');
    return {
      file_id: file.file_id,
      file_unique_id: file.file_unique_id,
      ...(file.file_size !== undefined ? { file_size: file.file_size } : {}),
      ...(file.data ? { file_path: file.file_path } : {}),
    };
  }

  /** A message the bot may edit: exists, not deleted, sent by the bot. */
  private editable(bot: FakeBot, p: Params): { chat: FakeChat; stored: StoredMessage } {
    if (p.has('inline_message_id')) throw badRequest('MESSAGE_ID_INVALID');
    const chat = this.chatOf(bot, p);
    const id = p.integer('message_id');
    if (id === undefined) throw badRequest('message identifier is not specified');
    const stored = chat.messages.get(id);
    if (!stored || stored.deleted) throw badRequest('message to edit not found');
    if (!stored.fromBot) throw badRequest("message can't be edited");
    return { chat, stored };
  }

  private commitEdit(stored: StoredMessage, next: Record<string, unknown>): Message {
    const current = stored.message as unknown as Record<string, unknown>;
    const unchanged = Object.entries(next).every(([key, value]) => JSON.stringify(current[key]) === JSON.stringify(value));
    if (unchanged) {
      throw badRequest(
        'message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message',
      );
    }
    for (const [key, value] of Object.entries(next)) {
      if (value === undefined) delete current[key];
      else current[key] = value;
    }
    current.edit_date = now();
    stored.editedSeq = ++this.seq;
    this.changed();
    return stored.message;
  }

  private editMessageText(bot: FakeBot, p: Params): Message {
    const { chat, stored } = this.editable(bot, p);
    if (stored.message.text === undefined) throw badRequest('there is no text in the message to edit');
    const { text, entities } = this.formatted(p, 'text', 'entities');
    if (text === '') throw badRequest('message text is empty');
    if (text.length > MESSAGE_TEXT_LIMIT) throw badRequest('MESSAGE_TOO_LONG');
    // Without reply_markup, an edit drops the message's inline keyboard, as in Telegram.
    return this.commitEdit(stored, { text, entities: entities.length ? entities : undefined, reply_markup: this.replyMarkup(chat, p) });
  }

  private editMessageCaption(bot: FakeBot, p: Params): Message {
    const { chat, stored } = this.editable(bot, p);
    if (stored.message.photo === undefined && stored.message.video === undefined) {
      throw badRequest('there is no caption in the message to edit');
    }
    const { text, entities } = this.formatted(p, 'caption', 'caption_entities');
    if (text.length > CAPTION_LIMIT) throw badRequest('message caption is too long');
    return this.commitEdit(stored, {
      caption: text || undefined,
      caption_entities: entities.length ? entities : undefined,
      reply_markup: this.replyMarkup(chat, p),
    });
  }

  private editMessageReplyMarkup(bot: FakeBot, p: Params): Message {
    const { chat, stored } = this.editable(bot, p);
    return this.commitEdit(stored, { reply_markup: this.replyMarkup(chat, p) });
  }

  private deleteMessage(bot: FakeBot, p: Params): true {
    const chat = this.chatOf(bot, p);
    const id = p.integer('message_id');
    const stored = id === undefined ? undefined : chat.messages.get(id);
    if (!stored || stored.deleted) throw badRequest('message to delete not found');
    if (now() - stored.message.date > DELETE_WINDOW_S) throw badRequest("message can't be deleted for everyone");
    stored.deleted = true;
    stored.editedSeq = ++this.seq;
    this.changed();
    return true;
  }

  private answerCallbackQuery(bot: FakeBot, p: Params): true {
    const id = p.string('callback_query_id') ?? '';
    const record = bot.callbacks.get(id);
    if (!record || record.answered) {
      throw badRequest('query is too old and response timeout expired or query ID is invalid');
    }
    const text = p.string('text');
    if (text !== undefined && text.length > 200) throw badRequest('MESSAGE_TOO_LONG');
    record.answered = true;
    const answer: CallbackAnswer = {
      callback_query_id: id,
      ...(text !== undefined ? { text } : {}),
      ...(p.boolean('show_alert') !== undefined ? { show_alert: p.boolean('show_alert') } : {}),
      ...(p.string('url') !== undefined ? { url: p.string('url') } : {}),
      ...(p.integer('cache_time') !== undefined ? { cache_time: p.integer('cache_time') } : {}),
    };
    bot.chats.get(record.chatId)?.callbackAnswers.push(answer);
    this.changed();
    return true;
  }

  // ---------------------------------------------------------------- bot settings

  private setText(store: Map<string, string>, p: Params, key: string, limit: number): true {
    const value = p.string(key) ?? '';
    if (value.length > limit) throw badRequest(`${key.replace('_', ' ')} is too long`);
    const language = p.string('language_code') ?? '';
    if (language !== '' && !/^[a-z]{2}$/.test(language)) throw badRequest('invalid language code specified');
    if (value === '') store.delete(language);
    else store.set(language, value);
    this.changed();
    return true;
  }

  private setChatMenuButton(bot: FakeBot, p: Params): true {
    const button = validateMenuButton(p.json<MenuButton>('menu_button', 'menu button'));
    if (p.has('chat_id')) {
      this.chatOf(bot, p).menuButton = button;
    } else {
      bot.defaultMenuButton = button;
    }
    this.changed();
    return true;
  }

  private getChatMenuButton(bot: FakeBot, p: Params): MenuButton {
    const chat = p.has('chat_id') ? this.chatOf(bot, p) : undefined;
    return clone(chat?.menuButton ?? bot.defaultMenuButton ?? { type: 'commands' });
  }

  private setMyCommands(bot: FakeBot, p: Params): true {
    const commands = p.json<BotCommand[]>('commands');
    if (!Array.isArray(commands)) throw badRequest('commands must be an Array');
    if (commands.length > 100) throw badRequest('too many commands');
    for (const command of commands) {
      if (typeof command?.command !== 'string' || !/^[a-z0-9_]{1,32}$/.test(command.command)) throw badRequest('BOT_COMMAND_INVALID');
      if (typeof command.description !== 'string' || command.description.length < 1 || command.description.length > 256) {
        throw badRequest('command description must be 1-256 characters long');
      }
    }
    const key = commandsKey(p.json<BotCommandScope>('scope'), p.string('language_code'));
    if (commands.length === 0) bot.commands.delete(key);
    else bot.commands.set(key, commands.map(({ command, description }) => ({ command, description })));
    this.changed();
    return true;
  }

  // ---------------------------------------------------------------- control operations

  private changed(): void {
    this.version += 1;
    this.events.emit('change');
  }

  private botFor(token: string): FakeBot {
    const bot = this.bots.get(token);
    if (!bot) throw new ControlError(404, 'No bot with that token in the fake Bot API');
    return bot;
  }

  private summary(bot: FakeBot): BotSummary {
    return { token: bot.token, id: bot.me.id, username: bot.me.username, first_name: bot.me.first_name, revoked: bot.revoked };
  }

  /** Creates a bot, as @BotFather would. A token is generated unless one is given. */
  addBot({ token, username, first_name }: { token?: string; username: string; first_name?: string }): BotSummary {
    if (typeof username !== 'string' || !/^[A-Za-z][A-Za-z0-9_]{1,30}bot$/i.test(username)) {
      throw new ControlError(400, 'A bot username must be 5-32 letters, digits or underscores and end in "bot"');
    }
    const name = first_name?.trim() || username;
    const id = token ? Number(token.split(':')[0]) : randomInt(1_000_000_000, 8_000_000_000);
    const fullToken = token ?? `${id}:AA${randomId(26)}`;
    if (!/^\d+:[A-Za-z0-9_-]+$/.test(fullToken) || !Number.isSafeInteger(id)) {
      throw new ControlError(400, 'A token looks like 123456789:AAbcd... (digits, a colon, then letters, digits, _ or -)');
    }
    if (this.bots.has(fullToken)) throw new ControlError(409, 'A bot with this token exists already');
    if ([...this.bots.values()].some((b) => b.me.username.toLowerCase() === username.toLowerCase() || b.me.id === id)) {
      throw new ControlError(409, 'A bot with this username or id exists already');
    }
    const bot: FakeBot = {
      token: fullToken,
      me: {
        id,
        is_bot: true,
        first_name: name,
        username,
        can_join_groups: true,
        can_read_all_group_messages: false,
        supports_inline_queries: false,
        can_connect_to_business: false,
        has_main_web_app: false,
        has_topics_enabled: false,
        allows_users_to_create_topics: false,
        can_manage_bots: false,
        supports_join_request_queries: false,
      },
      revoked: false,
      updates: [],
      nextUpdateId: randomInt(100_000, 900_000),
      allowedUpdates: [],
      delivering: false,
      descriptions: new Map(),
      shortDescriptions: new Map(),
      commands: new Map(),
      chats: new Map(),
      failures: [],
      calls: [],
      callbacks: new Map(),
      freeSends: [],
      paidSends: [],
      chatSends: new Map(),
      stats: { tooMany: 0, perSecond: new Map(), maxSlidingSecond: 0, paidMessages: 0, starTenths: 0 },
      paidBroadcastEligible: false,
    };
    this.bots.set(fullToken, bot);
    this.changed();
    return this.summary(bot);
  }

  listBots(): BotSummary[] {
    return [...this.bots.values()].map((bot) => this.summary(bot));
  }

  private ensureChat(bot: FakeBot, from: Subscriber): FakeChat {
    if (!from || !Number.isSafeInteger(from.id) || from.id <= 0 || typeof from.first_name !== 'string' || from.first_name === '') {
      throw new ControlError(400, 'from must be a person: { id: positive integer, first_name, last_name?, username?, language_code? }');
    }
    const user: Subscriber = {
      id: from.id,
      first_name: from.first_name,
      ...(from.last_name ? { last_name: from.last_name } : {}),
      ...(from.username ? { username: from.username } : {}),
      ...(from.language_code ? { language_code: from.language_code } : {}),
    };
    const privateChat: Chat.PrivateChat = {
      id: user.id,
      type: 'private',
      first_name: user.first_name,
      ...(user.last_name ? { last_name: user.last_name } : {}),
      ...(user.username ? { username: user.username } : {}),
    };
    let chat = bot.chats.get(user.id);
    if (!chat) {
      chat = {
        id: user.id,
        user,
        chat: privateChat,
        messages: new Map(),
        nextMessageId: 1,
        blocked: false,
        lastUserActionSeq: 0,
        chatInstance: String(randomInt(1, 2 ** 47)) + String(randomInt(1, 2 ** 20)),
        callbackAnswers: [],
      };
      bot.chats.set(user.id, chat);
    } else {
      chat.user = user;
      chat.chat = privateChat;
    }
    return chat;
  }

  private asUser(user: Subscriber): User {
    return { is_bot: false, ...user };
  }

  /** A person writes to the bot (text, a /command, or "/start <payload>"); returns the update. */
  sendUserMessage(token: string, { from, text }: { from: Subscriber; text: string }): Update {
    const bot = this.botFor(token);
    if (typeof text !== 'string' || text.trim() === '') throw new ControlError(400, 'text must be a non-empty string');
    const chat = this.ensureChat(bot, from);
    // Writing to a bot you blocked unblocks it first (Telegram's "Restart" button).
    if (chat.blocked) this.setBlocked(token, from.id, false);
    const entities = commandEntities(text);
    const message = {
      message_id: chat.nextMessageId++,
      from: this.asUser(chat.user),
      chat: chat.chat,
      date: now(),
      text,
      ...(entities.length ? { entities } : {}),
    } as Message;
    chat.lastUserActionSeq = ++this.seq;
    chat.messages.set(message.message_id, { message, fromBot: false, deleted: false, sentSeq: chat.lastUserActionSeq, editedSeq: 0 });
    return this.pushUpdate(bot, { message: clone(message) } as Omit<Update, 'update_id'>);
  }

  /** A person presses an inline callback button under one of the bot's messages. */
  pressButton(token: string, { from, message_id, callback_data }: { from: Subscriber; message_id: number; callback_data: string }): Update {
    const bot = this.botFor(token);
    const chat = bot.chats.get(from?.id);
    const stored = chat?.messages.get(message_id);
    if (!chat || !stored || stored.deleted || !stored.fromBot) {
      throw new ControlError(404, `No message ${message_id} from the bot in the chat with ${from?.id}`);
    }
    const markup = (stored.message as { reply_markup?: InlineKeyboardMarkup }).reply_markup;
    const hasButton = markup?.inline_keyboard.some((row) =>
      row.some((button) => 'callback_data' in button && button.callback_data === callback_data),
    );
    if (!hasButton) throw new ControlError(400, `Message ${message_id} has no button with callback_data "${callback_data}"`);
    this.ensureChat(bot, from);
    const id = `${bot.me.id}${randomInt(1_000_000, 9_999_999)}${randomInt(100, 999)}`;
    bot.callbacks.set(id, { chatId: chat.id, answered: false });
    chat.lastUserActionSeq = ++this.seq;
    const callbackQuery: CallbackQuery = {
      id,
      from: this.asUser(chat.user),
      message: clone(stored.message) as CallbackQuery['message'],
      chat_instance: chat.chatInstance,
      data: callback_data,
    };
    return this.pushUpdate(bot, { callback_query: callbackQuery } as Omit<Update, 'update_id'>);
  }

  /** The person blocks (or unblocks) the bot: the bot gets my_chat_member, sends get 403. */
  setBlocked(token: string, userId: number, blocked: boolean): Update | undefined {
    const bot = this.botFor(token);
    const chat = bot.chats.get(userId);
    if (!chat) throw new ControlError(404, `No chat with ${userId}: the person has to write to the bot first`);
    if (chat.blocked === blocked) return undefined;
    chat.blocked = blocked;
    const me = this.botUser(bot);
    const member: ChatMemberUpdated = {
      chat: chat.chat,
      from: this.asUser(chat.user),
      date: now(),
      old_chat_member: blocked ? { status: 'member', user: me } : { status: 'kicked', user: me, until_date: 0 },
      new_chat_member: blocked ? { status: 'kicked', user: me, until_date: 0 } : { status: 'member', user: me },
    } as ChatMemberUpdated;
    this.changed();
    return this.pushUpdate(bot, { my_chat_member: member } as Omit<Update, 'update_id'>);
  }

  /** @BotFather's "revoke token": from now on every call with it gets 401 Unauthorized. */
  revokeToken(token: string): void {
    const bot = this.botFor(token);
    bot.revoked = true;
    bot.poll?.fail(ERRORS.unauthorized());
    bot.delivery?.abort();
    this.changed();
  }

  /**
   * @BotFather's "revoke the current token and generate a new one": the same bot (id, username,
   * chats, files) answers to a new token; the old one gets 401 Unauthorized from now on.
   */
  newToken(token: string): BotSummary {
    const bot = this.botFor(token);
    if (!bot.revoked) this.revokeToken(token);
    const fresh = `${bot.me.id}:AA${randomId(26)}`;
    this.bots.delete(token);
    bot.token = fresh;
    bot.revoked = false;
    this.bots.set(fresh, bot);
    this.changed();
    return this.summary(bot);
  }

  /** The next `count` calls (matching `methods`) fail with the given Bot API error. */
  failNextCalls(token: string, spec: FailureSpec): void {
    const bot = this.botFor(token);
    if (!Number.isInteger(spec.count) || spec.count < 1) throw new ControlError(400, 'count must be a positive integer');
    if (!Number.isInteger(spec.error_code) || typeof spec.description !== 'string') {
      throw new ControlError(400, 'error_code (integer) and description (string) are required');
    }
    bot.failures.push({
      remaining: spec.count,
      error: () => new ApiError(spec.error_code, spec.description, spec.parameters),
      methods: spec.methods ? new Set(spec.methods.map((m) => m.toLowerCase())) : undefined,
    });
    this.changed();
  }

  /**
   * An outage: for the next `ms` milliseconds every call (matching `methods`; every method but
   * getUpdates when omitted) fails with the given Bot API error, e.g. 502 Bad Gateway.
   */
  failCallsFor(token: string, { ms, ...spec }: Omit<FailureSpec, 'count'> & { ms: number }): void {
    const bot = this.botFor(token);
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

  /** Everything in a chat, both ways, oldest first (deleted messages flagged, not dropped). */
  chatMessages(token: string, chatId: number): ChatEntry[] {
    const chat = this.botFor(token).chats.get(chatId);
    if (!chat) return [];
    return [...chat.messages.values()].map((m) => ({
      message: clone(m.message),
      from_bot: m.fromBot,
      deleted: m.deleted,
      sent_seq: m.sentSeq,
      edited_seq: m.editedSeq,
    }));
  }

  /** What the bot has sent to a chat and not deleted, as it looks now (after edits). */
  botMessages(token: string, chatId: number): Message[] {
    return this.chatMessages(token, chatId)
      .filter((entry) => entry.from_bot && !entry.deleted)
      .map((entry) => entry.message);
  }

  chatSnapshot(token: string, chatId: number): ChatSnapshot {
    const bot = this.botFor(token);
    const chat = bot.chats.get(chatId);
    if (!chat) throw new ControlError(404, `No chat with ${chatId} yet`);
    return {
      id: chat.id,
      user: clone(chat.user),
      blocked: chat.blocked,
      menu_button: clone(chat.menuButton ?? bot.defaultMenuButton ?? { type: 'commands' }),
      reply_keyboard: chat.replyKeyboard ? clone(chat.replyKeyboard) : null,
      entries: this.chatMessages(token, chatId),
      callback_answers: clone(chat.callbackAnswers),
    };
  }

  botState(token: string): BotStateSnapshot {
    const bot = this.botFor(token);
    return {
      ...this.summary(bot),
      me: clone(bot.me),
      webhook: { ...this.webhookInfo(bot), ...(bot.webhook?.secret_token ? { secret_token: bot.webhook.secret_token } : {}) },
      polling: bot.poll !== undefined,
      pending_update_count: bot.updates.length,
      default_menu_button: clone(bot.defaultMenuButton ?? { type: 'commands' }),
      descriptions: Object.fromEntries(bot.descriptions),
      short_descriptions: Object.fromEntries(bot.shortDescriptions),
      commands: clone(Object.fromEntries(bot.commands)),
      chats: [...bot.chats.values()].map((chat) => ({
        id: chat.id,
        user: clone(chat.user),
        blocked: chat.blocked,
        ...(chat.menuButton ? { menu_button: clone(chat.menuButton) } : {}),
        message_count: chat.messages.size,
      })),
      injected_failures: bot.failures.reduce((n, f) => n + f.remaining, 0),
    };
  }

  /** The bot's latest Bot API calls (up to CALL_LOG_LIMIT), oldest first (optionally only one method). */
  calls(token: string, method?: string): ApiCall[] {
    const all = this.botFor(token).calls;
    return clone(method ? all.filter((c) => c.method.toLowerCase() === method.toLowerCase()) : all);
  }

  /** Resolves once `check` returns a value, re-checking after every change; rejects on timeout. */
  private waitUntil<T>(check: () => T | undefined, timeoutMs: number, describe: () => string): Promise<T> {
    const first = check();
    if (first !== undefined) return Promise.resolve(first);
    return new Promise<T>((resolve, reject) => {
      const onEvent = () => {
        const value = check();
        if (value !== undefined) {
          cleanup();
          resolve(value);
        }
      };
      const cleanup = () => {
        clearTimeout(timer);
        this.events.off('change', onEvent);
        this.events.off('call', onEvent);
        this.events.off('close', onClose);
      };
      const onClose = () => {
        cleanup();
        reject(new Error('The fake Bot API was closed while waiting'));
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`Timed out after ${timeoutMs} ms waiting for ${describe()}`));
      }, timeoutMs);
      this.events.on('change', onEvent);
      this.events.on('call', onEvent);
      this.events.on('close', onClose);
    });
  }

  /** What went wrong lately for a bot, to make a timeout's message useful. */
  private recentTrouble(bot: FakeBot): string {
    const failed = bot.calls.filter((c) => !c.ok).slice(-3);
    return failed.length ? `; its last failed calls: ${failed.map((c) => `${c.method} → ${c.error_code} ${c.description}`).join('; ')}` : '';
  }

  /**
   * Waits until the bot sends (by default: after the person's latest action in that chat) a
   * message matching `predicate`, and returns it.
   */
  waitForBotMessage(token: string, chatId: number, options: WaitForBotMessageOptions = {}): Promise<Message> {
    const bot = this.botFor(token);
    const since = options.since === 'any' ? 0 : (bot.chats.get(chatId)?.lastUserActionSeq ?? 0);
    const check = () => {
      const chat = bot.chats.get(chatId);
      if (!chat) return undefined;
      const matches = [...chat.messages.values()]
        .filter((m) => m.fromBot && !m.deleted)
        .filter((m) => m.sentSeq > since || (options.includeEdits === true && m.editedSeq > since))
        .filter((m) => !options.predicate || options.predicate(clone(m.message)))
        .sort((a, b) => Math.max(a.sentSeq, a.editedSeq) - Math.max(b.sentSeq, b.editedSeq));
      return matches.length ? clone(matches[0].message) : undefined;
    };
    return this.waitUntil(check, options.timeoutMs ?? 5000, () => {
      const sent = this.botMessages(token, chatId).map((m) => JSON.stringify(m.text ?? m.caption ?? '(media)'));
      return `a message from @${bot.me.username} in chat ${chatId} (it has sent there: ${sent.join(', ') || 'nothing'})${this.recentTrouble(bot)}`;
    });
  }

  /** Waits until the bot answers the callback query (the toast or alert a person sees). */
  waitForCallbackAnswer(token: string, callbackQueryId: string, options: WaitOptions = {}): Promise<CallbackAnswer> {
    const bot = this.botFor(token);
    const check = () => {
      for (const chat of bot.chats.values()) {
        const answer = chat.callbackAnswers.find((a) => a.callback_query_id === callbackQueryId);
        if (answer) return clone(answer);
      }
      return undefined;
    };
    return this.waitUntil(check, options.timeoutMs ?? 5000, () => `an answer to callback query ${callbackQueryId}${this.recentTrouble(bot)}`);
  }

  /** Waits until the bot has called `method` (any earlier call counts) matching `predicate`. */
  waitForCall(token: string, method: string, options: WaitOptions & { predicate?: (call: ApiCall) => boolean } = {}): Promise<ApiCall> {
    const bot = this.botFor(token);
    const check = () => {
      const call = bot.calls.find((c) => c.method.toLowerCase() === method.toLowerCase() && (!options.predicate || options.predicate(c)));
      return call ? clone(call) : undefined;
    };
    return this.waitUntil(check, options.timeoutMs ?? 5000, () => `a ${method} call from @${bot.me.username}`);
  }

  /** Waits until `check(botState)` holds, e.g. a long poll is waiting or the queue is empty. */
  waitForBotState(token: string, check: (state: BotStateSnapshot) => boolean, options: WaitOptions = {}): Promise<BotStateSnapshot> {
    return this.waitUntil(
      () => {
        const state = this.botState(token);
        return check(state) ? state : undefined;
      },
      options.timeoutMs ?? 5000,
      () => `a bot state condition (now: polling=${this.botState(token).polling}, pending=${this.botState(token).pending_update_count})`,
    );
  }

  /** Forgets every bot, chat and file. */
  reset(): void {
    for (const bot of this.bots.values()) {
      bot.poll?.fail(ERRORS.unauthorized());
      bot.delivery?.abort();
      bot.webhook = undefined;
    }
    this.bots.clear();
    this.files.clear();
    this.filesByPath.clear();
    this.changed();
  }

  /** Stops webhook deliveries and ends waiting long polls; the HTTP server closes separately. */
  shutdown(): void {
    this.closed = true;
    for (const bot of this.bots.values()) {
      bot.poll?.deliver();
      bot.delivery?.abort();
    }
    this.events.emit('close');
  }
}
