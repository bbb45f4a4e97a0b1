// Updates: the queue per bot, long polling (getUpdates) and webhooks with their delivery loop,
// retries and the one Bot API call a webhook may answer with.
import type { Update, WebhookInfo } from 'grammy/types';
import { badRequest, Params } from './request-body';
import { type ApiOutcome, clamp, Described, ERRORS, type FakeBot, isHttpUrl, now, type PendingPoll, type Webhook } from './model';
import type { FakeState } from './state';

const MAX_POLL_TIMEOUT_S = 50;
/** Update types a bot gets when allowed_updates is empty (Telegram's default). */
const OPT_IN_UPDATE_TYPES = new Set(['chat_member', 'message_reaction', 'message_reaction_count']);

function updateType(update: Omit<Update, 'update_id'>): string {
  return Object.keys(update).find((key) => key !== 'update_id') ?? '';
}

function isAllowed(type: string, allowed: string[]): boolean {
  return allowed.length === 0 ? !OPT_IN_UPDATE_TYPES.has(type) : allowed.includes(type);
}

/** Hands each bot its updates, by long polling or by webhook. */
export class UpdateQueues {
  constructor(
    private readonly state: FakeState,
    /** Runs a Bot API call a webhook answered with, as Telegram does. */
    private readonly callMethod: (token: string, method: string, params: Params) => Promise<ApiOutcome>,
  ) {}

  getUpdates(bot: FakeBot, p: Params, signal: AbortSignal): Update[] | Promise<Update[]> {
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
        this.state.changed();
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
      this.state.changed();
    });
  }

  /**
   * Queues an update for the bot and hands it out. An update its allowed_updates exclude is not
   * created at all, as in Telegram: it is returned with update_id 0 and never delivered.
   */
  pushUpdate(bot: FakeBot, body: Omit<Update, 'update_id'>): Update {
    const allowed = bot.webhook ? bot.webhook.allowed_updates : bot.allowedUpdates;
    if (!isAllowed(updateType(body), allowed)) return { update_id: 0, ...body } as Update;
    const update = { update_id: bot.nextUpdateId++, ...body } as Update;
    bot.updates.push(update);
    bot.poll?.deliver();
    if (bot.webhook) this.startDelivery(bot);
    this.state.changed();
    return update;
  }

  setWebhook(bot: FakeBot, p: Params): Described {
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
    this.state.changed();
    this.startDelivery(bot);
    return new Described(true, same ? 'Webhook is already set' : 'Webhook was set');
  }

  deleteWebhook(bot: FakeBot, p: Params, description?: string): Described {
    const had = bot.webhook !== undefined;
    if (p.boolean('drop_pending_updates')) bot.updates = [];
    bot.webhook = undefined;
    bot.delivery?.abort();
    this.state.changed();
    return new Described(true, description ?? (had ? 'Webhook was deleted' : 'Webhook is already deleted'));
  }

  webhookInfo(bot: FakeBot): WebhookInfo {
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

  startDelivery(bot: FakeBot): void {
    if (bot.delivering || !bot.webhook || bot.revoked || this.state.closed || bot.updates.length === 0) return;
    bot.delivering = true;
    void this.deliverUpdates(bot).finally(() => {
      bot.delivering = false;
      // An update may have arrived after the loop saw an empty queue.
      this.startDelivery(bot);
    });
  }

  /** POSTs queued updates to the webhook one by one, in order, retrying failures with backoff. */
  async deliverUpdates(bot: FakeBot): Promise<void> {
    let delay = this.state.webhookRetryMs;
    while (bot.webhook && !bot.revoked && !this.state.closed && bot.updates.length > 0) {
      const webhook = bot.webhook;
      const update = bot.updates[0];
      const controller = new AbortController();
      bot.delivery = controller;
      const error = await this.postUpdate(bot, webhook, update, controller.signal);
      if (this.state.closed) return;
      if (error === null) {
        bot.updates = bot.updates.filter((u) => u.update_id !== update.update_id);
        delay = this.state.webhookRetryMs;
        this.state.changed();
        continue;
      }
      if (controller.signal.aborted) continue; // the webhook was changed or deleted meanwhile
      webhook.last_error_date = now();
      webhook.last_error_message = error;
      this.state.changed();
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
  async postUpdate(bot: FakeBot, webhook: Webhook, update: Update, signal: AbortSignal): Promise<string | null> {
    try {
      const response = await fetch(webhook.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(webhook.secret_token ? { 'x-telegram-bot-api-secret-token': webhook.secret_token } : {}),
        },
        body: JSON.stringify(update),
        signal: AbortSignal.any([signal, AbortSignal.timeout(this.state.webhookTimeoutMs)]),
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

  runWebhookReply(bot: FakeBot, body: string): void {
    try {
      const reply = JSON.parse(body) as Record<string, unknown>;
      if (typeof reply.method !== 'string') return;
      const { method, ...rest } = reply;
      void this.callMethod(bot.token, method as string, new Params(rest, new Map()));
    } catch {
      // Telegram ignores a webhook reply it cannot read.
    }
  }
}
