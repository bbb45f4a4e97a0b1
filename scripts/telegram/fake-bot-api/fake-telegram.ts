// The state and behaviour of the fake Telegram: bots, their chats with people, the update
// queue (long polling and webhooks), the Bot API methods, and the control operations tests
// and a person use to play the other side of a chat. No HTTP here; see ../fake-bot-api.ts.
// This class keeps the Bot API entry (the method table; injected failures and the limits before
// a handler) and the bots' life (@BotFather's side); each other concern is a module of this
// folder that gets the shared FakeState: limits, failures, updates, messages, files, settings,
// people, snapshots.
import { randomInt } from 'node:crypto';
import type { EventEmitter } from 'node:events';
import type { BotCommandScope, Message, Update } from 'grammy/types';
import { failure, InjectedFailures } from './failures';
import { MediaFiles } from './files';
import { SENDING_METHODS, SendingLimits } from './limits';
import { ChatMessages } from './messages';
import {
  type ApiCall,
  type ApiOutcome,
  BOT_MESSAGES_PER_SECOND,
  type BotStateSnapshot,
  type BotSummary,
  CALL_LOG_LIMIT,
  type CallbackAnswer,
  CHAT_BURST,
  CHAT_WINDOW_MS,
  type ChatEntry,
  type ChatSnapshot,
  ControlError,
  Described,
  DESCRIPTION_LIMIT,
  ERRORS,
  type FailureSpec,
  type FakeBot,
  type FakeTelegramOptions,
  type Handler,
  type LimitStats,
  randomId,
  type SendLimits,
  SHORT_DESCRIPTION_LIMIT,
  type StoredFile,
  type Subscriber,
  type WaitForBotMessageOptions,
  type WaitOptions,
} from './model';
import { type PaymentOutcome, PRE_CHECKOUT_TIMEOUT_MS, StarPayments } from './payments';
import { People } from './people';
import { readStateFile, restoreState, saveStateOnChange } from './persistence';
import { ApiError, type Params } from './request-body';
import { BotSettings, commandsKey } from './settings';
import { Snapshots } from './snapshots';
import { FakeState } from './state';
import { UpdateQueues } from './updates';

export {
  BOT_MESSAGES_PER_SECOND,
  CALL_LOG_LIMIT,
  CALLBACK_DATA_LIMIT_BYTES,
  CAPTION_LIMIT,
  CHAT_BURST,
  CHAT_WINDOW_MS,
  ControlError,
  DELETE_WINDOW_S,
  DESCRIPTION_LIMIT,
  ERRORS,
  MESSAGE_TEXT_LIMIT,
  PAID_MESSAGES_PER_SECOND,
  PHOTO_UPLOAD_LIMIT_BYTES,
  SHORT_DESCRIPTION_LIMIT,
  UPLOAD_LIMIT_BYTES,
} from './model';
export type {
  ApiCall,
  ApiOutcome,
  BotStateSnapshot,
  BotSummary,
  CallbackAnswer,
  ChatEntry,
  ChatSnapshot,
  FailureSpec,
  FakeTelegramOptions,
  LimitStats,
  SendLimits,
  Subscriber,
  WaitForBotMessageOptions,
  WaitOptions,
} from './model';

export class FakeTelegram {
  /** Emits 'change' after anything in any bot or chat changed. */
  readonly events: EventEmitter;
  readonly limits: SendLimits;
  private readonly state: FakeState;
  private readonly handlers: Record<string, Handler>;
  private readonly sendingLimits: SendingLimits;
  private readonly failures: InjectedFailures;
  private readonly updates: UpdateQueues;
  private readonly messages: ChatMessages;
  private readonly media: MediaFiles;
  private readonly settings: BotSettings;
  private readonly people: People;
  private readonly snapshots: Snapshots;
  private readonly payments: StarPayments;

