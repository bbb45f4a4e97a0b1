// Telegram's sending rules for one bot, in this process: at most `perSecond` messages a second,
// spaced evenly (a burst at the top of each second would meet Telegram's sliding window jittered
// by the network), and never more than floor(perSecond) + 1 in any window of that many slots: a
// timer that fires late and the next one on time are squeezed together, and with the 30/s cap one
// message away that squeeze alone made a 429 under load; the window keeps the slack of running a
// little under the cap (34 ms at 29/s) for the network's jitter. Every message of a bot goes
// further (take(..., untilDone), mailings, letters and replies alike): a message one window on
// waits a second after Telegram answered the one a window back, so no delay between a slot and
// its request can make a 429. Replies before mailings and letters, at most one bulk message a second to one
// person, and a 429's retry_after honoured for this bot only. The outbox sender (one process per
// bot at a time, by lease) and the bot's replies in the same process share one limiter.

export type SendPriority = 'reply' | 'bulk';

/** Telegram: "avoid sending more than one message per second" in one chat. */
export const PER_CHAT_INTERVAL_MS = 1_000;

/** take() gave up: its signal was aborted before a slot was free. */
export class SlotAbandonedError extends Error {
  constructor() {
    super('gave up waiting for a slot of the bot\'s rate');
    this.name = 'SlotAbandonedError';
  }
}

interface Waiter {
  priority: SendPriority;
  resolve(ticket: SendTicket): void;
  untilDone: boolean;
  /** Its caller gave up (take's signal): skipped when its turn comes. */
  cancelled?: boolean;
}

/** A granted slot. `done()` says Telegram has answered the request sent in it. */
export interface SendTicket {
  done(): void;
}

interface Grant {
  at: number;
  /** When the answer came (an upper bound of when Telegram counted the message); null: not yet. */
  doneAt: number | null;
}

/** Telegram's window for the bot's messages a second. */
const TELEGRAM_WINDOW_MS = 1_000;
/** A request unanswered this long no longer holds the window back (it stays counted from then). */
const UNANSWERED_MS = 5_000;

export class BotRateLimiter {
  private intervalMs: number;
  private nextAt = 0;
  /** The last `windowCount` slots granted, oldest first. */
  private granted: Grant[] = [];
  private pausedUntil = 0;
  private readonly replies: Waiter[] = [];
  private readonly bulk: Waiter[] = [];
  private timer: NodeJS.Timeout | undefined;
  /** Bulk messages per chat: when the chat may get the next one. */
  private readonly chatReadyAt = new Map<number, number>();

  constructor(
    perSecond: number,
    private readonly clock: () => number = () => performance.now(),
  ) {
    this.intervalMs = 1000 / perSecond;
  }

  /** Messages a second this limiter lets through. */
  get perSecond(): number {
    return 1000 / this.intervalMs;
  }

  setRate(perSecond: number): void {
    if (1000 / perSecond === this.intervalMs) return;
    this.intervalMs = 1000 / perSecond;
    this.granted = [];
  }

  /** Messages allowed in any window of `windowCount` slots: one more than the whole messages a second. */
  private get windowCount(): number {
    return Math.floor(this.perSecond + 1e-9) + 1;
  }

  /** A 429 said retry_after: nothing of this bot is sent for that long. */
  pauseFor(seconds: number): void {
    this.pausedUntil = Math.max(this.pausedUntil, this.clock() + seconds * 1000);
    this.reschedule();
  }

  /** Waiting callers (replies and bulk). */
  get waiting(): number {
    return this.replies.length + this.bulk.length;
  }

