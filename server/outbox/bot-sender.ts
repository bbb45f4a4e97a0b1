// One bot's loop in this process, while it holds the bot's lease (engine.ts takes it up): claim a
// small batch, take a slot of the bot's rate, name the row on the wire, send it through
// telegram/send.ts, record the outcome. The statements and what each guarantees are in sql.ts.
import { mayNeedFieldValues, personFieldMap } from '../messages/field-values';
import type { Api } from 'grammy';
import { fillPlaceholders } from '../../contract/personalise';
import { PAID_BROADCAST_RATE } from '../../contract/mailings';
import type { Db } from '../db';
import { untilDatabaseAnswers } from '../db/retry';
import type { FunnelRow, MailingMessage } from '../db/schema';
import { createApi, describeBotApiError } from '../telegram/client';
import { messageKeyboard } from '../messages/render';
import type { BotRateLimiter, SendTicket } from '../telegram/rate-limiter';
import { retryDelayMs, sendContent, type SendFailure, sendFailure } from '../telegram/send';
import type { MailingPauseReason, OutboxSenderOptions } from './ports';
import { CLAIM, CLAIM_UNSEND, FREE_LEASE, RECOVER, RELEASE, RENEW, WITHDRAW } from './sql';

/** Waits before a 5xx or a refused connection is tried again; then the row fails. */
export const RETRY_DELAYS_MS: readonly number[] = [1_000, 5_000, 30_000];
/** An outcome the database did not take is tried again (server/db/retry.ts) for this long at most. */
export const RECORD_RETRY_FOR_MS = 10 * 60_000;
/** How often the engine looks for due work (a start or resume through this process wakes it at once). */
export const TICK_MS = 250;
/** A bot's sender stops (and frees its lease) after this long without work. */
export const IDLE_EXIT_MS = 2_000;
const API_TIMEOUT_S = 30;

export interface ClaimedRow {
  id: number;
  mailing_id: number | null;
  letter_id: number | null;
  /** A stage's message (a timer moved the person there). */
  stage_id: number | null;
  person_id: number;
  attempts: number;
  state: 'sending' | 'deleting';
  telegram_id: number;
  telegram_message_id: number | null;
  first_name: string;
  last_name: string;
  username: string | null;
}

export type Outcome =
  | { state: 'sent'; messageId: number; history: string; kind: 'mailing' | 'letter' }
  | { state: 'deleted' }
  | { state: 'failed' | 'blocked' | 'unknown'; error: string }
  | { state: 'waiting'; error: string | null; delayMs: number };

export interface OutcomeRow {
  id: number;
  outcome: Outcome;
}

export interface MessageContent {
  message: MailingMessage;
  paid: boolean;
}

/** What a bot's sender needs of the engine that runs it (engine.ts). */
export interface BotSenderHost {
  readonly owner: string;
  readonly options: OutboxSenderOptions;
  readonly leaseMs: number;
  record(row: OutcomeRow): Promise<number>;
  markOnWire(outboxId: number): Promise<boolean>;
  messageOf(mailingId: number): Promise<MessageContent | undefined>;
  letterOf(letterId: number): Promise<MessageContent | undefined>;
  countOutcome(mailingId: number, failed: boolean): Promise<void>;
  pauseMailing(mailingId: number, reason: MailingPauseReason): Promise<void>;
}

/**
 * The rows a holder claims at once: half a second at its rate (at least 1). Bigger batches mean
 * fewer claims (1,000 bots sending at once are bound by them), smaller ones fewer rows `unknown`
 * after a crash (at most one batch per bot).
 */
export const CLAIM_SECONDS = 0.5;
const batchFor = (perSecond: number) => Math.max(1, Math.ceil(perSecond * CLAIM_SECONDS));
/** The next batch is claimed this many slots before the current one runs out (about 0.1 s at 29/s). */
const PREFETCH_AHEAD = 3;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

