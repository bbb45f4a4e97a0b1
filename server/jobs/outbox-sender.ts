// The delivery engine: sends the outbox (mailings now; letters next) at each bot's rate, from any
// number of processes sharing one PostgreSQL, and never the same row twice.
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
import { type Api, GrammyError, HttpError, InputFile } from 'grammy';
import type { Message } from 'grammy/types';
import { fillPlaceholders } from '../../contract/personalise';
import { createApi, describeBotApiError } from '../telegram/client';
import type { RuntimeLog } from '../bots/runtime/funnel-context';
import { microBatch } from '../bots/runtime/store';
import type { Db } from '../db';
import { untilDatabaseAnswers } from '../db/retry';
import type { FunnelRow, MailingMessage } from '../db/schema';
import { messageKeyboard, TEXT_OPTIONS } from '../messages/render';
import { PAID_BROADCAST_RATE } from '../../contract/mailings';
import type { BotRateLimiter, BotRateLimits, SendTicket } from '../telegram/rate-limiter';
import { LetterScheduler } from './letter-scheduler';

/** A lease lasts this long unless renewed (every third of it); a dead holder's bots wait this long. */
export const LEASE_MS = 5_000;
/** How often the engine looks for due work (a start or resume through this process wakes it at once). */
export const TICK_MS = 250;
/** A bot's sender stops (and frees its lease) after this long without work. */
export const IDLE_EXIT_MS = 2_000;
/** A bot's sender that has not moved for this long (more than a 429 wait and a request timeout) is given up, logged, and the bot taken over. */
export const STALL_MS = 120_000;
/** Bots whose lease is asked for side by side in one tick. */
const ACQUIRE_AT_ONCE = 16;
/** Waits before a 5xx or a refused connection is tried again; then the row fails. */
export const RETRY_DELAYS_MS: readonly number[] = [1_000, 5_000, 30_000];
/** A mailing pauses itself when this share of its last ERROR_WINDOW outcomes failed. */
export const ERROR_WINDOW = 200;
export const ERROR_SHARE = 0.2;
/** …counted only once it has at least this many outcomes. */
export const ERROR_MIN_OUTCOMES = 20;
const API_TIMEOUT_S = 30;
/** An outcome the database did not take is tried again (server/db/retry.ts) for this long at most. */
export const RECORD_RETRY_FOR_MS = 10 * 60_000;
/** A letter's text is read again after this long (edits reach the next sends). */
const LETTER_CACHE_MS = 2_000;

export interface OutboxSenderOptions {
  db: Db;
  apiRoot: string;
  tokenOf(funnel: FunnelRow): string;
  log: RuntimeLog;
  limits: BotRateLimits;
  /** Starts a scheduled mailing whose moment came (the mailing service's startNow). */
  startMailing(mailingId: number): Promise<boolean>;
  /** Telegram refused the bot's token (401): the funnel stops and its owner sees why. */
  onRevoked?(funnelId: number): Promise<void>;
  leaseMs?: number;
  tickMs?: number;
  idleExitMs?: number;
  retryDelaysMs?: readonly number[];
}

interface ClaimedRow {
  id: number;
  mailing_id: number | null;
  letter_id: number | null;
  person_id: number;
  attempts: number;
  state: 'sending' | 'deleting';
  telegram_id: number;
  telegram_message_id: number | null;
  first_name: string;
  last_name: string;
  username: string | null;
}

type Outcome =
  | { state: 'sent'; messageId: number; history: string; kind: 'mailing' | 'letter' }
  | { state: 'deleted' }
  | { state: 'failed' | 'blocked' | 'unknown'; error: string }
  | { state: 'waiting'; error: string | null; delayMs: number };

