// The delivery engine: sends the outbox (mailings and letters; replies are the bot runtime's) at
// each bot's rate, from any number of processes sharing one PostgreSQL, and never the same row
// twice. This file holds the leases and the tick; bot-sender.ts one bot's loop; sql.ts every
// statement; ports.ts what it is given (it imports nothing of bots/ or mailings/).
//
// Why our own claim and not pg-boss or graphile-worker: a job library gives "run this job once",
// but the work here is a stream of tiny sends per bot under a per-bot rate that must hold across
// processes, with a state per recipient the owner watches. A job per message would multiply the
// writes (job row + outbox row) and still need the per-bot rate; a job per bot is what the lease
// below is. So: one lease row per bot (bot_senders) says which process sends that bot's outbox;
// its holder claims small batches with FOR UPDATE SKIP LOCKED (safe even if two held it), marks
// them sending in the claim, and writes each outcome after the Bot API call.
//
// A claimed row is not on the wire yet: right before its request, the row is marked with this
// process's name (`outbox.owner`) in a statement that also checks that the process still holds
// the bot's lease (many bots' marks go as one statement). So:
// - a holder killed with SIGKILL leaves claimed rows without a name: the next holder sends them;
//   only the rows named (whose request may have reached Telegram) become `unknown` (counted,
//   shown, never sent again);
// - a holder frozen past its lease (SIGSTOP, a stalled machine) wakes up unable to mark anything:
//   it sends nothing more once another process holds the lease, and its claims, releases and
//   renewals all name the lease too (a renewal keeps a lease only if nobody took it meanwhile);
// - an outcome is written only to a row this process named; one that cannot be written because
//   the database is away is written when it answers again.
import { randomUUID } from 'node:crypto';
import { microBatch } from '../db/micro-batch';
import type { MailingMessage } from '../db/schema';
import { BotSender, type BotSenderHost, type MessageContent, type OutcomeRow, TICK_MS } from './bot-sender';
import { LetterScheduler } from './letter-scheduler';
import { TimerScheduler } from './timer-scheduler';
import type { MailingPauseReason, OutboxSenderOptions } from './ports';
import { ACQUIRE, BOTS_WITH_WORK, FREE_ALL_LEASES, LETTERS_CONTENT, MAILING_CONTENT, ON_WIRE, RECORD } from './sql';
import { WebhookSender } from './webhook-sender';


export { IDLE_EXIT_MS, RECORD_RETRY_FOR_MS, RETRY_DELAYS_MS, TICK_MS } from './bot-sender';
export type { MailingEvents, OutboxSenderOptions } from './ports';

/** A lease lasts this long unless renewed (every third of it); a dead holder's bots wait this long. */
export const LEASE_MS = 5_000;
/** A bot's sender that has not moved for this long (more than a 429 wait and a request timeout) is given up, logged, and the bot taken over. */
export const STALL_MS = 120_000;
/** Bots whose lease is asked for side by side in one tick. */
const ACQUIRE_AT_ONCE = 16;
/** A mailing pauses itself when this share of its last ERROR_WINDOW outcomes failed. */
export const ERROR_WINDOW = 200;
export const ERROR_SHARE = 0.2;
/** …counted only once it has at least this many outcomes. */
export const ERROR_MIN_OUTCOMES = 20;
/** A letter's text is read again after this long (edits reach the next sends). */
const LETTER_CACHE_MS = 2_000;

export class OutboxSender implements BotSenderHost {
  /** This process's name in bot_senders. */
  readonly owner = randomUUID();
  private readonly senders = new Map<number, BotSender>();
  private timer: NodeJS.Timeout | undefined;
  private ticking: Promise<void> | undefined;
  private started = false;
  private stopping = false;
  readonly record: (row: OutcomeRow) => Promise<number>;
  /** Names a claimed row as on the wire, right before its request; false when this process no longer holds the bot's lease. */
  readonly markOnWire: (outboxId: number) => Promise<boolean>;
  private readonly messages = new Map<number, Promise<MessageContent | undefined>>();
  /** Series of letters: members and their moments (runs on this engine's tick). */
  readonly letterScheduler: LetterScheduler;
  /** Stages' waits: due timers move people on (runs on this engine's tick). */
  readonly timerScheduler: TimerScheduler;
  /** Outgoing webhooks: poked on each tick, its passes run beside it. */
  readonly webhookSender: WebhookSender | null;
  private readonly letters = new Map<number, { at: number; content: Promise<MessageContent | undefined> }>();
  /** The letters whose text is read in one turn (any bot): one statement for all of them. */
  private readonly readLetters: (letterId: number) => Promise<MailingMessage | null>;
  /** Last outcomes per mailing (true = failed), for the error threshold. */
  private readonly outcomes = new Map<number, boolean[]>();

