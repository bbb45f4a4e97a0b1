// What tests and the web page read: a chat's messages, a bot's state, its call log, and waits
// that resolve when something shows up there (re-checked on every change, not polled).
import type { Message } from 'grammy/types';
import {
  type ApiCall,
  type BotStateSnapshot,
  type CallbackAnswer,
  type ChatEntry,
  type ChatSnapshot,
  clone,
  ControlError,
  type FakeBot,
  type WaitForBotMessageOptions,
  type WaitOptions,
} from './model';
import type { FakeState } from './state';
import type { UpdateQueues } from './updates';

/** Read-only views of the fake's state, and waits on them. */
export class Snapshots {
  constructor(
    private readonly state: FakeState,
    private readonly updates: UpdateQueues,
  ) {}

  /** Everything in a chat, both ways, oldest first (deleted messages flagged, not dropped). */
  chatMessages(token: string, chatId: number): ChatEntry[] {
    const chat = this.state.botFor(token).chats.get(chatId);
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
    const bot = this.state.botFor(token);
    const chat = bot.chats.get(chatId);
    if (!chat) throw new ControlError(404, `No chat with ${chatId} yet`);
    return {
      id: chat.id,
      user: clone(chat.user),
      blocked: chat.blocked,
      menu_button: clone(chat.menuButton ?? bot.defaultMenuButton ?? { type: 'commands' }),
      reply_keyboard: chat.replyKeyboard ? clone(chat.replyKeyboard) : null,
      reply_keyboard_hidden: chat.replyKeyboardHidden === true,
      entries: this.chatMessages(token, chatId),
      callback_answers: clone(chat.callbackAnswers),
    };
  }

  botState(token: string): BotStateSnapshot {
    const bot = this.state.botFor(token);
    return {
      ...this.state.summary(bot),
      me: clone(bot.me),
      webhook: { ...this.updates.webhookInfo(bot), ...(bot.webhook?.secret_token ? { secret_token: bot.webhook.secret_token } : {}) },
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
    const all = this.state.botFor(token).calls;
    return clone(method ? all.filter((c) => c.method.toLowerCase() === method.toLowerCase()) : all);
  }

  /** Resolves once `check` returns a value, re-checking after every change; rejects on timeout. */
  waitUntil<T>(check: () => T | undefined, timeoutMs: number, describe: () => string): Promise<T> {
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
        this.state.events.off('change', onEvent);
        this.state.events.off('call', onEvent);
        this.state.events.off('close', onClose);
      };
      const onClose = () => {
        cleanup();
        reject(new Error('The fake Bot API was closed while waiting'));
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`Timed out after ${timeoutMs} ms waiting for ${describe()}`));
      }, timeoutMs);
      this.state.events.on('change', onEvent);
      this.state.events.on('call', onEvent);
      this.state.events.on('close', onClose);
    });
  }

  /** What went wrong lately for a bot, to make a timeout's message useful. */
  recentTrouble(bot: FakeBot): string {
    const failed = bot.calls.filter((c) => !c.ok).slice(-3);
    return failed.length ? `; its last failed calls: ${failed.map((c) => `${c.method} → ${c.error_code} ${c.description}`).join('; ')}` : '';
  }

  /**
   * Waits until the bot sends (by default: after the person's latest action in that chat) a
   * message matching `predicate`, and returns it.
   */
  waitForBotMessage(token: string, chatId: number, options: WaitForBotMessageOptions = {}): Promise<Message> {
    const bot = this.state.botFor(token);
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
    const bot = this.state.botFor(token);
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
    const bot = this.state.botFor(token);
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
}
