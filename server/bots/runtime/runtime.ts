// The bot runtime: every running funnel of every user, in this process. It implements the
// API's FunnelRuntimePort (server/funnels/runtime-port.ts): after every run/stop/archive/restore/
// delete the API calls sync(id), and the funnel's bot is started or stopped to match the row.
//
// Transport: long polling by default (one lean getUpdates loop per bot, offsets kept in
// funnels.update_offset); webhooks when PUBLIC_URL is https (POST /telegram/funnels/:id with a
// per-funnel secret token, received by server/http/webhooks/ and handed to deliver(), the
// FunnelWebhookPort of webhook-port.ts). Every RECONCILE_INTERVAL_MS the runtime also compares
// what runs with the database, so a funnel run or stopped by another process catches up.
//
// Several processes on one PostgreSQL: use webhooks (any process handles any delivery, and
// handled_updates makes each update count once). Long polling is for ONE process: two pollers of
// one bot make Telegram answer 409 to one of them, which is logged and retried.
import type { Update } from 'grammy/types';
import type { Config } from '../../config';
import type { Db } from '../../db';
import type { FunnelRow } from '../../db/schema';
import type { FunnelRuntimePort } from '../../funnels/runtime-port';
import { describeBotApiError, isTransientBotApiError } from '../../telegram/client';
import { FUNNEL_ALLOWED_UPDATES, FunnelBot } from './funnel-bot';
import { isDatabaseUnavailable, isUnauthorized, type FunnelContext, type RuntimeLog } from './funnel-context';
import type { BotRateLimits } from '../../telegram/rate-limiter';
import { type AdoptedReply, createRuntimeStore, RUNTIME_HEARTBEAT_MS, type RuntimeStore } from './store';
import { funnelWebhookPath, funnelWebhookSecret, type FunnelWebhookPort, type WebhookDelivery } from './webhook-port';

/** How often the runtime re-reads which funnels should run. */
export const RECONCILE_INTERVAL_MS = 10_000;
/** How often old handled_updates rows are deleted. */
export const PRUNE_INTERVAL_MS = 60 * 60_000;

export type Transport = 'polling' | 'webhook';

export interface FunnelRuntimeOptions {
  db: Db;
  config: Pick<Config, 'telegramApiRoot' | 'publicUrl' | 'secretKey'>;
  /** The funnel's BotFather token (decrypted by the caller: the runtime is encryption-agnostic). */
  tokenOf(funnel: FunnelRow): string;
  log: RuntimeLog;
  /** Default: webhook when PUBLIC_URL is https, long polling otherwise. */
  transport?: Transport;
  /** 0 turns the periodic reconcile off (tests call sync() themselves). */
  reconcileIntervalMs?: number;
  /** First wait after a failed getUpdates (tests shorten it). */
  pollRetryMinMs?: number;
  /** Waits between attempts of a call to a person after a network failure or a 5xx (tests shorten them). */
  sendRetryDelaysMs?: readonly number[];
  /** How long a reply may wait for Telegram before it is given up (REPLY_GIVE_UP_MS; tests shorten it). */
  replyGiveUpMs?: number;
  /** Tells a funnel's owner someone wrote to the bot (main.ts: through the service bot). */
  alertOwner?: FunnelContext['alertOwner'];
  /** Per-bot sending rate shared with the outbox (mailings): replies go first. */
  limits?: BotRateLimits;
  /** How often the runtime says it is alive and looks for replies a dead one left (tests shorten it). */
  heartbeatMs?: number;
  /** Failures alone for this long make a bot "cannot reach Telegram" (TELEGRAM_UNREACHABLE_AFTER_MS; tests shorten it). */
  unreachableAfterMs?: number;
  /** Tells a funnel's owner their token was revoked (once: when the runtime stops the funnel for it). */
  onTokenRevoked?(funnelId: number): Promise<void>;
}

