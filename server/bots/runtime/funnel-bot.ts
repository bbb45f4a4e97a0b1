// One running funnel's bot: a grammY Bot (auto-retry for 429s, per bot) with the funnel's
// behaviours, fed either by its own lean long-polling loop or by the webhook route. Every update
// is claimed in handled_updates before it has any effect (by the behaviour that handles it, in
// the same statement as its first write where it can), so none is handled twice. An update the
// database could not take (it is down) is not left behind: polling asks for it again, and a
// webhook delivery is answered 503 so Telegram delivers it again.
import { type Bot, type BotError, type Context, type Transformer } from 'grammy';
import type { Update, UserFromGetMe } from 'grammy/types';
import type { FunnelRow } from '../../db/schema';
import { createBot, describeBotApiError } from '../../telegram/client';
import { type UpdateReceived, updateReceived } from '../../telegram/diagnostics';
import { askBehaviour } from './behaviours/ask';
import { choiceBehaviour } from './behaviours/choice';
import { historyBehaviour } from './behaviours/history';
import { keywordBehaviour } from './behaviours/keyword';
import { membershipBehaviour } from './behaviours/membership';
import { nextStepBehaviour } from './behaviours/next-step';
import { paymentBehaviour } from './behaviours/payment';
import { startBehaviour } from './behaviours/start';
import {
  isDatabaseUnavailable,
  isUnauthorized,
  jittered,
  PersonBlockedError,
  sleep,
  type FunnelContext,
  type RuntimeLog,
} from './funnel-context';
import type { RuntimeStore } from './store';
import { type BotRateLimiter, PREPAID_SLOT, type PrepaidSlot, type SendTicket } from '../../telegram/rate-limiter';
import { deliverReplies, ReplyQueue } from './replies';
import type { AdoptedReply } from './store';
import { DATABASE_RETRY_MAX_MS, DATABASE_RETRY_MIN_MS } from '../../db/retry';
import { TelegramReachability } from './reachability';

/**
 * An update's handling waits this long for its reply to go: enough for the first retries of a
 * hiccup. A reply still waiting out an outage of Telegram after that goes on in the background
 * (its update is taken: it is in the outbox), so one chat Telegram keeps refusing does not hold up
 * the bot's other updates.
 */
export const UPDATE_WAITS_FOR_REPLY_MS = 5_000;

/** The updates a funnel's bot asks Telegram for. */
export const FUNNEL_ALLOWED_UPDATES = ['message', 'callback_query', 'my_chat_member', 'pre_checkout_query'] as const;
/** Long polling: how long one getUpdates waits for news. */
export const POLL_TIMEOUT_S = 30;
/** Per-request timeout: above the long poll. */
const API_TIMEOUT_S = POLL_TIMEOUT_S + 30;
/**
 * Backoff while Telegram cannot be reached (first, then doubled up to max, each jittered): capped
 * at a few seconds, so the bot answers again within about that long of Telegram coming back.
 */
export const POLL_RETRY_MIN_MS = 1_000;
export const POLL_RETRY_MAX_MS = 3_000;
/**
 * funnels.update_offset is written at most this often per polling bot (and when it stops). It
 * only says where to ask from after a restart: Telegram drops the updates a getUpdates has
 * confirmed anyway, and handled_updates skips any it sends again.
 */
export const OFFSET_SAVE_MS = 10_000;

export interface FunnelBotOptions {
  funnel: FunnelRow;
  token: string;
  apiRoot: string;
  store: RuntimeStore;
  log: RuntimeLog;
  /** Telegram refused the token (401): the runtime stops the funnel. Called once. */
  onRevoked(funnelId: number): void;
  pollRetryMinMs?: number;
  /** Waits between attempts of a call to a person after a network failure or a 5xx. */
  sendRetryDelaysMs?: readonly number[];
  /** How long a reply may wait for Telegram before it is given up (tests shorten it). */
  replyGiveUpMs?: number;
  alertOwner?: FunnelContext['alertOwner'];
  /** The bot's sending rate, shared with its mailings (replies take the next free slot first). */
  limiter?: BotRateLimiter;
  /** Failures alone for this long make the bot "cannot reach Telegram" (tests shorten it). */
  unreachableAfterMs?: number;
}

/** Bot API methods that send a message to a chat: they count against the bot's rate. */
const SENDING_METHODS = new Set(['sendMessage', 'sendPhoto', 'sendVideo', 'sendDocument', 'sendAnimation', 'copyMessage', 'forwardMessage', 'sendInvoice']);

/** The identity grammY needs to match "/start@name": known from the funnel row, so no getMe. */
function botInfoOf(funnel: FunnelRow): UserFromGetMe {
  return {
    id: funnel.botId,
    is_bot: true,
    first_name: funnel.botUsername,
    username: funnel.botUsername,
    can_join_groups: false,
    can_read_all_group_messages: false,
    supports_inline_queries: false,
    can_connect_to_business: false,
    has_main_web_app: false,
  } as UserFromGetMe;
}