  constructor(options: FakeTelegramOptions = {}) {
    this.limits = { enabled: true, botPerSecond: BOT_MESSAGES_PER_SECOND, chatBurst: CHAT_BURST, chatWindowMs: CHAT_WINDOW_MS, ...options.limits };
    this.state = new FakeState(this.limits, options.webhookRetryMs ?? 1000, options.webhookTimeoutMs ?? 10_000);
    this.events = this.state.events;
    this.sendingLimits = new SendingLimits(this.state);
    this.failures = new InjectedFailures(this.state);
    this.updates = new UpdateQueues(this.state, (token, method, params) => this.callMethod(token, method, params));
    this.messages = new ChatMessages(this.state);
    this.media = new MediaFiles(this.state, this.messages);
    this.settings = new BotSettings(this.state, this.messages);
    this.people = new People(this.state, this.updates);
    this.snapshots = new Snapshots(this.state, this.updates);
    this.payments = new StarPayments(this.state, this.updates, this.people, options.preCheckoutTimeoutMs ?? PRE_CHECKOUT_TIMEOUT_MS);
    const h: Record<string, Handler> = {
      getMe: (bot) => bot.me,
      getUpdates: (bot, p, signal) => this.updates.getUpdates(bot, p, signal),
      setWebhook: (bot, p) => this.updates.setWebhook(bot, p),
      deleteWebhook: (bot, p) => this.updates.deleteWebhook(bot, p),
      getWebhookInfo: (bot) => this.updates.webhookInfo(bot),
      sendMessage: (bot, p) => this.messages.sendMessage(bot, p),
      sendPhoto: (bot, p) => this.media.sendMedia(bot, p, 'photo'),
      sendVideo: (bot, p) => this.media.sendMedia(bot, p, 'video'),
      sendChatAction: (bot, p) => {
        this.messages.writableChat(bot, p);
        return true;
      },
      answerCallbackQuery: (bot, p) => this.messages.answerCallbackQuery(bot, p),
      editMessageText: (bot, p) => this.messages.editMessageText(bot, p),
      editMessageCaption: (bot, p) => this.messages.editMessageCaption(bot, p),
      editMessageReplyMarkup: (bot, p) => this.messages.editMessageReplyMarkup(bot, p),
      deleteMessage: (bot, p) => this.messages.deleteMessage(bot, p),
      setMyDescription: (bot, p) => this.settings.setText(bot.descriptions, p, 'description', DESCRIPTION_LIMIT),
      getMyDescription: (bot, p) => ({ description: bot.descriptions.get(p.string('language_code') ?? '') ?? '' }),
      setMyShortDescription: (bot, p) => this.settings.setText(bot.shortDescriptions, p, 'short_description', SHORT_DESCRIPTION_LIMIT),
      getMyShortDescription: (bot, p) => ({
        short_description: bot.shortDescriptions.get(p.string('language_code') ?? '') ?? '',
      }),
      setChatMenuButton: (bot, p) => this.settings.setChatMenuButton(bot, p),
      getChatMenuButton: (bot, p) => this.settings.getChatMenuButton(bot, p),
      setMyCommands: (bot, p) => this.settings.setMyCommands(bot, p),
      getMyCommands: (bot, p) =>
        bot.commands.get(commandsKey(p.json<BotCommandScope>('scope'), p.string('language_code'))) ?? [],
      deleteMyCommands: (bot, p) => {
        bot.commands.delete(commandsKey(p.json<BotCommandScope>('scope'), p.string('language_code')));
        this.state.changed();
        return true;
      },
      getFile: (bot, p) => this.media.getFile(bot, p),
      createInvoiceLink: (bot, p) => this.payments.createInvoiceLink(bot, p),
      sendInvoice: (bot, p) => this.payments.sendInvoice(bot, p, this.messages),
      answerPreCheckoutQuery: (bot, p) => this.payments.answerPreCheckoutQuery(bot, p),
      refundStarPayment: (bot, p) => this.payments.refundStarPayment(bot, p),
      editUserStarSubscription: (bot, p) => this.payments.editUserStarSubscription(bot, p),
      getStarTransactions: (bot, p) => this.payments.getStarTransactions(bot, p),
    };
    // Telegram matches method names case-insensitively.
    this.handlers = Object.fromEntries(Object.entries(h).map(([name, handler]) => [name.toLowerCase(), handler]));
  }

  // ---------------------------------------------------------------- Bot API entry

  /** Runs one Bot API call for a token, as the HTTP route /bot<token>/<method> does. */
  async callMethod(token: string, method: string, params: Params, signal: AbortSignal = new AbortController().signal): Promise<ApiOutcome> {
    const bot = this.state.bots.get(token);
    if (!bot || bot.revoked) return failure(ERRORS.unauthorized());
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
    if (!handler) return failure(ERRORS.notFound());
    const injected = this.failures.takeInjectedFailure(bot, method);
    if (injected) return failure(injected);
    const sending = SENDING_METHODS.has(method.toLowerCase()) && this.limits.enabled;
    const paid = sending && params.boolean('allow_paid_broadcast') === true;
    if (sending) {
      const refused = this.sendingLimits.overLimit(bot, params, paid);
      if (refused) return failure(refused);
    }
    try {
      const result = await handler(bot, params, signal);
      if (sending) this.sendingLimits.countSend(bot, params, paid);
      if (result instanceof Described) return { ok: true, result: result.result, description: result.description };
      return { ok: true, result };
    } catch (error) {
      if (error instanceof ApiError) return failure(error);
      throw error;
    }
  }