export class FunnelRuntime implements FunnelRuntimePort, FunnelWebhookPort {
  readonly transport: Transport;
  private readonly store: RuntimeStore;
  private readonly bots = new Map<number, FunnelBot>();
  /** One sync at a time per funnel: run and stop pressed quickly must end in the right state. */
  private readonly syncing = new Map<number, Promise<void>>();
  private readonly timers: NodeJS.Timeout[] = [];
  private started = false;
  private stopping = false;
  private sweeping: Promise<void> | undefined;

  constructor(private readonly options: FunnelRuntimeOptions) {
    this.transport = options.transport ?? (options.config.publicUrl.startsWith('https://') ? 'webhook' : 'polling');
    this.store = createRuntimeStore(options.db);
  }

  /**
   * Since when this funnel's running bot has not reached Telegram (only past the threshold; null
   * when it does, or when it does not run here).
   */
  telegramUnreachableSince(funnelId: number): Date | null {
    return this.bots.get(funnelId)?.reachability.unreachableSince() ?? null;
  }

  /** The funnels whose bots run in this process. */
  runningFunnelIds(): number[] {
    return [...this.bots.keys()].sort((a, b) => a - b);
  }

  /**
   * Webhook mode: an update Telegram delivered (server/http/webhooks/ checked its secret). A
   * funnel another process started gets its bot here too. 'not_taken' while the database cannot
   * be reached: nothing of the update happened, and Telegram must deliver it again.
   */
  async deliver(funnelId: number, update: Update): Promise<WebhookDelivery> {
    if (this.transport !== 'webhook') return 'unknown';
    if (this.stopping) return 'unavailable';
    try {
      const bot = this.bots.get(funnelId) ?? (await this.adopt(funnelId));
      if (bot === 'unknown') return 'unknown';
      if (!bot) return this.stopping ? 'unavailable' : 'dropped';
      await bot.handleDelivered(update);
      return 'handled';
    } catch (error) {
      // handleDelivered rejects only for an update the database could not take (onUpdateError).
      if (isDatabaseUnavailable(error) || isDatabaseUnavailable((error as { error?: unknown }).error)) return 'not_taken';
      throw error;
    }
  }

  /** Webhook mode: a delivery for a funnel another process started; its bot is made here too. */
  private async adopt(funnelId: number): Promise<FunnelBot | 'unknown' | undefined> {
    if (this.stopping) return undefined;
    const funnel = await this.store.funnel(funnelId);
    if (!funnel) return 'unknown';
    if (funnel.state !== 'running' || funnel.archivedAt) return undefined;
    const existing = this.bots.get(funnelId);
    if (existing) return existing;
    const bot = this.makeBot(funnel);
    this.bots.set(funnelId, bot);
    return bot;
  }