interface OutcomeRow {
  id: number;
  outcome: Outcome;
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

/** Network failures where the request surely never reached Telegram (safe to send again). */
function neverSent(error: HttpError): boolean {
  const inner = error.error as { code?: unknown; cause?: { code?: unknown } } | undefined;
  const code = inner?.code ?? inner?.cause?.code;
  return code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EAI_AGAIN';
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

/**
 * The process $3 holds the lease of the bot $1 (a condition of every claim and name). The fence
 * is the owner: a lease that ran out while nobody took it is still safe to send under (no one
 * else sends for the bot; a slow renewal under load must not stop the bot), and once another
 * process takes it, this one can do nothing more.
 */
const LEASE_HELD = `select 1 from bot_senders b where b.funnel_id = $1 and b.owner = $3`;

const CLAIM = `
  with picked as (
    select o.id from outbox o
     where o.funnel_id = $1 and o.state = 'waiting' and o.not_before <= now() and not o.reply
       and exists (${LEASE_HELD})
       and (o.mailing_id is null or exists (select 1 from mailings m where m.id = o.mailing_id and m.state = 'sending'))
       and (o.letter_id is null or exists (
             select 1 from letters l join letter_series s on s.id = l.series_id
               join series_members sm on sm.series_id = s.id and sm.person_id = o.person_id
              where l.id = o.letter_id and l.enabled and s.enabled_at is not null and sm.left_at is null))
     order by o.priority, o.id
     limit $2
     for update of o skip locked
  )
  update outbox o set state = 'sending', attempts = o.attempts + 1, owner = null, updated_at = now()
    from picked, people p
   where o.id = picked.id and p.id = o.person_id
  returning o.id, o.mailing_id, o.letter_id, o.person_id, o.attempts, o.state, p.telegram_id, o.telegram_message_id, p.first_name, p.last_name, p.username`;

const CLAIM_UNSEND = `
  with picked as (
    select o.id from outbox o where o.funnel_id = $1 and o.state = 'unsend' and not o.reply and exists (${LEASE_HELD})
     order by o.id limit $2 for update of o skip locked
  )
  update outbox o set state = 'deleting', updated_at = now()
    from picked, people p
   where o.id = picked.id and p.id = o.person_id
  returning o.id, o.mailing_id, o.letter_id, o.person_id, o.attempts, o.state, p.telegram_id, o.telegram_message_id, p.first_name, p.last_name, p.username`;

const RECORD = `
  with r as (
    select * from unnest($1::bigint[], $2::text[], $3::bigint[], $4::text[], $5::text[], $6::int[], $7::text[])
      as r(id, state, message_id, error, history, delay_ms, kind)
  ), u as (
    update outbox o
       set state = r.state,
           owner = case when r.state = 'waiting' then null else o.owner end,
           telegram_message_id = coalesce(r.message_id, o.telegram_message_id),
           error = r.error,
           sent_at = case when r.state = 'sent' then now() else o.sent_at end,
           not_before = case when r.state = 'waiting' then now() + make_interval(secs => r.delay_ms / 1000.0) else o.not_before end,
           updated_at = now()
      from r
     where o.id = r.id
       -- only a row this process put on the wire (a later holder may have counted it unknown
       -- meanwhile: what Telegram answered is still the truth), or a deletion it claimed
       and ((o.state in ('sending', 'unknown') and o.owner = $8) or (o.state = 'deleting' and r.state in ('deleted', 'failed')))
    returning o.person_id, o.funnel_id, o.state, o.telegram_message_id, r.history, r.kind
  ), h as (
    insert into person_events (person_id, funnel_id, direction, kind, text, telegram_message_id)
    select person_id, funnel_id, 'out', kind, history, telegram_message_id from u where state = 'sent' and history is not null
  ), b as (
    update people set blocked = true from u where people.id = u.person_id and u.state = 'blocked'
  )
  select count(*)::int as n from u`;

const ACQUIRE = `
  insert into bot_senders (funnel_id, owner, lease_until) values ($1, $2, now() + make_interval(secs => $3 / 1000.0))
  on conflict (funnel_id) do update set owner = excluded.owner, lease_until = excluded.lease_until
   where bot_senders.owner = excluded.owner or bot_senders.lease_until < now()
  returning funnel_id`;

/** Keeps the lease only if nobody took it meanwhile (a holder that slept past it and was replaced has lost it). */
const RENEW = `
  update bot_senders set lease_until = now() + make_interval(secs => $3 / 1000.0)
   where funnel_id = $1 and owner = $2
  returning funnel_id`;

/**
 * The previous holder is gone: its claimed rows that were never put on the wire (no owner) go back
 * to waiting, the ones it named are unknown (their request may have reached Telegram), and its
 * deletions stay sent (a deletion is asked again only by the owner).
 */
const RECOVER = `
  update outbox set state = case when state = 'deleting' then 'sent' when owner is null then 'waiting' else 'unknown' end,
                    attempts = case when state = 'sending' and owner is null then greatest(attempts - 1, 0) else attempts end,
                    error = case when state = 'sending' and owner is not null then 'The server stopped while this message was being sent.' else error end,
                    updated_at = now()
   where funnel_id = $1 and state in ('sending', 'deleting') and not reply`;

/** Right before their requests: rows of bots whose lease this process ($2) still holds are named as on the wire. */
const ON_WIRE = `
  update outbox o set owner = $2
   where o.id = any($1::bigint[]) and o.state = 'sending' and o.owner is null and not o.reply
     and exists (select 1 from bot_senders b where b.funnel_id = o.funnel_id and b.owner = $2)
  returning o.id`;

/** A row this process named but then did not send (its name came too late): back to waiting, whoever counted it since. */
const WITHDRAW = `
  update outbox set state = 'waiting', owner = null, error = null, attempts = greatest(attempts - 1, 0), updated_at = now()
   where id = $1 and owner = $2 and state in ('sending', 'unknown') and not reply`;

/** Claimed rows never put on the wire go back (stopping, the token refused, the lease lost): only by the lease's holder. */
const RELEASE = `
  update outbox o set state = case when o.state = 'deleting' then 'unsend' else 'waiting' end, attempts = greatest(o.attempts - 1, 0), updated_at = now()
   where o.id = any($1::bigint[]) and ((o.state = 'sending' and o.owner is null) or o.state = 'deleting')
     and exists (select 1 from bot_senders b where b.funnel_id = o.funnel_id and b.owner = $2)`;

const FINISH = `
  update mailings m set state = 'finished', finished_at = now(), updated_at = now()
   where m.funnel_id = $1 and m.state = 'sending'
     and not exists (select 1 from outbox o where o.mailing_id = m.id and o.state in ('waiting', 'sending'))
  returning m.id`;

export class OutboxSender {
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
  /** Media id → Telegram file_id (or the upload that will give it). */
  readonly fileIds = new Map<number, Promise<{ fileId: string; kind: 'photo' | 'video' }>>();
  private readonly messages = new Map<number, Promise<{ message: MailingMessage; paid: boolean } | undefined>>();
  /** Series of letters: members and their moments (runs on this engine's tick). */
  readonly letterScheduler: LetterScheduler;
  private readonly letters = new Map<number, { at: number; content: Promise<{ message: MailingMessage; paid: boolean } | undefined> }>();
  /** The letters whose text is read in one turn (any bot): one statement for all of them. */
  private readonly readLetters: (letterId: number) => Promise<MailingMessage | null>;
  /** Last outcomes per mailing (true = failed), for the error threshold. */
  private readonly outcomes = new Map<number, boolean[]>();

  constructor(readonly options: OutboxSenderOptions) {
    this.letterScheduler = new LetterScheduler(options.db);
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
      const rows = await options.db.query<{ id: number; message: MailingMessage }>('select id, message from letters where id = any($1::int[])', [[...new Set(letterIds)]]);
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
    if (this.options.db.driver === 'pglite') await this.options.db.query('update bot_senders set lease_until = now() - interval \'1 second\'');
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
    const due = await db.query<{ id: number }>(`select id from mailings where state = 'scheduled' and scheduled_at <= now() order by scheduled_at limit 100`);
    for (const { id } of due) await this.options.startMailing(id);
    await this.letterScheduler.tick();
    const candidates = await db.query<{ funnel_id: number }>(
      `select funnel_id from mailings where state = 'sending'
       union select funnel_id from outbox where state in ('sending', 'unsend', 'deleting') and not reply
       union select distinct funnel_id from outbox where state = 'waiting' and letter_id is not null and not_before <= now()`,
    );
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
  }

  messageOf(mailingId: number): Promise<{ message: MailingMessage; paid: boolean } | undefined> {
    let cached = this.messages.get(mailingId);
    if (!cached) {
      cached = this.options.db
        .query<{ message: MailingMessage; paid_broadcast: boolean }>('select message, paid_broadcast from mailings where id = $1', [mailingId])
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
  letterOf(letterId: number): Promise<{ message: MailingMessage; paid: boolean } | undefined> {
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
      await this.pauseMailings('id', mailingId, 'too_many_errors');
    }
  }

  async pauseMailings(by: 'id' | 'funnel_id', id: number, reason: string): Promise<void> {
    const column = by === 'id' ? 'id' : 'funnel_id';
    await this.options.db.query(
      `update mailings set state = 'paused', pause_reason = $2, updated_at = now() where ${column} = $1 and state = 'sending'`,
      [id, reason],
    );
    this.options.log.warn({ [column]: id }, `mailings paused: ${reason}`);
  }
}

/** One bot's sender in this process, while it holds the bot's lease. */
class BotSender {
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
    private readonly engine: OutboxSender,
    private readonly funnel: FunnelRow,
    private readonly token: string,
  ) {
    const { apiRoot } = engine.options;
    this.api = createApi(token, { apiRoot, timeoutSeconds: API_TIMEOUT_S });
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
          await this.db.query(FINISH, [this.funnel.id]);
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
      await this.db.query(FINISH, [this.funnel.id]);
    } catch (error) {
      log.error({ funnel_id: this.funnel.id }, `outbox sender of funnel ${this.funnel.id} failed: ${error instanceof Error ? error.message : String(error)}`);
      if (prefetched) await prefetched.then(release).catch(() => undefined);
      await Promise.allSettled([...this.inFlight]);
    } finally {
      if (!this.leaseLost) {
        await this.db
          .query(`update bot_senders set lease_until = now() - interval '1 second' where funnel_id = $1 and owner = $2`, [this.funnel.id, this.engine.owner])
          .catch(() => undefined);
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
    const retryDelays = this.engine.options.retryDelaysMs ?? RETRY_DELAYS_MS;
    try {
      if (row.state === 'deleting') {
        await this.api.deleteMessage(row.telegram_id, row.telegram_message_id ?? 0);
        return { state: 'deleted' };
      }
      const content =
        row.mailing_id !== null ? await this.engine.messageOf(row.mailing_id) : row.letter_id !== null ? await this.engine.letterOf(row.letter_id) : undefined;
      if (!content) return { state: 'failed', error: 'The message is gone.' };
      const person = { first_name: row.first_name, last_name: row.last_name, username: row.username };
      const text = fillPlaceholders(content.message.text, person);
      const sent = await this.sendContent(row.telegram_id, content.message, text, content.paid);
      return { state: 'sent', messageId: sent.message_id, history: text, kind: row.letter_id !== null ? 'letter' : 'mailing' };
    } catch (error) {
      if (row.state === 'deleting') {
        // Too old, or deleted by the person already: it stays sent.
        return { state: 'failed', error: describeBotApiError(error, this.token) };
      }
      if (error instanceof GrammyError) {
        if (error.error_code === 403) return { state: 'blocked', error: error.description };
        if (error.error_code === 429) {
          const after = error.parameters.retry_after ?? 1;
          this.limiter.pauseFor(after);
          return { state: 'waiting', error: null, delayMs: after * 1000 };
        }
        if (error.error_code === 401) {
          this.tokenRevoked();
          return { state: 'waiting', error: null, delayMs: 0 };
        }
        if (error.error_code === 400 && /paid broadcast/i.test(error.description) && row.mailing_id !== null) {
          await this.engine.pauseMailings('id', row.mailing_id, 'paid_broadcast_unavailable');
          return { state: 'waiting', error: null, delayMs: 0 };
        }
        if (error.error_code >= 500 && row.attempts <= retryDelays.length) {
          return { state: 'waiting', error: error.description, delayMs: retryDelays[row.attempts - 1] };
        }
        return { state: 'failed', error: error.description };
      }
      if (error instanceof HttpError) {
        if (neverSent(error) && row.attempts <= retryDelays.length) {
          return { state: 'waiting', error: describeBotApiError(error, this.token), delayMs: retryDelays[row.attempts - 1] };
        }
        // It may have reached Telegram: never sent again blindly.
        return { state: 'unknown', error: describeBotApiError(error, this.token) };
      }
      return { state: 'failed', error: describeBotApiError(error, this.token) };
    }
  }

  private tokenRevoked(): void {
    if (this.revoked) return;
    this.revoked = true;
    this.engine.options.log.warn({ funnel_id: this.funnel.id }, 'Telegram refused the bot token (401): its mailings pause');
    void this.engine
      .pauseMailings('funnel_id', this.funnel.id, 'token_revoked')
      .then(() => this.engine.options.onRevoked?.(this.funnel.id))
      .catch((error: unknown) => this.engine.options.log.error(`could not pause funnel ${this.funnel.id}'s mailings: ${(error as Error).message}`));
  }

  private async sendContent(chatId: number, message: MailingMessage, text: string, paid: boolean): Promise<Message> {
    const reply_markup = messageKeyboard({ buttons: message.buttons, next_button: null }, '');
    const extra = { ...(reply_markup ? { reply_markup } : {}), ...(paid ? { allow_paid_broadcast: true } : {}) };
    if (message.media_id === null) return this.api.sendMessage(chatId, text, { ...TEXT_OPTIONS, ...extra });
    const withCaption = { ...extra, ...(text ? { caption: text, parse_mode: TEXT_OPTIONS.parse_mode } : {}) };
    const mediaId = message.media_id;
    const sendAs = (kind: 'photo' | 'video', file: string | InputFile) =>
      kind === 'photo' ? this.api.sendPhoto(chatId, file, withCaption) : this.api.sendVideo(chatId, file, withCaption);
    const known = this.engine.fileIds.get(mediaId);
    if (known) {
      const { fileId, kind } = await known;
      return sendAs(kind, fileId);
    }
    // The first send uploads; every other send of this media waits for its file_id.
    let resolveUpload!: (value: { fileId: string; kind: 'photo' | 'video' }) => void;
    let rejectUpload!: (error: unknown) => void;
    const upload = new Promise<{ fileId: string; kind: 'photo' | 'video' }>((resolve, reject) => {
      resolveUpload = resolve;
      rejectUpload = reject;
    });
    upload.catch(() => this.engine.fileIds.delete(mediaId));
    this.engine.fileIds.set(mediaId, upload);
    try {
      const [row] = await this.db.query<{ kind: 'photo' | 'video'; filename: string; telegram_file_id: string | null }>(
        'select kind, filename, telegram_file_id from media where id = $1',
        [mediaId],
      );
      if (!row) throw new Error(`media ${mediaId} is missing`);
      if (row.telegram_file_id) {
        resolveUpload({ fileId: row.telegram_file_id, kind: row.kind });
        return sendAs(row.kind, row.telegram_file_id);
      }
      const [withData] = await this.db.query<{ data: Uint8Array }>('select data from media where id = $1', [mediaId]);
      const sent = await sendAs(row.kind, new InputFile(Buffer.from(withData.data), row.filename));
      const message = sent as Message;
      const fileId = row.kind === 'photo' ? message.photo?.at(-1)?.file_id : message.video?.file_id;
      if (fileId) {
        await this.db.query('update media set telegram_file_id = $2 where id = $1', [mediaId, fileId]);
        resolveUpload({ fileId, kind: row.kind });
      } else rejectUpload(new Error('no file_id'));
      return sent;
    } catch (error) {
      rejectUpload(error);
      throw error;
    }
  }
}