/** One bot's sender in this process, while it holds the bot's lease. */
export class BotSender {
  /** When the loop last moved (the engine gives up a sender that stops moving). */
  lastBeat = performance.now();
  private stopped = false;
  private readonly inFlight = new Set<Promise<void>>();
  private readonly api: Api;
  private readonly limiter: BotRateLimiter;
  private readonly baseRate: number;
  private revoked = false;
  /** A row could not be named as on the wire: another process holds the bot's lease now. */
  private leaseLost = false;
  private done: Promise<void> | undefined;

  constructor(
    private readonly engine: BotSenderHost,
    private readonly funnel: FunnelRow,
    private readonly token: string,
  ) {
    this.api = createApi(token, { apiRoot: engine.options.apiRoot, timeoutSeconds: API_TIMEOUT_S });
    this.limiter = engine.options.limits.of(funnel.id);
    this.baseRate = engine.options.limits.perSecond;
  }

  private get db(): Db {
    return this.engine.options.db;
  }

  run(): Promise<void> {
    this.done ??= this.loop();
    return this.done;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.done;
  }

  /** Stops without waiting (the engine gave it up): its lease is taken over; what it claims no more is counted there. */
  abandon(): void {
    this.stopped = true;
  }

  private async loop(): Promise<void> {
    const { log } = this.engine.options;
    const leaseMs = this.engine.leaseMs;
    const tickMs = this.engine.options.tickMs ?? TICK_MS;
    const idleExitMs = this.engine.options.idleExitMs ?? IDLE_EXIT_MS;
    let renewedAt = performance.now();
    let idleSince: number | null = null;
    // The lease is renewed and the next batch claimed while this one is still being sent: a query
    // that waits for PostgreSQL between two slots would cost the bot its even pace under load.
    let renewal: Promise<void> | undefined;
    let renewalError: unknown;
    let prefetched: Promise<ClaimedRow[]> | undefined;
    const claim = async (): Promise<ClaimedRow[]> => {
      const batch = batchFor(this.limiter.perSecond);
      const rows = await this.db.query<ClaimedRow>(CLAIM, [this.funnel.id, batch, this.engine.owner]);
      // Deleting from the chats comes after sending: looked for only when the sends ran short.
      if (rows.length < batch) rows.push(...(await this.db.query<ClaimedRow>(CLAIM_UNSEND, [this.funnel.id, batch - rows.length, this.engine.owner])));
      return rows;
    };
    const release = async (rows: ClaimedRow[]) => {
      // Claimed but never handed to Telegram (stopping, or the token was refused): back to waiting.
      if (rows.length === 0) return;
      await this.db.query(RELEASE, [rows.map((r) => r.id), this.engine.owner]);
    };
    try {
      await this.db.query(RECOVER, [this.funnel.id]);
      while (!this.stopped && !this.revoked && !this.leaseLost) {
        this.lastBeat = performance.now();
        if (!renewal && performance.now() - renewedAt > leaseMs / 3) {
          renewedAt = performance.now();
          renewal = this.db.query(RENEW, [this.funnel.id, this.engine.owner, leaseMs]).then(
            (renewed) => {
              if (renewed.length === 0) this.leaseLost = true;
              renewal = undefined;
            },
            (error: unknown) => {
              renewal = undefined;
              renewalError = error;
            },
          );
        }
        if (renewalError) throw renewalError;
        const next = prefetched ?? claim();
        prefetched = undefined;
        const rows = await next;
        if (this.leaseLost) {
          await release(rows);
          break;
        }
        if (rows.length === 0) {
          await Promise.allSettled([...this.inFlight]);
          await renewal;
          await this.engine.options.mailings.finishSent(this.funnel.id);
          idleSince ??= performance.now();
          if (performance.now() - idleSince > idleExitMs) break;
          await sleep(tickMs);
          continue;
        }
        idleSince = null;
        const full = rows.length === batchFor(this.limiter.perSecond);
        const handed = new Set<number>();
        try {
          for (let i = 0; i < rows.length; i++) {
            const row = rows[i];
            const paid = row.mailing_id !== null && (await this.engine.messageOf(row.mailing_id))?.paid === true;
            this.limiter.setRate(paid ? PAID_BROADCAST_RATE : this.baseRate);
            const ticket = await this.limiter.take('bulk', row.state === 'deleting' ? undefined : row.telegram_id, true);
            this.lastBeat = performance.now();
            if (this.stopped || this.revoked || this.leaseLost) {
              ticket.done();
              break;
            }
            handed.add(row.id);
            const work = this.send(row, ticket).finally(() => this.inFlight.delete(work));
            this.inFlight.add(work);
            if (full && i === rows.length - 1 - PREFETCH_AHEAD) {
              prefetched = claim();
              prefetched.catch(() => undefined); // awaited (and its error thrown) at the next turn
            }
          }
        } finally {
          await release(rows.filter((r) => !handed.has(r.id)));
        }
      }
      if (prefetched) await release(await prefetched);
      prefetched = undefined;
      await renewal;
      await Promise.allSettled([...this.inFlight]);
      await this.engine.options.mailings.finishSent(this.funnel.id);
    } catch (error) {
      log.error({ funnel_id: this.funnel.id }, `outbox sender of funnel ${this.funnel.id} failed: ${error instanceof Error ? error.message : String(error)}`);
      if (prefetched) await prefetched.then(release).catch(() => undefined);
      await Promise.allSettled([...this.inFlight]);
    } finally {
      if (!this.leaseLost) {
        await this.db.query(FREE_LEASE, [this.funnel.id, this.engine.owner]).catch(() => undefined);
      }
    }
  }