  constructor(readonly options: OutboxSenderOptions) {
    this.letterScheduler = new LetterScheduler(options.db);
    this.timerScheduler = new TimerScheduler(options.db, options.timerBatch);
    this.webhookSender = options.webhooks ? new WebhookSender({ ...options.webhooks, db: options.db, log: options.log }) : null;
    // Outcomes and letter reads of many bots go as few statements: while one runs, the calls made
    // meanwhile wait and go together as the next (group commit; one at a time on PGlite).
    const together = { maxInFlight: options.db.driver === 'pglite' ? 1 : 4, maxItems: 500 };
    this.record = microBatch(async (rows: OutcomeRow[]) => {
      const ids: number[] = [];
      const states: string[] = [];
      const messageIds: Array<number | null> = [];
      const errors: Array<string | null> = [];
      const history: Array<string | null> = [];
      const delays: number[] = [];
      const kinds: Array<string | null> = [];
      for (const { id, outcome } of rows) {
        kinds.push(outcome.state === 'sent' ? outcome.kind : null);
        ids.push(id);
        states.push(outcome.state);
        messageIds.push(outcome.state === 'sent' ? outcome.messageId : null);
        errors.push('error' in outcome ? outcome.error : null);
        history.push(outcome.state === 'sent' ? outcome.history : null);
        delays.push(outcome.state === 'waiting' ? outcome.delayMs : 0);
      }
      await options.db.query(RECORD, [ids, states, messageIds, errors, history, delays, kinds, this.owner]);
      return rows.map(() => 1);
    }, together);
    this.markOnWire = microBatch(async (ids: number[]) => {
      const marked = await options.db.query<{ id: number }>(ON_WIRE, [ids, this.owner]);
      // bigint ids come back as strings from node-postgres, as numbers from PGlite
      const named = new Set(marked.map((r) => String(r.id)));
      return ids.map((id) => named.has(String(id)));
    }, together);
    this.readLetters = microBatch(async (letterIds: number[]) => {
      const rows = await options.db.query<{ id: number; message: MailingMessage }>(LETTERS_CONTENT, [[...new Set(letterIds)]]);
      const byId = new Map(rows.map((r) => [r.id, r.message]));
      return letterIds.map((id) => byId.get(id) ?? null);
    }, together);
  }

  get leaseMs(): number {
    return this.options.leaseMs ?? LEASE_MS;
  }