/** Whose update this is: updates of one person are handled in order. */
function personKey(update: Update): number | string {
  return (
    update.message?.from?.id ??
    update.callback_query?.from.id ??
    update.my_chat_member?.from.id ??
    update.pre_checkout_query?.from.id ??
    `update ${update.update_id}`
  );
}

export class FunnelBot {
  readonly funnelId: number;
  /** The token this bot runs with (a replaced token restarts it). */
  readonly tokenHash: string;
  readonly bot: Bot;
  /** Whether its calls reach Telegram (the funnel's API shows "cannot reach Telegram since"). */
  readonly reachability: TelegramReachability;
  private readonly abort = new AbortController();
  private readonly inFlight = new Set<Promise<void>>();
  private loop: Promise<void> | undefined;
  private revoked = false;
  /** The last update handled by polling, what is saved in funnels.update_offset, and when. */
  private offsetToSave = 0;
  private offsetSaved = 0;
  private offsetSavedAt = 0;
  private offsetTimer: NodeJS.Timeout | undefined;
  private offsetSaving: Promise<void> | undefined;
  private readonly fc: FunnelContext;

  constructor(private readonly options: FunnelBotOptions) {
    const { funnel, token, apiRoot, store, log } = options;
    this.funnelId = funnel.id;
    this.tokenHash = funnel.botTokenHash ?? '';
    const limiter = options.limiter;
    // Inside auto-retry: every attempt, a retry after a 429 too, sends in a slot of the bot's rate
    // (ahead of any mailing) and holds Telegram's window until the answer, as mailings do
    // (rate-limiter.ts, untilDone): a request that leaves late can then not crowd a second. A
    // 429 holds back the bot's mailings as well.
    const paced: Transformer = async (prev, method, payload, signal) => {
      if (!limiter || !SENDING_METHODS.has(method)) return prev(method, payload, signal);
      // A reply took its slot before its claim (replies.ts): its first attempt sends in it.
      const slot = (payload as { [PREPAID_SLOT]?: PrepaidSlot } | undefined)?.[PREPAID_SLOT];
      let ticket: SendTicket;
      if (slot && !slot.used) {
        slot.used = true;
        ticket = slot.ticket;
      } else ticket = await limiter.take('reply', undefined, true);
      try {
        const result = await prev(method, payload, signal);
        if (!result.ok && result.error_code === 429) limiter.pauseFor(result.parameters?.retry_after ?? 1);
        return result;
      } finally {
        ticket.done();
      }
    };
    this.reachability = new TelegramReachability(options.unreachableAfterMs);
    const observed = this.reachability.observer();
    this.bot = createBot(token, {
      apiRoot,
      botInfo: botInfoOf(funnel),
      timeoutSeconds: API_TIMEOUT_S,
      perAttempt: limiter ? [observed, paced] : [observed],
    });
    const replies = new ReplyQueue();
    const fc: FunnelContext = {
      funnelId: funnel.id,
      store,
      log,
      signal: this.abort.signal,
      sendRetryDelaysMs: options.sendRetryDelaysMs,
      replyGiveUpMs: options.replyGiveUpMs,
      alertOwner: options.alertOwner,
      limiter,
      deliver: (target) => this.awaitBriefly(replies.run(target.personId, (waited) => deliverReplies(fc, this.bot.api, target, waited))),
    };
    this.fc = fc;
    const onError = (error: BotError<Context>) => this.onUpdateError(error.error, error.ctx.update.update_id);
    this.bot.errorBoundary(
      onError,
      startBehaviour(fc),
      nextStepBehaviour(fc),
      choiceBehaviour(fc),
      membershipBehaviour(fc),
      askBehaviour(fc),
      keywordBehaviour(fc),
      paymentBehaviour(fc),
      historyBehaviour(fc),
    );
    this.bot.catch(onError);
  }

  get stopped(): boolean {
    return this.abort.signal.aborted;
  }

  private describe(error: unknown): string {
    return describeBotApiError(error, this.options.token);
  }

  /**
   * What went wrong with an update. The database being unreachable is thrown on: the update was
   * not taken (its claim is in the statement that failed), so it must not be left behind
   * (handleUpdate rejects; polling asks for it again, a webhook delivery is answered 503).
   */
  private onUpdateError(error: unknown, updateId: number): void {
    if (isDatabaseUnavailable(error)) {
      this.options.log.warn({ funnel_id: this.funnelId, update_id: updateId }, `funnel bot could not handle an update yet, the database is unavailable: ${this.describe(error)}`);
      throw error;
    }
    if (error instanceof PersonBlockedError) {
      this.options.log.info({ funnel_id: this.funnelId, update_id: updateId }, 'the person blocked the bot; marked blocked');
    } else if (isUnauthorized(error)) {
      this.tokenRevoked();
    } else {
      this.options.log.error({ funnel_id: this.funnelId, update_id: updateId }, `funnel bot could not handle an update: ${this.describe(error)}`);
    }
  }

