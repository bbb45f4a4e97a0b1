// What every concern of the fake Telegram shares: the bots (with their chats, queues and
// counters), the stored files, the change counter the web page long-polls on, and the options.
import { EventEmitter } from 'node:events';
import { type BotSummary, ControlError, type FakeBot, type SendLimits, type StoredFile } from './model';

export class FakeState {
  /** Emits 'change' after anything in any bot or chat changed. */
  readonly events = new EventEmitter();
  /** Bumped on every change; the web page long-polls on it. */
  version = 0;
  /** Orders messages and a person's actions across chats (waitForBotMessage's "since"). */
  seq = 0;
  closed = false;
  readonly bots = new Map<string, FakeBot>();
  readonly files = new Map<string, StoredFile>();
  readonly filesByPath = new Map<string, StoredFile>();

  constructor(
    readonly limits: SendLimits,
    readonly webhookRetryMs: number,
    readonly webhookTimeoutMs: number,
  ) {
    this.events.setMaxListeners(0);
  }

  changed(): void {
    this.version += 1;
    this.events.emit('change');
  }

  botFor(token: string): FakeBot {
    const bot = this.bots.get(token);
    if (!bot) throw new ControlError(404, 'No bot with that token in the fake Bot API');
    return bot;
  }

  summary(bot: FakeBot): BotSummary {
    return { token: bot.token, id: bot.me.id, username: bot.me.username, first_name: bot.me.first_name, revoked: bot.revoked };
  }
}