  /** Bots whose outbox this process sends now. */
  activeFunnelIds(): number[] {
    return [...this.senders.keys()];
  }

  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    // The embedded database belongs to this one process: any lease in it is a previous run's.
    if (this.options.db.driver === 'pglite') await this.options.db.query(FREE_ALL_LEASES);
    this.schedule(0);
  }

  /** There is work now (a mailing started, resumed, or was asked to delete its messages). */
  wake(): void {
    if (this.started && !this.stopping) this.schedule(0);
  }

  private schedule(ms: number): void {
    if (this.stopping) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (this.ticking) return this.schedule(this.options.tickMs ?? TICK_MS);
      this.ticking = this.tick()
        .catch((error: unknown) => this.options.log.error(`outbox sender: ${error instanceof Error ? error.message : String(error)}`))
        .finally(() => {
          this.ticking = undefined;
          this.schedule(this.options.tickMs ?? TICK_MS);
        });
    }, ms);
    this.timer.unref();
  }

  private async tick(): Promise<void> {
    const { db } = this.options;
    await this.options.mailings.startDue();
    await this.letterScheduler.tick();
    await this.timerScheduler.tick();
    this.webhookSender?.poke();
    const candidates = await db.query<{ funnel_id: number }>(BOTS_WITH_WORK);
    for (const [funnelId, sender] of this.senders) {
      if (performance.now() - sender.lastBeat > STALL_MS) {
        this.options.log.error({ funnel_id: funnelId }, `outbox sender of funnel ${funnelId} made no progress for ${STALL_MS / 1000} s: given up, the bot is taken over`);
        sender.abandon();
        this.senders.delete(funnelId);
      }
    }
    // Bots are taken up a few at a time side by side (a thousand due at once start in seconds).
    const waiting = candidates.map((c) => c.funnel_id).filter((id) => !this.senders.has(id));
    for (let i = 0; i < waiting.length && !this.stopping; i += ACQUIRE_AT_ONCE) {
      await Promise.all(waiting.slice(i, i + ACQUIRE_AT_ONCE).map((funnelId) => this.takeUp(funnelId)));
    }
  }

  /** Takes the bot's lease if it is free and starts its sender here. */
  private async takeUp(funnelId: number): Promise<void> {
    const { db } = this.options;
    if (this.stopping || this.senders.has(funnelId)) return;
    const got = await db.query(ACQUIRE, [funnelId, this.owner, this.leaseMs]);
    if (got.length === 0) return;
    const [funnel] = await db.orm.query.funnels.findMany({ where: (f, { eq }) => eq(f.id, funnelId), limit: 1 });
    if (!funnel || this.senders.has(funnelId)) return;
    let token: string;
    try {
      token = this.options.tokenOf(funnel);
    } catch (error) {
      this.options.log.error(`outbox sender: no token for funnel ${funnelId}: ${(error as Error).message}`);
      return;
    }
    const sender = new BotSender(this, funnel, token);
    this.senders.set(funnelId, sender);
    void sender.run().finally(() => {
      if (this.senders.get(funnelId) === sender) this.senders.delete(funnelId);
    });
  }

  /** Stops claiming, lets the sends on the wire finish and record, frees the leases. */
  async stop(): Promise<void> {
    this.stopping = true;
    clearTimeout(this.timer);
    await this.ticking;
    await Promise.allSettled([...this.senders.values()].map((s) => s.stop()));
    await this.webhookSender?.stop();
  }

  messageOf(mailingId: number): Promise<MessageContent | undefined> {
    let cached = this.messages.get(mailingId);
    if (!cached) {
      cached = this.options.db
        .query<{ message: MailingMessage; paid_broadcast: boolean }>(MAILING_CONTENT, [mailingId])
        .then(([row]) => (row ? { message: row.message, paid: row.paid_broadcast } : undefined));
      cached.catch(() => this.messages.delete(mailingId));
      this.messages.set(mailingId, cached);
      if (this.messages.size > 1000) this.messages.delete(this.messages.keys().next().value!);
    }
    return cached;
  }

  /**
   * A letter's message, read again at most every LETTER_CACHE_MS (the owner may edit it
   * meanwhile); the sends waiting for the same letter share one read.
   */
  letterOf(letterId: number): Promise<MessageContent | undefined> {
    const cached = this.letters.get(letterId);
    if (cached && performance.now() - cached.at < LETTER_CACHE_MS) return cached.content;
    const content = this.readLetters(letterId).then((message) => (message ? { message, paid: false } : undefined));
    content.catch(() => this.letters.delete(letterId));
    if (this.letters.size > 10_000) this.letters.clear();
    this.letters.set(letterId, { at: performance.now(), content });
    return content;
  }


  /** Counts an outcome; true when the mailing's errors piled up and it was paused. */
  async countOutcome(mailingId: number, failed: boolean): Promise<void> {
    let list = this.outcomes.get(mailingId);
    if (!list) this.outcomes.set(mailingId, (list = []));
    list.push(failed);
    if (list.length > ERROR_WINDOW) list.shift();
    const failures = list.filter(Boolean).length;
    if (list.length >= ERROR_MIN_OUTCOMES && failures / list.length >= ERROR_SHARE) {
      this.outcomes.delete(mailingId);
      await this.pauseMailing(mailingId, 'too_many_errors');
    }
  }

  pauseMailing(mailingId: number, reason: MailingPauseReason): Promise<void> {
    this.options.log.warn({ mailing_id: mailingId }, `mailing paused: ${reason}`);
    return this.options.mailings.pause(mailingId, reason);
  }
}