  /** Waits for a reply's delivery up to UPDATE_WAITS_FOR_REPLY_MS; after that it goes on alone (waited for when the bot stops). */
  private async awaitBriefly(delivery: Promise<void>): Promise<void> {
    this.inFlight.add(delivery);
    void delivery.then(
      () => this.inFlight.delete(delivery),
      () => this.inFlight.delete(delivery),
    );
    let timer: NodeJS.Timeout | undefined;
    const patience = new Promise<'later'>((resolve) => (timer = setTimeout(() => resolve('later'), UPDATE_WAITS_FOR_REPLY_MS)));
    try {
      if ((await Promise.race([delivery, patience])) !== 'later') return;
    } finally {
      clearTimeout(timer);
    }
    delivery.catch((error: unknown) => {
      if (error instanceof PersonBlockedError || isUnauthorized(error)) return this.onUpdateError(error, 0);
      this.options.log.error({ funnel_id: this.funnelId }, `could not send a reply: ${this.describe(error)}`);
    });
  }

  private tokenRevoked(): void {
    if (this.revoked) return;
    this.revoked = true;
    this.options.log.warn({ funnel_id: this.funnelId }, 'Telegram refused the bot token (401): the funnel stops');
    this.abort.abort();
    this.options.onRevoked(this.funnelId);
  }

  private published(updates: Update[]): void {
    const at = performance.now();
    for (const update of updates) {
      const chatId = update.message?.chat.type === 'private' ? update.message.chat.id : update.callback_query?.from.id;
      const received: UpdateReceived = { botId: this.options.funnel.botId ?? 0, chatId, updateId: update.update_id, at };
      updateReceived.publish(received);
    }
  }

  /**
   * A webhook delivery: handled now (the behaviours skip an update handled before, by any
   * process), and waited for when the bot stops. Rejects when the update could not be taken (the
   * database is unavailable): Telegram must deliver it again.
   */
  async handleDelivered(update: Update): Promise<void> {
    if (updateReceived.hasSubscribers) this.published([update]);
    const work = this.bot.handleUpdate(update);
    this.inFlight.add(work);
    try {
      await work;
    } finally {
      this.inFlight.delete(work);
    }
  }

  /** Long polling from the update after `lastHandled` (funnels.update_offset). */
  startPolling(lastHandled: number): void {
    this.loop ??= this.poll(lastHandled);
  }

  private async poll(lastHandled: number): Promise<void> {
    this.offsetSaved = this.offsetToSave = lastHandled;
    const { signal } = this.abort;
    const apiSignal = signal as unknown as Parameters<Bot['api']['getUpdates']>[1];
    const minDelay = this.options.pollRetryMinMs ?? POLL_RETRY_MIN_MS;
    let delay = minDelay;
    let databaseDelay = DATABASE_RETRY_MIN_MS;
    let webhookCleared = false;
    // After a failure the next poll asks without waiting (timeout 0): its answer says at once
    // that Telegram is reached again (the "cannot reach Telegram" state clears), instead of a
    // long poll's up to POLL_TIMEOUT_S later.
    let afterFailure = false;
    while (!signal.aborted) {
      try {
        if (!webhookCleared) {
          // A webhook left from another deployment would make getUpdates fail with 409.
          await this.bot.api.deleteWebhook({ drop_pending_updates: false }, apiSignal);
          webhookCleared = true;
        }
        const updates = await this.bot.api.getUpdates(
          { offset: lastHandled + 1, limit: 100, timeout: afterFailure ? 0 : POLL_TIMEOUT_S, allowed_updates: [...FUNNEL_ALLOWED_UPDATES] },
          apiSignal,
        );
        delay = minDelay;
        afterFailure = false;
        if (updates.length > 0) {
          if (updateReceived.hasSubscribers) this.published(updates);
          const notTaken = await this.handleBatch(updates);
          // The offset goes no further than the first update not taken: the next getUpdates
          // brings it again (and those after it, which handled_updates skips when handled).
          lastHandled = Math.max(lastHandled, notTaken === null ? Math.max(...updates.map((u) => u.update_id)) : notTaken - 1);
          this.offsetToSave = lastHandled;
          this.scheduleOffsetSave();
          if (notTaken !== null) {
            await sleep(jittered(databaseDelay), signal);
            databaseDelay = Math.min(databaseDelay * 2, DATABASE_RETRY_MAX_MS);
          } else databaseDelay = DATABASE_RETRY_MIN_MS;
        }
      } catch (error) {
        if (signal.aborted) break;
        if (isUnauthorized(error)) {
          this.tokenRevoked();
          break;
        }
        afterFailure = true;
        const wait = jittered(delay);
        this.options.log.warn(
          { funnel_id: this.funnelId },
          `funnel bot could not get updates: ${this.describe(error)}; retrying in ${(wait / 1000).toFixed(1)} s`,
        );
        await sleep(wait, signal);
        delay = Math.min(delay * 2, POLL_RETRY_MAX_MS);
      }
    }
  }