  /** Starts every running funnel's bot, then keeps them in line with the database. */
  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    // Alive before any reply is written; on the embedded database no other process can be.
    await this.store.heartbeat();
    if (this.options.db.driver === 'pglite') await this.store.forgetOtherRuntimes();
    // Replies a dead runtime left are taken over before any bot polls: a person's reply to an
    // update now goes after them (the bot's queue per person).
    const left = await this.store.adoptOrphanReplies((await this.store.runningFunnels()).map((f) => f.id));
    await this.reconcile();
    this.resume(left);
    this.timers.push(setInterval(() => void this.sweepReplies(), this.options.heartbeatMs ?? RUNTIME_HEARTBEAT_MS));
    const interval = this.options.reconcileIntervalMs ?? RECONCILE_INTERVAL_MS;
    if (interval > 0) {
      this.timers.push(setInterval(() => void this.reconcile().catch((error: unknown) => this.logFailure('reconcile', error)), interval));
    }
    const prune = () => void this.store.pruneHandledUpdates().catch((error: unknown) => this.logFailure('prune handled updates', error));
    prune();
    this.timers.push(setInterval(prune, PRUNE_INTERVAL_MS));
    for (const timer of this.timers) timer.unref();
    this.options.log.info(`bot runtime: ${this.bots.size} funnel bot(s) running by ${this.transport === 'webhook' ? 'webhook' : 'long polling'}`);
  }

  /** Stops polling, lets the updates being handled finish; webhooks stay set (other processes or the next start use them). */
  async stop(): Promise<void> {
    this.stopping = true;
    for (const timer of this.timers.splice(0)) clearInterval(timer);
    await Promise.allSettled([...this.syncing.values()]);
    await this.sweeping;
    await Promise.allSettled([...this.bots.values()].map((bot) => bot.stop()));
    this.bots.clear();
    // Gone at once: what it left waiting (nothing, after a clean stop) is taken over without delay.
    await this.store.goodbye().catch((error: unknown) => this.logFailure('leave runtime_processes', error));
  }

  /** Hands taken-over replies to their bots (each sends a person's oldest first). */
  private resume({ unknown, adopted }: { unknown: number; adopted: AdoptedReply[] }): void {
    if (unknown > 0) {
      this.options.log.warn(`${unknown} repl${unknown === 1 ? 'y was' : 'ies were'} being sent when their server stopped: counted unknown, not sent again`);
    }
    const byFunnel = new Map<number, AdoptedReply[]>();
    for (const reply of adopted) byFunnel.set(reply.funnelId, [...(byFunnel.get(reply.funnelId) ?? []), reply]);
    for (const [funnelId, replies] of byFunnel) {
      this.options.log.info({ funnel_id: funnelId }, `${replies.length} waiting repl${replies.length === 1 ? 'y' : 'ies'} of a stopped server taken over`);
      this.bots.get(funnelId)?.resumeReplies(replies);
    }
  }

  /**
   * Keeps this runtime alive in runtime_processes, and takes over the replies of runtimes that are
   * gone (a killed process): waiting ones are sent from here, ones that were being sent are unknown.
   */
  sweepReplies(): Promise<void> {
    if (this.sweeping || this.stopping) return this.sweeping ?? Promise.resolve();
    this.sweeping = (async () => {
      try {
        await this.store.heartbeat();
        this.resume(await this.store.adoptOrphanReplies(this.runningFunnelIds()));
      } catch (error) {
        this.logFailure('take over replies', error);
      } finally {
        this.sweeping = undefined;
      }
    })();
    return this.sweeping;
  }

  /** This funnel's stages, messages or tags were written through the API: its bot reads them again. */
  stagesChanged(funnelId: number): void {
    this.store.forgetStages(funnelId);
  }

  /** Makes the funnel's bot match its row: running and not archived = running here, else stopped. */
  sync(funnelId: number): Promise<void> {
    const previous = this.syncing.get(funnelId) ?? Promise.resolve();
    const next = previous.then(() => this.syncNow(funnelId));
    const tracked = next.catch(() => undefined).finally(() => {
      if (this.syncing.get(funnelId) === tracked) this.syncing.delete(funnelId);
    });
    this.syncing.set(funnelId, tracked);
    return next;
  }

  private async syncNow(funnelId: number, known?: FunnelRow): Promise<void> {
    if (this.stopping) return;
    const funnel = known ?? (await this.store.funnel(funnelId));
    const shouldRun = !!funnel && funnel.state === 'running' && !funnel.archivedAt;
    const bot = this.bots.get(funnelId);
    if (shouldRun && bot && bot.tokenHash !== funnel.botTokenHash) {
      // The owner replaced the token (same bot, new secret): run on the new one.
      this.bots.delete(funnelId);
      await bot.stop();
      await this.startBot(funnel);
    } else if (shouldRun && !bot) await this.startBot(funnel);
    else if (!shouldRun && bot) {
      this.bots.delete(funnelId);
      await bot.stop({ deleteWebhook: this.transport === 'webhook' });
    }
  }

  /** Every running funnel runs here, nothing else does. */
  async reconcile(): Promise<void> {
    if (this.stopping) return;
    const rows = await this.store.runningFunnels();
    const wanted = new Map(rows.map((row) => [row.id, row]));
    const work: Promise<void>[] = [];
    for (const row of rows) if (!this.bots.has(row.id)) work.push(this.sync(row.id));
    for (const id of this.bots.keys()) if (!wanted.has(id)) work.push(this.sync(id));
    await Promise.allSettled(work);
  }

  private makeBot(funnel: FunnelRow): FunnelBot {
    return new FunnelBot({
      funnel,
      token: this.options.tokenOf(funnel),
      apiRoot: this.options.config.telegramApiRoot,
      store: this.store,
      log: this.options.log,
      onRevoked: (id) => void this.revoked(id),
      pollRetryMinMs: this.options.pollRetryMinMs,
      sendRetryDelaysMs: this.options.sendRetryDelaysMs,
      replyGiveUpMs: this.options.replyGiveUpMs,
      alertOwner: this.options.alertOwner,
      limiter: this.options.limits?.of(funnel.id),
      unreachableAfterMs: this.options.unreachableAfterMs,
    });
  }

  private async startBot(funnel: FunnelRow): Promise<void> {
    let bot: FunnelBot;
    try {
      bot = this.makeBot(funnel);
    } catch (error) {
      this.logFailure(`start funnel ${funnel.id}'s bot`, error);
      return;
    }
    this.bots.set(funnel.id, bot);
    if (this.transport === 'polling') {
      bot.startPolling(funnel.updateOffset);
      return;
    }
    const url = `${this.options.config.publicUrl}${funnelWebhookPath(funnel.id)}`;
    try {
      await bot.bot.api.setWebhook(url, {
        secret_token: funnelWebhookSecret(this.options.config.secretKey, funnel.id),
        allowed_updates: [...FUNNEL_ALLOWED_UPDATES],
        drop_pending_updates: false,
      });
    } catch (error) {
      if (isUnauthorized(error)) {
        this.bots.delete(funnel.id);
        await this.revoked(funnel.id);
        return;
      }
      // Transient: the next reconcile tries again.
      if (isTransientBotApiError(error)) this.bots.delete(funnel.id);
      this.options.log.warn({ funnel_id: funnel.id }, `could not set funnel ${funnel.id}'s webhook: ${describeBotApiError(error, this.options.tokenOf(funnel))}`);
    }
  }

  /** The outbox met a 401 for this funnel's bot: it stops as if its own call had. */
  async tokenRevoked(funnelId: number): Promise<void> {
    if (this.bots.has(funnelId)) return this.revoked(funnelId);
    if (await this.store.stopRevoked(funnelId)) this.tellOwnerRevoked(funnelId);
  }

  /** 401: the funnel stops (stop_reason 'token_revoked'); other bots go on. */
  private async revoked(funnelId: number): Promise<void> {
    const bot = this.bots.get(funnelId);
    this.bots.delete(funnelId);
    let stoppedNow = false;
    try {
      stoppedNow = await this.store.stopRevoked(funnelId);
    } catch (error) {
      this.logFailure(`mark funnel ${funnelId} stopped`, error);
    }
    await bot?.stop();
    // Once per revocation: only the call that moved the funnel from running to stopped tells.
    if (stoppedNow) this.tellOwnerRevoked(funnelId);
  }

  /** Not waited for: neither the runtime nor the engine waits on a mail server. */
  private tellOwnerRevoked(funnelId: number): void {
    void this.options.onTokenRevoked?.(funnelId).catch((error: unknown) => this.logFailure(`tell funnel ${funnelId}'s owner its token was revoked`, error));
  }

  private logFailure(what: string, error: unknown): void {
    this.options.log.error(`bot runtime could not ${what}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

export function createFunnelRuntime(options: FunnelRuntimeOptions): FunnelRuntime {
  return new FunnelRuntime(options);
}