  /** Bumped on every change; the web page long-polls on it. */
  get version(): number {
    return this.state.version;
  }

  // ---------------------------------------------------------------- sending limits

  /** What the sending limits saw for a bot. */
  limitStats(token: string): LimitStats {
    return this.sendingLimits.limitStats(token);
  }

  /** Telegram lets only some bots use allow_paid_broadcast (enough Stars and users). */
  setPaidBroadcastEligible(token: string, eligible: boolean): void {
    this.sendingLimits.setPaidBroadcastEligible(token, eligible);
  }

  /** Makes every message of the bot look `seconds` older (for the 48-hour delete rule). */
  ageMessages(token: string, seconds: number): void {
    this.messages.ageMessages(token, seconds);
  }

  // ---------------------------------------------------------------- files

  /** The bytes behind /file/bot<token>/<file_path>. */
  download(token: string, filePath: string): StoredFile | undefined {
    return this.media.download(token, filePath);
  }

  /** A stored file by file_id, for the web page (no token needed: the page is local). */
  fileById(fileId: string): StoredFile | undefined {
    return this.media.fileById(fileId);
  }

  // ---------------------------------------------------------------- a person's side

  /** A person writes to the bot (text, a /command, or "/start <payload>"); returns the update. */
  sendUserMessage(token: string, message: { from: Subscriber; text: string }): Update {
    return this.people.sendUserMessage(token, message);
  }

  /** A person taps a button of the bot's reply keyboard (text, or their own contact). */
  pressReplyButton(token: string, press: { from: Subscriber; text: string; phone_number?: string }): Update {
    return this.people.pressReplyButton(token, press);
  }

  /** A person presses an inline callback button under one of the bot's messages. */
  pressButton(token: string, press: { from: Subscriber; message_id: number; callback_data: string }): Update {
    return this.people.pressButton(token, press);
  }

  /** The person blocks (or unblocks) the bot: the bot gets my_chat_member, sends get 403. */
  setBlocked(token: string, userId: number, blocked: boolean): Update | undefined {
    return this.people.setBlocked(token, userId, blocked);
  }

  // ---------------------------------------------------------------- Stars payments

  /**
   * The person pays an invoice link (from createInvoiceLink): the bot gets pre_checkout_query,
   * and on its ok within 10 s a successful_payment message; 'failed' on a refusal or no answer.
   */
  payInvoice(payment: { link: string; userId: number }): Promise<PaymentOutcome> {
    return this.payments.payInvoice(payment);
  }

  /** The person pays an invoice message of the bot in their chat (sendInvoice): as payInvoice. */
  payInvoiceMessage(payment: { token: string; chatId: number; messageId: number }): Promise<PaymentOutcome> {
    return this.payments.payInvoiceMessage(payment);
  }

  /** Telegram charges the next period of the subscription that charge belongs to (not if cancelled). */
  renewSubscription(renewal: { chargeId: string }): PaymentOutcome {
    return this.payments.renewSubscription(renewal);
  }

  /** Telegram refunds a charge by itself: the bot gets refunded_payment. */
  refundPayment(refund: { chargeId: string }): void {
    this.payments.refundPayment(refund);
  }

  /**
   * Telegram delivers a message of the chat to the bot again, as a new update (what a bot sees
   * when it died before confirming an update): for proving that handling is idempotent.
   */
  redeliverMessage(token: string, chatId: number, messageId: number): Update {
    return this.payments.redeliverMessage(token, chatId, messageId);
  }

  /** A subscription (by any of its charge ids) as Telegram sees it: cancelled, ended (refunded), paid to. */
  starSubscription(chargeId: string): { canceled: boolean; ended: boolean; expiresAt: number } | undefined {
    return this.payments.subscriptionState(chargeId);
  }

  // ---------------------------------------------------------------- failure injection

  /** The next `count` calls (matching `methods`) fail with the given Bot API error. */
  failNextCalls(token: string, spec: FailureSpec): void {
    this.failures.failNextCalls(token, spec);
  }

  /**
   * An outage: for the next `ms` milliseconds every call (matching `methods`; every method but
   * getUpdates when omitted) fails with the given Bot API error, e.g. 502 Bad Gateway.
   */
  failCallsFor(token: string, outage: Omit<FailureSpec, 'count'> & { ms: number }): void {
    this.failures.failCallsFor(token, outage);
  }

  /** The next `calls` calls (every method but getUpdates, unless `methods`) get 429 with retry_after. */
  rateLimit(token: string, limit: { calls: number; retryAfter: number; methods?: string[] }): void {
    this.failures.rateLimit(token, limit);
  }

  // ---------------------------------------------------------------- snapshots and waits