  private async send(row: ClaimedRow, ticket: SendTicket): Promise<void> {
    if (row.state === 'sending') {
      // Named as on the wire only while this process still holds the lease: one that slept past it
      // and was replaced sends nothing more (the new holder sends the row once, as it is not named).
      // A database that cannot say (it is away) counts as a lost lease too: the row, not named,
      // goes back to waiting under the next holder.
      const askedAt = performance.now();
      let onWire = await this.engine.markOnWire(row.id).catch(() => false);
      if (onWire && performance.now() - askedAt > this.engine.leaseMs / 2) {
        // The answer came late (the process was frozen, or the machine stalled): another process may
        // hold the lease by now and be sending. The row was never sent: it goes back to waiting,
        // even if a new holder has counted it unknown meanwhile, and this sender stops.
        await this.db.query(WITHDRAW, [row.id, this.engine.owner]).catch(() => undefined);
        onWire = false;
      }
      if (!onWire) {
        ticket.done();
        if (!this.leaseLost) this.engine.options.log.warn({ funnel_id: this.funnel.id }, `outbox sender of funnel ${this.funnel.id}: its lease is no longer this process's; it stops sending`);
        this.leaseLost = true;
        return;
      }
    }
    const outcome = await this.attempt(row).finally(() => ticket.done());
    if (!(await this.recordOutcome(row, outcome))) return;
    if (row.mailing_id !== null && (outcome.state === 'sent' || outcome.state === 'failed')) {
      await this.engine.countOutcome(row.mailing_id, outcome.state === 'failed');
    }
  }

  /**
   * Writes what Telegram answered. While the database is away (restarting, a lost connection) it
   * is tried again until it answers, so a message that was sent shows as sent; until then the row
   * stays `sending`, named by this process, and nobody sends it again.
   */
  private async recordOutcome(row: ClaimedRow, outcome: Outcome): Promise<boolean> {
    const { log } = this.engine.options;
    const where = { funnel_id: this.funnel.id, outbox_id: row.id };
    try {
      await untilDatabaseAnswers(() => this.engine.record({ id: row.id, outcome }), {
        forMs: RECORD_RETRY_FOR_MS,
        onWait: (error, attempt) => {
          this.lastBeat = performance.now();
          if (attempt === 1) log.warn(where, `the database did not take an outcome (${outcome.state}), trying again: ${(error as Error).message}`);
        },
      });
      return true;
    } catch (error) {
      log.error(where, `could not record an outcome (${outcome.state}): ${(error as Error).message}`);
      return false;
    }
  }


