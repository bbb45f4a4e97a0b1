// Telegram's sending limits: 30 messages a second per bot, a burst per chat, the paid burst
// with its Stars, and the 429s with retry_after when a sender breaks them; counted for tests.
import { type ApiError, badRequest, type Params } from './request-body';
import { BOT_MESSAGES_PER_SECOND, ERRORS, type FakeBot, type LimitStats, PAID_MESSAGES_PER_SECOND } from './model';
import type { FakeState } from './state';

/** Methods that send a message: they count against the limits. */
export const SENDING_METHODS = new Set(['sendmessage', 'sendphoto', 'sendvideo', 'senddocument', 'sendanimation', 'sendaudio', 'sendvoice', 'copymessage', 'forwardmessage', 'sendinvoice']);
/** Per-second send counts are kept this long (benchmarks read them after a run). */
const PER_SECOND_KEEP_S = 900;

/** Refuses a send that would break a limit, and counts the ones that went out. */
export class SendingLimits {
  constructor(private readonly state: FakeState) {}

  /** A 429 (or 400 for a paid broadcast the bot may not use) when this send would break a limit. */
  overLimit(bot: FakeBot, params: Params, paid: boolean): ApiError | undefined {
    const at = Date.now();
    if (paid && !bot.paidBroadcastEligible) return badRequest('paid broadcasts are not available for the bot');
    const window = paid ? bot.paidSends : bot.freeSends;
    while (window.length > 0 && window[0] <= at - 1000) window.shift();
    const limit = paid ? PAID_MESSAGES_PER_SECOND : this.state.limits.botPerSecond;
    const tooMany = (retryAt: number) => {
      bot.stats.tooMany += 1;
      return ERRORS.tooManyRequests(Math.max(1, Math.ceil((retryAt - at) / 1000)));
    };
    if (window.length >= limit) return tooMany(window[0] + 1000);
    const chatId = params.integer('chat_id');
    if (chatId !== undefined) {
      const sends = bot.chatSends.get(chatId);
      if (sends) {
        while (sends.length > 0 && sends[0] <= at - this.state.limits.chatWindowMs) sends.shift();
        if (sends.length >= this.state.limits.chatBurst) return tooMany(sends[0] + this.state.limits.chatWindowMs);
      }
    }
    return undefined;
  }

  countSend(bot: FakeBot, params: Params, paid: boolean): void {
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
      if (bot.chatSends.size > 50_000) for (const [id, list] of bot.chatSends) if ((list.at(-1) ?? 0) <= at - this.state.limits.chatWindowMs) bot.chatSends.delete(id);
    }
    const second = Math.floor(at / 1000);
    bot.stats.perSecond.set(second, (bot.stats.perSecond.get(second) ?? 0) + 1);
    if (bot.stats.perSecond.size > PER_SECOND_KEEP_S) bot.stats.perSecond.delete(bot.stats.perSecond.keys().next().value!);
  }

  /** What the sending limits saw for a bot. */
  limitStats(token: string): LimitStats {
    const bot = this.state.botFor(token);
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
    this.state.botFor(token).paidBroadcastEligible = eligible;
  }
}