  /** Everything in a chat, both ways, oldest first (deleted messages flagged, not dropped). */
  chatMessages(token: string, chatId: number): ChatEntry[] {
    return this.snapshots.chatMessages(token, chatId);
  }

  /** What the bot has sent to a chat and not deleted, as it looks now (after edits). */
  botMessages(token: string, chatId: number): Message[] {
    return this.snapshots.botMessages(token, chatId);
  }

  chatSnapshot(token: string, chatId: number): ChatSnapshot {
    return this.snapshots.chatSnapshot(token, chatId);
  }

  botState(token: string): BotStateSnapshot {
    return this.snapshots.botState(token);
  }

  /** The bot's latest Bot API calls (up to CALL_LOG_LIMIT), oldest first (optionally only one method). */
  calls(token: string, method?: string): ApiCall[] {
    return this.snapshots.calls(token, method);
  }

  /**
   * Waits until the bot sends (by default: after the person's latest action in that chat) a
   * message matching `predicate`, and returns it.
   */
  waitForBotMessage(token: string, chatId: number, options: WaitForBotMessageOptions = {}): Promise<Message> {
    return this.snapshots.waitForBotMessage(token, chatId, options);
  }

  /** Waits until the bot answers the callback query (the toast or alert a person sees). */
  waitForCallbackAnswer(token: string, callbackQueryId: string, options: WaitOptions = {}): Promise<CallbackAnswer> {
    return this.snapshots.waitForCallbackAnswer(token, callbackQueryId, options);
  }

  /** Waits until the bot has called `method` (any earlier call counts) matching `predicate`. */
  waitForCall(token: string, method: string, options: WaitOptions & { predicate?: (call: ApiCall) => boolean } = {}): Promise<ApiCall> {
    return this.snapshots.waitForCall(token, method, options);
  }

  /** Waits until `check(botState)` holds, e.g. a long poll is waiting or the queue is empty. */
  waitForBotState(token: string, check: (state: BotStateSnapshot) => boolean, options: WaitOptions = {}): Promise<BotStateSnapshot> {
    return this.snapshots.waitForBotState(token, check, options);
  }

  // ---------------------------------------------------------------- the bots (@BotFather)

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
    if (this.state.bots.has(fullToken)) throw new ControlError(409, 'A bot with this token exists already');
    if ([...this.state.bots.values()].some((b) => b.me.username.toLowerCase() === username.toLowerCase() || b.me.id === id)) {
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
    this.state.bots.set(fullToken, bot);
    this.state.changed();
    return this.state.summary(bot);
  }

  listBots(): BotSummary[] {
    return [...this.state.bots.values()].map((bot) => this.state.summary(bot));
  }

  /** @BotFather's "revoke token": from now on every call with it gets 401 Unauthorized. */
  revokeToken(token: string): void {
    const bot = this.state.botFor(token);
    bot.revoked = true;
    bot.poll?.fail(ERRORS.unauthorized());
    bot.delivery?.abort();
    this.state.changed();
  }

  /**
   * @BotFather's "revoke the current token and generate a new one": the same bot (id, username,
   * chats, files) answers to a new token; the old one gets 401 Unauthorized from now on.
   */
  newToken(token: string): BotSummary {
    const bot = this.state.botFor(token);
    if (!bot.revoked) this.revokeToken(token);
    const fresh = `${bot.me.id}:AA${randomId(26)}`;
    this.state.bots.delete(token);
    bot.token = fresh;
    bot.revoked = false;
    this.state.bots.set(fresh, bot);
    this.state.changed();
    return this.state.summary(bot);
  }

  /** Forgets every bot, chat and file. */
  reset(): void {
    for (const bot of this.state.bots.values()) {
      bot.poll?.fail(ERRORS.unauthorized());
      bot.delivery?.abort();
      bot.webhook = undefined;
    }
    this.state.bots.clear();
    this.payments.reset();
    this.state.files.clear();
    this.state.filesByPath.clear();
    this.state.changed();
  }

  /**
   * Loads the state saved in `file` (when there is one) and saves every change there from now on
   * (see ./persistence.ts); `flush` writes the last changes and stops saving.
   */
  keepStateIn(file: string): { flush(): void } {
    const saved = readStateFile(file);
    if (saved) for (const bot of restoreState(this.state, saved)) this.updates.startDelivery(bot);
    return saveStateOnChange(this.state, file);
  }

  /** Stops webhook deliveries and ends waiting long polls; the HTTP server closes separately. */
  shutdown(): void {
    this.state.closed = true;
    for (const bot of this.state.bots.values()) {
      bot.poll?.deliver();
      bot.delivery?.abort();
    }
    this.events.emit('close');
  }
}