  /**
   * Handles a batch of polled updates. People are independent: their updates are handled side by
   * side, each person's in order, and a person's updates after one that could not be taken wait
   * for it. A batch is finished even when stopping (the offset then covers all of it). Answers
   * the first update not taken (the database was unavailable), or null.
   */
  private async handleBatch(updates: Update[]): Promise<number | null> {
    const byPerson = new Map<number | string, Update[]>();
    for (const update of updates) {
      const key = personKey(update);
      const queue = byPerson.get(key);
      if (queue) queue.push(update);
      else byPerson.set(key, [update]);
    }
    let notTaken: number | null = null;
    await Promise.all(
      [...byPerson.values()].map(async (queue) => {
        for (const update of queue) {
          try {
            await this.bot.handleUpdate(update);
          } catch {
            // Logged by onUpdateError, the only way an update's failure gets here.
            notTaken = Math.min(notTaken ?? update.update_id, update.update_id);
            return;
          }
        }
      }),
    );
    return notTaken;
  }

  /**
   * funnels.update_offset is written at most once per OFFSET_SAVE_MS per bot (and when the bot
   * stops), not after every batch: getUpdates' own offset already confirms the updates to
   * Telegram, and an update fetched again after a crash is skipped by handled_updates.
   */
  private scheduleOffsetSave(): void {
    if (this.offsetTimer || this.offsetSaving || this.offsetToSave <= this.offsetSaved) return;
    const wait = this.offsetSavedAt + OFFSET_SAVE_MS - Date.now();
    if (wait > 0) {
      this.offsetTimer = setTimeout(() => {
        this.offsetTimer = undefined;
        this.scheduleOffsetSave();
      }, wait);
      this.offsetTimer.unref();
      return;
    }
    this.offsetSaving = this.saveOffsetNow().finally(() => {
      this.offsetSaving = undefined;
      if (!this.stopped) this.scheduleOffsetSave();
    });
  }

  private async saveOffsetNow(): Promise<void> {
    const offset = this.offsetToSave;
    this.offsetSavedAt = Date.now();
    try {
      await this.options.store.saveOffset(this.funnelId, offset);
      this.offsetSaved = Math.max(this.offsetSaved, offset);
    } catch (error) {
      this.options.log.warn({ funnel_id: this.funnelId }, `could not save the funnel bot's update offset: ${this.describe(error)}`);
    }
  }

  /**
   * Replies a dead runtime left waiting, taken over by this one (oldest first): each person's are
   * sent before anything newer of theirs. Waited for when the bot stops.
   */
  resumeReplies(replies: AdoptedReply[]): void {
    const newest = new Map<number, AdoptedReply>();
    for (const reply of replies) newest.set(reply.personId, reply);
    for (const reply of newest.values()) {
      const person = { first_name: reply.firstName, last_name: reply.lastName ?? undefined, username: reply.username ?? undefined };
      const work = this.fc
        .deliver({ personId: reply.personId, chatId: reply.telegramId, person, language: reply.languageCode ?? undefined, upToId: reply.id })
        .catch((error: unknown) => {
          if (error instanceof PersonBlockedError || isUnauthorized(error)) return this.onUpdateError(error, 0);
          this.options.log.error({ funnel_id: this.funnelId, person_id: reply.personId }, `could not send a taken-over reply: ${this.describe(error)}`);
        });
      this.inFlight.add(work);
      void work.finally(() => this.inFlight.delete(work));
    }
  }

  /** Stops polling and waits for the updates being handled; `deleteWebhook` when leaving webhook mode. */
  async stop({ deleteWebhook = false }: { deleteWebhook?: boolean } = {}): Promise<void> {
    this.abort.abort();
    await this.loop;
    await Promise.allSettled([...this.inFlight]);
    clearTimeout(this.offsetTimer);
    this.offsetTimer = undefined;
    await this.offsetSaving;
    if (this.offsetToSave > this.offsetSaved) await this.saveOffsetNow();
    if (deleteWebhook && !this.revoked) {
      await this.bot.api
        .deleteWebhook({ drop_pending_updates: false })
        .catch((error: unknown) => this.options.log.warn({ funnel_id: this.funnelId }, `could not delete the webhook: ${this.describe(error)}`));
    }
  }
}