  private async attempt(row: ClaimedRow): Promise<Outcome> {
    try {
      if (row.state === 'deleting') {
        await this.api.deleteMessage(row.telegram_id, row.telegram_message_id ?? 0);
        return { state: 'deleted' };
      }
      const content =
        row.mailing_id !== null ? await this.engine.messageOf(row.mailing_id) : row.letter_id !== null ? await this.engine.letterOf(row.letter_id) : undefined;
      if (!content) return { state: 'failed', error: 'The message is gone.' };
      const person = { first_name: row.first_name, last_name: row.last_name, username: row.username, person_id: String(row.person_id) };
      const fields = mayNeedFieldValues(content.message.text) ? await personFieldMap(this.db, row.person_id) : undefined;
      const text = fillPlaceholders(content.message.text, person, fields);
      const replyMarkup = messageKeyboard({ buttons: content.message.buttons, next_button: null }, '');
      const sent = await sendContent(this.db, this.api, this.funnel.id, row.telegram_id, { text, mediaId: content.message.media_id, replyMarkup, paid: content.paid });
      return { state: 'sent', messageId: sent.message_id, history: text, kind: row.letter_id !== null ? 'letter' : 'mailing' };
    } catch (error) {
      // A deletion that fails (too old, deleted by the person already): the message stays sent.
      if (row.state === 'deleting') return { state: 'failed', error: describeBotApiError(error, this.token) };
      return this.outcomeOf(row, sendFailure(error, this.token));
    }
  }

  /** What a failed send leaves in the row (telegram/send.ts says what the failure means). */
  private async outcomeOf(row: ClaimedRow, failure: SendFailure): Promise<Outcome> {
    switch (failure.kind) {
      case 'rate_limited':
        this.limiter.pauseFor(failure.retryAfterS);
        return { state: 'waiting', error: null, delayMs: failure.retryAfterS * 1000 };
      case 'blocked':
        return { state: 'blocked', error: failure.error };
      case 'token_revoked':
        this.tokenRevoked();
        return { state: 'waiting', error: null, delayMs: 0 };
      case 'paid_broadcast_unavailable':
        if (row.mailing_id === null) return { state: 'failed', error: failure.error };
        await this.engine.pauseMailing(row.mailing_id, 'paid_broadcast_unavailable');
        return { state: 'waiting', error: null, delayMs: 0 };
      case 'not_delivered': {
        const delayMs = retryDelayMs(row.attempts, this.engine.options.retryDelaysMs ?? RETRY_DELAYS_MS);
        return delayMs === null ? { state: 'failed', error: failure.error } : { state: 'waiting', error: failure.error, delayMs };
      }
      case 'maybe_delivered':
        // It may have reached Telegram: never sent again blindly.
        return { state: 'unknown', error: failure.error };
      case 'chat_not_found':
      case 'refused':
        return { state: 'failed', error: failure.error };
    }
  }

  private tokenRevoked(): void {
    if (this.revoked) return;
    this.revoked = true;
    this.engine.options.log.warn({ funnel_id: this.funnel.id }, 'Telegram refused the bot token (401): its mailings pause');
    void this.engine.options.mailings
      .pauseBot(this.funnel.id, 'token_revoked')
      .then(() => this.engine.options.onRevoked?.(this.funnel.id))
      .catch((error: unknown) => this.engine.options.log.error(`could not pause funnel ${this.funnel.id}'s mailings: ${(error as Error).message}`));
  }
}