  /**
   * Resolves when a message may go. Replies jump ahead of every bulk message; a bulk message to
   * `chatId` also waits until a second has passed since the last bulk message to that chat.
   *
   * `untilDone`: the caller tells when Telegram answered (ticket.done()), and the message one
   * window further on is not sent until a second after that answer. Telegram counts a message
   * between the moment it is sent and its answer, so this holds Telegram's window whatever the
   * delays between taking a slot and the request leaving (a busy event loop, the network): they
   * only slow the bot down, never bring a 429 (and the second-long pause that follows it).
   *
   * `signal`: the caller may give up waiting (a runtime stopping): the promise rejects with
   * SlotAbandonedError and no slot is used.
   */
  async take(priority: SendPriority, chatId?: number, untilDone = false, signal?: AbortSignal): Promise<SendTicket> {
    if (priority === 'bulk' && chatId !== undefined) {
      const readyAt = this.chatReadyAt.get(chatId) ?? 0;
      const wait = readyAt - this.clock();
      this.chatReadyAt.set(chatId, Math.max(readyAt, this.clock()) + PER_CHAT_INTERVAL_MS);
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      if (this.chatReadyAt.size > 10_000) this.forgetOldChats();
    }
    return new Promise<SendTicket>((resolve, reject) => {
      if (signal?.aborted) return reject(new SlotAbandonedError());
      const onAbort = () => {
        // Left in its queue (a splice per waiter would cost a scan each when thousands give up at
        // once): the pump skips it.
        waiter.cancelled = true;
        reject(new SlotAbandonedError());
      };
      const waiter: Waiter = {
        priority,
        untilDone,
        resolve: (ticket) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(ticket);
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      (priority === 'reply' ? this.replies : this.bulk).push(waiter);
      this.pump();
    });
  }

  /** When the window lets the next slot go, from the grant one window back (null: wait for its answer). */
  private answeredWindowAt(grant: Grant, now: number): number | null {
    if (grant.doneAt !== null) return grant.doneAt + TELEGRAM_WINDOW_MS;
    if (now - grant.at >= UNANSWERED_MS) return grant.at + UNANSWERED_MS + TELEGRAM_WINDOW_MS;
    return null;
  }

  private forgetOldChats(): void {
    const now = this.clock();
    for (const [chat, at] of this.chatReadyAt) if (at < now) this.chatReadyAt.delete(chat);
  }

  private pump(): void {
    if (this.timer) return;
    for (;;) {
      while (this.replies[0]?.cancelled) this.replies.shift();
      while (this.bulk[0]?.cancelled) this.bulk.shift();
      const next = this.replies[0] ?? this.bulk[0];
      if (!next) return;
      const now = this.clock();
      const count = this.windowCount;
      const back = this.granted.length >= count ? this.granted[this.granted.length - count] : undefined;
      const answeredAt = back ? this.answeredWindowAt(back, now) : 0;
      if (answeredAt === null) {
        // The slot one window back is still waiting for Telegram's answer; done() pumps again,
        // and a check in a while lets an unanswered one go (UNANSWERED_MS).
        this.timer = setTimeout(() => {
          this.timer = undefined;
          this.pump();
        }, UNANSWERED_MS - (now - back!.at));
        return;
      }
      const windowOpensAt = back ? Math.max(back.at + count * this.intervalMs, answeredAt) : 0;
      const gridAt = Math.max(this.nextAt, this.pausedUntil);
      const at = Math.max(gridAt, windowOpensAt);
      if (at > now) {
        this.timer = setTimeout(() => {
          this.timer = undefined;
          this.pump();
        }, at - now);
        return;
      }
      (next.priority === 'reply' ? this.replies : this.bulk).shift();
      // Slots on an even grid (a timer firing late does not slow the rate, and neither does the
      // window holding back the slot after a late one); after an idle spell the grid starts again
      // from now, so there is no catch-up burst.
      this.nextAt = (now - gridAt <= this.intervalMs ? gridAt : now) + this.intervalMs;
      const grant: Grant = { at: now, doneAt: next.untilDone ? null : now };
      this.granted.push(grant);
      if (this.granted.length > count) this.granted.shift();
      next.resolve({
        done: () => {
          if (grant.doneAt !== null) return;
          grant.doneAt = this.clock();
          this.reschedule();
        },
      });
    }
  }

  private reschedule(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    this.pump();
  }
}

/** One limiter per bot (funnel) in this process, made on first use. */
export class BotRateLimits {
  private readonly limiters = new Map<number, BotRateLimiter>();

  constructor(readonly perSecond: number) {}

  of(funnelId: number): BotRateLimiter {
    let limiter = this.limiters.get(funnelId);
    if (!limiter) {
      limiter = new BotRateLimiter(this.perSecond);
      this.limiters.set(funnelId, limiter);
    }
    return limiter;
  }
}

/**
 * A slot of the bot's rate taken before a reply's claim (so that a kill while waiting for the
 * rate leaves the update unclaimed, not a reply unknown): the call's first attempt sends in it, a
 * retry takes a new one. Its ticket holds Telegram's window until the answer (done()), so the
 * time the claim took cannot crowd a second. It rides on the call's options under a symbol, which
 * the JSON and multipart bodies leave out.
 */
export const PREPAID_SLOT = Symbol('prepaid rate slot');
export interface PrepaidSlot {
  ticket: SendTicket;
  used: boolean;
}
