// What the delivery engine is given by the process that runs it (server/main.ts): the database,
// the Bot API root, the bots' tokens and rate, and the ports through which it tells others what
// happened. It imports none of them: a mailing's state is the mailing side's (mailings/state.ts),
// a revoked token the bot runtime's.
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db';
import type { FunnelRow } from '../db/schema';
import type { BotRateLimits } from '../telegram/rate-limiter';
import type { WebhookSenderOptions } from './webhook-sender';

export type OutboxLog = Pick<FastifyBaseLogger, 'info' | 'warn' | 'error' | 'debug'>;

/** Why the engine paused a mailing (shown to its owner). */
export type MailingPauseReason = 'too_many_errors' | 'paid_broadcast_unavailable' | 'token_revoked';

/** The mailing side, as the engine sees it: every change of a mailing's state goes through here. */
export interface MailingEvents {
  /** Scheduled mailings whose moment came start (their rows are made), on every tick. */
  startDue(): Promise<void>;
  /** The bot's sending mailings with nothing left to send are finished. */
  finishSent(funnelId: number): Promise<void>;
  /** A sending mailing pauses itself. */
  pause(mailingId: number, reason: MailingPauseReason): Promise<void>;
  /** Every sending mailing of a bot pauses (its token was revoked). */
  pauseBot(funnelId: number, reason: MailingPauseReason): Promise<void>;
}

export interface OutboxSenderOptions {
  db: Db;
  apiRoot: string;
  tokenOf(funnel: FunnelRow): string;
  log: OutboxLog;
  limits: BotRateLimits;
  mailings: MailingEvents;
  /** Telegram refused the bot's token (401): the funnel stops and its owner sees why. */
  onRevoked?(funnelId: number): Promise<void>;
  /** Outgoing webhooks, sent beside the outbox (webhook-sender.ts); off when omitted. */
  webhooks?: Omit<WebhookSenderOptions, 'db' | 'log'>;
  leaseMs?: number;
  /** Timers fired per statement (outbox/timer-scheduler.ts). */
  timerBatch?: number;
  tickMs?: number;
  idleExitMs?: number;
  retryDelaysMs?: readonly number[];
}
