// Everything the bot runtime reads and writes in the database, as few round trips per update as
// possible: a /start or a next-step press is one statement (person, history, stage tag together),
// and the same statements of one turn of the event loop, from any bot, are sent as one.
import { randomUUID } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import type { FieldKind } from '../../../contract/fields';
import type { MessageContentBody, StageMoveVia } from '../../../contract/funnels';
import type { StagePayment } from '../../../contract/payments';
import { sourceCodeOf } from '../../../contract/sources';
import type { Db } from '../../db';
import { funnels, type FunnelRow } from '../../db/schema';
import { microBatch } from '../../db/micro-batch';
import {
  ADOPT_ORPHAN_REPLIES,
  ANSWER_IN_PLACE,
  MOVE_PERSON,
  ORPHAN_REPLIES_UNKNOWN,
  PAY_PERSON,
  REFUND_PAYMENT,
  PRUNE_REPLIES,
  RECORD_SENT_REPLIES,
  RECORD_UNSENT_REPLIES,
  RELEASE_REPLIES,
  START_PERSON,
  TAKE_REPLIES,
} from '../../outbox/sql';

/** A stage as the runtime needs it: its message is the contract's MessageContentBody. */
export interface RuntimeStage {
  id: number;
  position: number;
  tagId: number | null;
  message: MessageContentBody;
  /** A payment stage: its Stars invoice goes after its message (null: none). */
  payment: StagePayment | null;
  /** Its question (null: none, or its field was deleted): the person's next message is the answer. */
  ask: RuntimeAsk | null;
}

/** A stage's question as the runtime checks the answer. */
export interface RuntimeAsk {
  fieldId: number;
  kind: FieldKind;
  options: string[];
  reaskText: string;
}


export interface TelegramProfile {
  id: number;
  first_name: string;
  last_name?: string;
  username?: string;
  language_code?: string;
}

/** Someone wrote to a funnel's bot and its owner wants to know (funnels.inbox_alerts). */
export interface InboxAlert {
  funnelId: number;
  funnelName: string;
  personId: number;
  personName: string;
  text: string;
  ownerTelegramId: number;
  ownerLanguage: 'en' | 'ru';
}

/** A person after /start, and the stage they are in now (null: the funnel has none). */
export interface StartedPerson {
  id: number;
  stageId: number | null;
  /**
   * The outbox row of the reply (the stage's message), written with the claim, already marked
   * sending: the caller took a slot of the bot's rate first and sends it now. null: nothing to send.
   */
  replyId: number | null;
}

/** A person moved by a next-step press, and the outbox row of the reply (null: the stage has no message). */
export interface MovedPerson {
  id: number;
  replyId: number | null;
}

/** The moves a person makes themselves, through the runtime's movePerson. */
export type PersonMoveVia = Extract<StageMoveVia, 'next' | 'choice' | 'keyword' | 'answer'>;

/** A value kept for a person's field, with the move that takes them on. */
export interface KeptAnswer {
  fieldId: number;
  value: string;
}

/** A keyword as the runtime matches it. */
export interface RuntimeKeyword {
  phrase: string;
  stageId: number;
}

/** A reply taken to be sent now (marked sending): the stage whose message it is. */
export interface TakenReply {
  id: number;
  stageId: number | null;
  /** The stage's re-ask text rather than its message (an answer that did not fit). */
  askAgain?: boolean;
  /** Take away the reply keyboard of the question just answered (phone, choice). */
  removeKeyboard?: boolean;
}

/**
 * How a reply ended: sent (with Telegram's message id and the text as sent), or not; unknown: its
 * request may have reached Telegram (a timeout, a reset mid-request), so it is not sent again.
 */
export type ReplyOutcome =
  | { id: number; state: 'sent'; messageId: number; text: string; stageId: number }
  | { id: number; state: 'failed' | 'blocked' | 'skipped' | 'unknown'; error: string };

/** A dead runtime's waiting reply, taken over by this one. */
export interface AdoptedReply {
  id: number;
  funnelId: number;
  personId: number;
  telegramId: number;
  firstName: string;
  lastName: string | null;
  username: string | null;
  /** Their Telegram language (an ask's contact-request button), when Telegram told it. */
  languageCode: string | null;
}

/** Does reaching the stage send a reply (its message has text or media, or it has an invoice)? */
export function hasMessage(stage: RuntimeStage): boolean {
  return stage.message.media_id !== null || stage.message.text.trim() !== '' || stage.payment !== null;
}

/** A payment recorded (or a refund), and the person's move it caused; null fields: nothing of that. */
export interface PaymentRecorded {
  paymentId: number | null;
  personId: number | null;
  toStageId: number | null;
  replyId: number | null;
}

/** A runtime renews its row this often; a row not renewed for RUNTIME_ALIVE_MS means its process is gone. */
export const RUNTIME_HEARTBEAT_MS = 2_000;
export const RUNTIME_ALIVE_MS = 10_000;

/** What startPerson/movePerson answer for an update that was handled before (nothing was done). */
export const ALREADY_HANDLED = Symbol('already handled');

/** handled_updates rows older than this are deleted (Telegram keeps an update 24 hours at most). */
export const HANDLED_UPDATES_KEEP_HOURS = 48;

/** What follows "/start" (or "/start@bot"): Telegram's deep-link payload. */
export const startPayloadOf = (text: string) => text.replace(/^\/start(@\S+)?\s*/, '').trim();

const clip = (value: string | undefined, max: number) => (value ?? '').slice(0, max);
const nullableClip = (value: string | undefined, max: number) => (value ? value.slice(0, max) : null);

export interface RuntimeStore {
  /** Running, not archived funnels. */
  runningFunnels(): Promise<FunnelRow[]>;
  funnel(id: number): Promise<FunnelRow | undefined>;
  /**
   * True the first time (funnel, update) is seen; false for a repeat (webhook retry, a restart
   * before the offset was saved, a second poller). Every update with an effect is claimed before
   * it has one: by this, or inside startPerson/movePerson, which claim it in their own statement.
   */
  claimUpdate(funnelId: number, updateId: number): Promise<boolean>;
  saveOffset(funnelId: number, updateId: number): Promise<void>;
  stages(funnelId: number): Promise<RuntimeStage[]>;
  /**
   * /start: claims the update and, if it is new, creates or refreshes the person, records the
   * command, and writes the reply (their stage's message) to the outbox as being sent. A new person (or one whose stage was deleted) is put in `stage` and tagged; one
   * already in a stage stays there (a second /start takes nobody away from what they reached).
   * "/start src_<code>" records the person's first source (an unknown or archived code: none).
   * Answers the person and the stage they are in now; ALREADY_HANDLED for an update claimed before.
   */
  startPerson(funnelId: number, updateId: number, from: TelegramProfile, stage: RuntimeStage | null, text: string): Promise<StartedPerson | typeof ALREADY_HANDLED>;
  /** This runtime's name in runtime_processes and on the replies it writes. */
  readonly owner: string;
  /**
   * A next-step or choice press, or a keyword: claims the update and, if it is new, moves the
   * person from `fromStageId` to `to` only if they are still there (a press on an old message
   * moves nobody); a keyword (`fromStageId` null) moves them from any stage but `to`. Records what
   * they pressed or wrote (`text`; kind 'button', or 'text' for a keyword) and the move
   * (stage_moves: `via`, `label`, default the text), and tags them. null = claimed, nobody moved;
   * ALREADY_HANDLED = claimed before, nothing done.
   */
  movePerson(
    funnelId: number,
    updateId: number,
    telegramId: number,
    fromStageId: number | null,
    to: RuntimeStage,
    text: string,
    via?: PersonMoveVia,
    label?: string,
    answer?: KeptAnswer,
  ): Promise<MovedPerson | null | typeof ALREADY_HANDLED>;
  /**
   * What the stage `stageId` of the funnel asks now (its payment's Stars), when the person
   * `personId` of the funnel is the Telegram user `telegramId` (the payer of their invoice); else
   * null. Read from the database, not the cache: a price changed a moment ago is the price.
   */
  payableAmount(funnelId: number, stageId: number, personId: number, telegramId: number): Promise<number | null>;
  /**
   * A successful_payment of the stage `stageId`'s invoice: claims the update and, if it is new,
   * records the payment once per charge id and moves the payer to the stage's paid stage, with
   * its reply (outbox/sql.ts PAY_PERSON). ALREADY_HANDLED for an update claimed before.
   */
  payPerson(
    funnelId: number,
    updateId: number,
    telegramId: number,
    payment: { stageId: number | null; amount: number; currency: string; chargeId: string },
  ): Promise<PaymentRecorded | typeof ALREADY_HANDLED>;
  /** A refunded_payment: claims the update and records the refund once, moving the person to the refund stage (REFUND_PAYMENT). */
  refundPayment(funnelId: number, updateId: number, telegramId: number, chargeId: string): Promise<PaymentRecorded | typeof ALREADY_HANDLED>;
  /**
   * An answer to `stage`'s question that moves nobody: kept where no stage follows (`answer`),
   * or, null, one that does not fit: the stage's re-ask text goes to the outbox as being sent.
   * Claims the update; only a person still in `stage` is touched (null: nobody was).
   */
  answerInPlace(
    funnelId: number,
    updateId: number,
    telegramId: number,
    stage: RuntimeStage & { ask: RuntimeAsk },
    answer: KeptAnswer | null,
    text: string,
  ): Promise<{ personId: number; replyId: number | null } | null | typeof ALREADY_HANDLED>;
  /** The funnel's keywords (cached as its stages are: forgetStages drops both). */
  keywords(funnelId: number): Promise<RuntimeKeyword[]>;
  /**
   * Marks the person's waiting replies up to `upToId` sending (oldest first) and answers them;
   * none when another runtime took them. Called when the call to Telegram is about to go.
   */
  takeReplies(funnelId: number, personId: number, upToId: number): Promise<TakenReply[]>;
  /** Taken replies that were not handed to Telegram (stopping, an error before them): waiting again. */
  releaseReplies(ids: number[]): Promise<void>;
  /** Records how replies ended; a sent one goes into the person's history. */
  recordReplies(outcomes: ReplyOutcome[]): Promise<void>;
  /** Renews this runtime's row in runtime_processes (alive for RUNTIME_ALIVE_MS more). */
  heartbeat(): Promise<void>;
  /** The embedded database has one process: every other runtime row is a dead one. */
  forgetOtherRuntimes(): Promise<void>;
  /** This runtime stops: its row goes, so its leftovers are taken over at once. */
  goodbye(): Promise<void>;
  /**
   * Replies of runtimes that are gone, for these funnels: those being sent become unknown (never
   * sent again), the waiting ones are taken over by this runtime and answered here.
   */
  adoptOrphanReplies(funnelIds: number[]): Promise<{ unknown: number; adopted: AdoptedReply[] }>;
  /** The stage the person is in (null: none, or not started), read only when one of the funnel's stages asks. */
  stageOf(funnelId: number, telegramId: number): Promise<number | null>;
  /** The person's field values by key, every field of the funnel (null: no value), for `{key}` in messages. */
  fieldValues(funnelId: number, personId: number): Promise<Map<string, string | null>>;
  /** The person's id and current stage, and marks them seen and not blocked (they wrote). */
  touchPerson(funnelId: number, telegramId: number): Promise<{ id: number; stageId: number | null } | null>;
  /**
   * Records what a person wrote. Text (not a command) goes to the inbox: one more unread. The
   * answer says whom to alert, once per conversation until the owner reads it (null: nobody).
   */
  recordIncoming(funnelId: number, personId: number, kind: 'text' | 'command' | 'button', text: string): Promise<InboxAlert | null>;
  setBlocked(funnelId: number, telegramId: number, blocked: boolean): Promise<void>;
  /** The database itself, for what the runtime shares with others (telegram/send.ts reads the media). */
  readonly db: Db;
  /** The token was revoked: the funnel stops and its owner sees why. True when this call stopped it (it was running). */
  stopRevoked(funnelId: number): Promise<boolean>;
  /** Deletes handled_updates rows, and replies that ended, older than HANDLED_UPDATES_KEEP_HOURS. */
  pruneHandledUpdates(): Promise<void>;
  /** Drops one funnel's stages and keywords from memory (a read under way is not kept): its next update reads them again. */
  forgetStages(funnelId: number): void;
}

/**
 * A funnel's stages (and their messages) are read again, in the background, once the copy in
 * memory is older than this: updates never wait for it. Edits made through this process's API
 * drop the copies at once (forgetStages); this is for edits made by other processes, which share
 * only a PostgreSQL server: there, an edit reaches subscribers about a second after it is saved.
 */
export const STAGE_CACHE_MS = 1_000;
/** The embedded database has one process: every edit passes through its API. A safety net only. */
export const EMBEDDED_STAGE_CACHE_MS = 60_000;

/** What PAY_PERSON and REFUND_PAYMENT answer. */
interface RecordedRow {
  fresh: boolean;
  payment_id: string | number | null;
  person_id: number | null;
  to_stage_id: number | null;
  reply_id: string | number | null;
}

const idOrNull = (value: string | number | null) => (value === null ? null : Number(value));

function recorded(row: RecordedRow | undefined): PaymentRecorded | typeof ALREADY_HANDLED {
  if (!row?.fresh) return ALREADY_HANDLED;
  return { paymentId: idOrNull(row.payment_id), personId: row.person_id, toStageId: row.to_stage_id, replyId: idOrNull(row.reply_id) };
}

export function createRuntimeStore(db: Db, { owner = randomUUID() }: { owner?: string } = {}): RuntimeStore {
  const q = db.query.bind(db);
  // The embedded database runs one statement at a time: a batch waits for the one before it and
  // grows meanwhile (up to 100 items: a bigger one holds every reply in it back longer). A
  // PostgreSQL server runs a few at once, on the pool's connections.
  const together = { maxInFlight: db.driver === 'pglite' ? 1 : 4, maxItems: 100 };
  /** Per funnel: the stages last read, when, and a read under way. */
  const stageCache = new Map<number, { at: number; stages: RuntimeStage[]; refreshing: boolean }>();
  /** Bumped when a funnel's stages are forgotten, so a read started before then is not kept. */
  const stageGenerations = new Map<number, number>();
  const stageCacheMs = db.driver === 'pglite' ? EMBEDDED_STAGE_CACHE_MS : STAGE_CACHE_MS;
  const firstReads = new Map<number, Promise<RuntimeStage[]>>();
  // The stages of every funnel whose cache ran out in this turn: one statement for all of them.
  const readStages = microBatch<number, RuntimeStage[]>(async (funnelIds) => {
    const rows = await q<{
      funnel_id: number;
      id: number;
      position: number;
      tag_id: number | null;
      message: RuntimeStage['message'];
      payment: StagePayment | null;
      reask_text: string | null;
      field_id: number | null;
      kind: FieldKind | null;
      options: string[] | null;
    }>(
      `select s.funnel_id, s.id, s.position, s.tag_id, s.message, s.payment, s.ask->>'reask_text' as reask_text, ff.id as field_id, ff.kind, ff.options
         from stages s left join funnel_fields ff on ff.id = (s.ask->>'field_id')::int and ff.funnel_id = s.funnel_id
        where s.funnel_id = any($1::int[]) order by s.funnel_id, s.position, s.id`,
      [[...new Set(funnelIds)]],
    );
    const byFunnel = new Map<number, RuntimeStage[]>();
    for (const r of rows) {
      const list = byFunnel.get(r.funnel_id) ?? [];
      const ask = r.field_id === null || r.kind === null ? null : { fieldId: r.field_id, kind: r.kind, options: r.options ?? [], reaskText: r.reask_text ?? '' };
      list.push({ id: r.id, position: r.position, tagId: r.tag_id, message: r.message, payment: r.payment ?? null, ask });
      byFunnel.set(r.funnel_id, list);
    }
    return funnelIds.map((id) => byFunnel.get(id) ?? []);
  });

  // A funnel's keywords, read like its stages (one statement for every funnel in a turn); kept
  // in memory as long as its stages are, dropped with them (forgetStages), and like them served
  // stale while read again: every text reads them, and at 800 updates/s about half of the texts
  // waited for that read (npm run bench:bots).
  const keywordCache = new Map<number, { at: number; keywords: RuntimeKeyword[]; refreshing: boolean }>();
  const readKeywords = microBatch<number, RuntimeKeyword[]>(async (funnelIds) => {
    const rows = await q<{ funnel_id: number; phrase: string; stage_id: number }>(
      'select funnel_id, phrase, stage_id from funnel_keywords where funnel_id = any($1::int[]) order by funnel_id, id',
      [[...new Set(funnelIds)]],
    );
    const byFunnel = new Map<number, RuntimeKeyword[]>();
    for (const r of rows) {
      const list = byFunnel.get(r.funnel_id) ?? [];
      list.push({ phrase: r.phrase, stageId: r.stage_id });
      byFunnel.set(r.funnel_id, list);
    }
    return funnelIds.map((id) => byFunnel.get(id) ?? []);
  });

  // Claims and sent-message history rows made in the same turn of the event loop (by any bot)
  // go to the database as one statement each: under load that is most of an update's round trips.
  const claim = microBatch<{ funnelId: number; updateId: number }, boolean>(async (items) => {
    const rows = await q<{ funnel_id: number; update_id: string | number }>(
      `insert into handled_updates (funnel_id, update_id) select * from unnest($1::int[], $2::bigint[])
       on conflict do nothing returning funnel_id, update_id`,
      [items.map((i) => i.funnelId), items.map((i) => i.updateId)],
    );
    const fresh = new Set(rows.map((r) => `${r.funnel_id}:${Number(r.update_id)}`));
    // The same update twice in one batch (a webhook retry): only the first one is new.
    return items.map((i) => fresh.delete(`${i.funnelId}:${i.updateId}`));
  }, together);
  // A sent reply lives on in the person's history: its outbox row is deleted (cheaper for the
  // database than an update, and nothing is left to prune); one that did not go stays, with why.
  const recordReplies = microBatch<ReplyOutcome, void>(async (items) => {
    const sent = items.filter((i): i is Extract<ReplyOutcome, { state: 'sent' }> => i.state === 'sent');
    const other = items.filter((i): i is Exclude<ReplyOutcome, { state: 'sent' }> => i.state !== 'sent');
    await Promise.all([
      sent.length === 0
        ? undefined
        : q(
            RECORD_SENT_REPLIES,
            [sent.map((i) => i.id), sent.map((i) => i.messageId), sent.map((i) => i.text)],
          ),
      other.length === 0
        ? undefined
        : q(
            RECORD_UNSENT_REPLIES,
            [other.map((i) => i.id), other.map((i) => i.state), other.map((i) => i.error)],
          ),
    ]);
    return items.map(() => undefined);
  }, together);
  const takeReplies = microBatch<{ funnelId: number; personId: number; upToId: number }, TakenReply[]>(async (items) => {
    const rows = await q<{ id: string | number; stage_id: number | null; ask_again: boolean; ord: string | number }>(
      TAKE_REPLIES,
      [items.map((i) => i.funnelId), items.map((i) => i.personId), items.map((i) => i.upToId), owner],
    );
    const byOrd = new Map<number, TakenReply[]>();
    for (const r of rows) {
      const list = byOrd.get(Number(r.ord)) ?? [];
      list.push({ id: Number(r.id), stageId: r.stage_id, askAgain: r.ask_again });
      byOrd.set(Number(r.ord), list);
    }
    return items.map((_, index) => (byOrd.get(index + 1) ?? []).sort((a, b) => a.id - b.id));
  }, together);


  // /start presses and next-step presses of the same turn (any bot, any person) are one
  // statement each: the update's claim in handled_updates, and only if it is new, the person,
  // their history row and the stage's tag. One statement, so an update is never half taken, and
  // the claim costs no round trip of its own. The same update twice in a batch (a webhook retry)
  // is taken once (DISTINCT ON). A person twice in one /start batch would make the upsert fail
  // ("cannot affect row a second time"); microBatch then runs each alone.
  const startPerson = microBatch<
    {
      funnelId: number;
      updateId: number;
      telegramId: number;
      firstName: string;
      lastName: string;
      username: string | null;
      languageCode: string | null;
      stageId: number | null;
      tagId: number | null;
      text: string;
      sourceCode: string | null;
    },
    StartedPerson | typeof ALREADY_HANDLED
  >(async (items) => {
    const rows = await q<{ id: number; placed: number | null; ord: string | number; reply_id: string | number | null }>(
      START_PERSON,
      [
        items.map((i) => i.funnelId),
        items.map((i) => i.updateId),
        items.map((i) => i.telegramId),
        items.map((i) => i.firstName),
        items.map((i) => i.lastName),
        items.map((i) => i.username),
        items.map((i) => i.languageCode),
        items.map((i) => i.stageId),
        items.map((i) => i.tagId),
        items.map((i) => i.text),
        owner,
        items.map((i) => i.sourceCode),
      ],
    );
    const started = new Map(
      rows.map((r) => [Number(r.ord), { id: r.id, stageId: r.placed === null ? null : Number(r.placed), replyId: r.reply_id === null ? null : Number(r.reply_id) }]),
    );
    return items.map((_, index) => started.get(index + 1) ?? ALREADY_HANDLED);
  }, together);
  // UPDATE … FROM uses one input row per person: of two presses of one person in a batch only
  // one moves them (RETURNING says which), as if they had come one after the other. A claimed
  // press that moves nobody (an old message's button) is null; one handled before, ALREADY_HANDLED.
  const movePerson = microBatch<
    {
      funnelId: number;
      updateId: number;
      telegramId: number;
      fromStageId: number | null;
      toStageId: number;
      tagId: number | null;
      buttonText: string;
      reply: boolean;
      via: PersonMoveVia;
      label: string;
      fieldId: number | null;
      fieldValue: string | null;
    },
    MovedPerson | null | typeof ALREADY_HANDLED
  >(async (items) => {
    const rows = await q<{ id: number | null; ord: string | number; reply_id: string | number | null }>(
      MOVE_PERSON,
      [
        items.map((i) => i.funnelId),
        items.map((i) => i.updateId),
        items.map((i) => i.telegramId),
        items.map((i) => i.fromStageId),
        items.map((i) => i.toStageId),
        items.map((i) => i.tagId),
        items.map((i) => i.buttonText),
        items.map((i) => i.reply),
        owner,
        items.map((i) => i.via),
        items.map((i) => i.label),
        items.map((i) => i.fieldId),
        items.map((i) => i.fieldValue),
      ],
    );
    const claimed = new Map(
      rows.map((r) => [Number(r.ord), r.id === null ? null : { id: r.id, replyId: r.reply_id === null ? null : Number(r.reply_id) }]),
    );
    return items.map((_, index) => (claimed.has(index + 1) ? claimed.get(index + 1)! : ALREADY_HANDLED));
  }, together);
  // Where each person is, read for every text a funnel with a question gets (is it the answer?):
  // one statement for the turn's texts of every bot, not one round trip each. At 800 updates/s
  // those single reads were half of all statements and held the pool (npm run bench:bots).
  const readStagesOf = microBatch<{ funnelId: number; telegramId: number }, number | null>(async (items) => {
    const rows = await q<{ funnel_id: number; telegram_id: string | number; stage_id: number | null }>(
      `select p.funnel_id, p.telegram_id, p.stage_id
         from unnest($1::int[], $2::bigint[]) as input(funnel_id, telegram_id)
         join people p on p.funnel_id = input.funnel_id and p.telegram_id = input.telegram_id`,
      [items.map((i) => i.funnelId), items.map((i) => i.telegramId)],
    );
    const stageByPerson = new Map(rows.map((r) => [`${r.funnel_id}:${Number(r.telegram_id)}`, r.stage_id]));
    return items.map((i) => stageByPerson.get(`${i.funnelId}:${i.telegramId}`) ?? null);
  }, together);
  // People who wrote or pressed something that moved them nowhere (every ordinary text), marked
  // seen for the whole turn in one statement; a timer waiting for their silence is over, in the
  // same statement. (A move cancels timers by itself: stage_moves' trigger.)
  const touchPeople = microBatch<{ funnelId: number; telegramId: number }, { id: number; stageId: number | null } | null>(async (items) => {
    const rows = await q<{ id: number; funnel_id: number; telegram_id: string | number; stage_id: number | null }>(
      `with input as (select * from unnest($1::int[], $2::bigint[]) as input(funnel_id, telegram_id)),
       person as (
         update people p set last_seen_at = now(), blocked = false from input
          where p.funnel_id = input.funnel_id and p.telegram_id = input.telegram_id
          returning p.id, p.funnel_id, p.telegram_id, p.stage_id),
       silent as (
         update person_timers t set state = 'cancelled' from person where t.person_id = person.id and t.state = 'waiting' and t.only_if_silent)
       select id, funnel_id, telegram_id, stage_id from person`,
      [items.map((i) => i.funnelId), items.map((i) => i.telegramId)],
    );
    const byPerson = new Map(rows.map((r) => [`${r.funnel_id}:${Number(r.telegram_id)}`, { id: r.id, stageId: r.stage_id }]));
    return items.map((i) => byPerson.get(`${i.funnelId}:${i.telegramId}`) ?? null);
  }, together);
  // What people wrote (every ordinary text goes to the inbox), for the whole turn in one
  // statement: the events, one more unread each, and whether each is its person's first unread
  // (the owner's alert). Once marking them seen, this was most of the statements left per text.
  const recordTexts = microBatch<{ funnelId: number; personId: number; text: string }, InboxAlert | null>(async (items) => {
    const rows = await q<{
      ord: string | number;
      first: boolean;
      alerts: boolean;
      funnel_name: string;
      first_name: string;
      last_name: string;
      owner_telegram_id: string | number | null;
      owner_language: 'en' | 'ru';
    }>(
      `with input as (
         select * from unnest($1::int[], $2::int[], $3::text[]) with ordinality as input(person_id, funnel_id, text, ord)),
       event as (
         insert into person_events (person_id, funnel_id, direction, kind, text)
         select person_id, funnel_id, 'in', 'text', text from input order by ord),
       counted as (select person_id, count(*)::int as n, min(ord) as first_ord from input group by person_id),
       person as (
         update people p set unread_count = p.unread_count + counted.n, last_message_at = now() from counted
          where p.id = counted.person_id
          returning p.id, p.unread_count = counted.n as none_before, counted.first_ord, p.first_name, p.last_name)
       select input.ord, person.none_before and input.ord = person.first_ord as first, f.inbox_alerts as alerts,
              f.name as funnel_name, person.first_name, person.last_name, u.telegram_id as owner_telegram_id, u.language as owner_language
         from input join person on person.id = input.person_id join funnels f on f.id = input.funnel_id join users u on u.id = f.owner_id`,
      [items.map((i) => i.personId), items.map((i) => i.funnelId), items.map((i) => i.text)],
    );
    const byOrd = new Map(rows.map((r) => [Number(r.ord), r]));
    return items.map(({ funnelId, personId, text }, index) => {
      const row = byOrd.get(index + 1);
      if (!row || !row.first || !row.alerts || row.owner_telegram_id === null) return null;
      return {
        funnelId,
        funnelName: row.funnel_name,
        personId,
        personName: `${row.first_name} ${row.last_name}`.trim(),
        text,
        ownerTelegramId: Number(row.owner_telegram_id),
        ownerLanguage: row.owner_language,
      };
    });
  }, together);
  const saveOffset = microBatch<{ funnelId: number; updateId: number }, void>(async (items) => {
    const latest = new Map<number, number>();
    for (const { funnelId, updateId } of items) latest.set(funnelId, Math.max(updateId, latest.get(funnelId) ?? 0));
    await q(
      `update funnels set update_offset = greatest(funnels.update_offset, input.update_id)
       from unnest($1::int[], $2::bigint[]) as input(id, update_id) where funnels.id = input.id`,
      [[...latest.keys()], [...latest.values()]],
    );
    return items.map(() => undefined);
  }, together);

  return {
    async runningFunnels() {
      return db.orm.select().from(funnels).where(and(eq(funnels.state, 'running'), isNull(funnels.archivedAt)));
    },
    async funnel(id) {
      const [row] = await db.orm.select().from(funnels).where(eq(funnels.id, id)).limit(1);
      return row;
    },
    claimUpdate(funnelId, updateId) {
      return claim({ funnelId, updateId });
    },
    saveOffset(funnelId, updateId) {
      return saveOffset({ funnelId, updateId });
    },
    stages(funnelId) {
      const cached = stageCache.get(funnelId);
      const generation = stageGenerations.get(funnelId);
      const keep = (stages: RuntimeStage[]) => {
        if (stageGenerations.get(funnelId) === generation) stageCache.set(funnelId, { at: Date.now(), stages, refreshing: false });
      };
      if (cached) {
        // Stale while it is read again: an update never waits for a refresh.
        if (!cached.refreshing && Date.now() - cached.at >= stageCacheMs) {
          cached.refreshing = true;
          readStages(funnelId).then(
            keep,
            () => (cached.refreshing = false), // the next update tries again
          );
        }
        return Promise.resolve(cached.stages);
      }
      let first = firstReads.get(funnelId);
      if (!first) {
        first = readStages(funnelId).then((stages) => {
          if (stageCache.size > 10_000) stageCache.clear();
          keep(stages);
          return stages;
        });
        firstReads.set(funnelId, first);
        const reading = first;
        void reading.finally(() => firstReads.get(funnelId) === reading && firstReads.delete(funnelId)).catch(() => undefined);
      }
      return first;
    },
    startPerson(funnelId, updateId, from, stage, text) {
      return startPerson({
        funnelId,
        updateId,
        telegramId: from.id,
        firstName: clip(from.first_name, 128),
        lastName: clip(from.last_name, 128),
        username: nullableClip(from.username, 64),
        languageCode: nullableClip(from.language_code, 16),
        stageId: stage?.id ?? null,
        tagId: stage?.tagId ?? null,
        text,
        sourceCode: sourceCodeOf(startPayloadOf(text)),
      });
    },
    movePerson(funnelId, updateId, telegramId, fromStageId, to, text, via = 'next', label = text, answer) {
      return movePerson({
        funnelId,
        updateId,
        telegramId,
        fromStageId,
        toStageId: to.id,
        tagId: to.tagId,
        buttonText: text,
        reply: hasMessage(to),
        via,
        label,
        fieldId: answer?.fieldId ?? null,
        fieldValue: answer?.value ?? null,
      });
    },
    async answerInPlace(funnelId, updateId, telegramId, stage, answer, text) {
      const [row] = await q<{ claimed: boolean; person_id: number | null; reply_id: string | number | null }>(ANSWER_IN_PLACE, [
        funnelId,
        updateId,
        telegramId,
        stage.id,
        stage.ask.fieldId,
        answer?.value ?? null,
        text,
        owner,
      ]);
      if (!row.claimed) return ALREADY_HANDLED;
      if (row.person_id === null) return null;
      return { personId: row.person_id, replyId: row.reply_id === null ? null : Number(row.reply_id) };
    },
    async payableAmount(funnelId, stageId, personId, telegramId) {
      const rows = await q<{ amount: number | null }>(
        `select (s.payment->>'amount')::int as amount from stages s join people p on p.funnel_id = s.funnel_id
          where s.id = $1 and s.funnel_id = $2 and p.id = $3 and p.telegram_id = $4`,
        [stageId, funnelId, personId, telegramId],
      );
      return rows[0]?.amount ?? null;
    },
    async payPerson(funnelId, updateId, telegramId, payment) {
      const [row] = await q<RecordedRow>(PAY_PERSON, [funnelId, updateId, telegramId, payment.stageId, payment.amount, payment.currency, payment.chargeId, owner]);
      return recorded(row);
    },
    async refundPayment(funnelId, updateId, telegramId, chargeId) {
      const [row] = await q<RecordedRow>(REFUND_PAYMENT, [funnelId, chargeId, telegramId, updateId, owner]);
      return recorded(row);
    },
    keywords(funnelId) {
      const cached = keywordCache.get(funnelId);
      const generation = stageGenerations.get(funnelId);
      const read = () =>
        readKeywords(funnelId).then((keywords) => {
          if (keywordCache.size > 10_000) keywordCache.clear();
          if (stageGenerations.get(funnelId) === generation) keywordCache.set(funnelId, { at: Date.now(), keywords, refreshing: false });
          return keywords;
        });
      if (!cached) return read();
      if (!cached.refreshing && Date.now() - cached.at >= stageCacheMs) {
        cached.refreshing = true;
        read().catch(() => (cached.refreshing = false)); // the next text tries again
      }
      return Promise.resolve(cached.keywords);
    },
    stageOf(funnelId, telegramId) {
      return readStagesOf({ funnelId, telegramId });
    },
    async fieldValues(funnelId, personId) {
      const rows = await q<{ key: string; value: string | null }>(
        `select ff.key, pf.value from funnel_fields ff left join person_fields pf on pf.field_id = ff.id and pf.person_id = $2 where ff.funnel_id = $1`,
        [funnelId, personId],
      );
      return new Map(rows.map((r) => [r.key, r.value]));
    },
    touchPerson(funnelId, telegramId) {
      return touchPeople({ funnelId, telegramId });
    },
    async recordIncoming(funnelId, personId, kind, text) {
      if (kind !== 'text') {
        await q(`insert into person_events (person_id, funnel_id, direction, kind, text) values ($1, $2, 'in', $3, $4)`, [personId, funnelId, kind, text]);
        return null;
      }
      return recordTexts({ funnelId, personId, text });
    },
    owner,
    db,
    takeReplies(funnelId, personId, upToId) {
      return takeReplies({ funnelId, personId, upToId });
    },
    async releaseReplies(ids) {
      if (ids.length === 0) return;
      await q(RELEASE_REPLIES, [ids]);
    },
    async recordReplies(outcomes) {
      await Promise.all(outcomes.map((outcome) => recordReplies(outcome)));
    },
    async heartbeat() {
      await q(
        `insert into runtime_processes (owner, alive_until) values ($1, now() + make_interval(secs => $2 / 1000.0))
         on conflict (owner) do update set alive_until = excluded.alive_until`,
        [owner, RUNTIME_ALIVE_MS],
      );
    },
    async forgetOtherRuntimes() {
      await q('delete from runtime_processes where owner <> $1', [owner]);
    },
    async goodbye() {
      await q('delete from runtime_processes where owner = $1', [owner]);
    },
    async adoptOrphanReplies(funnelIds) {
      if (funnelIds.length === 0) return { unknown: 0, adopted: [] };
            const unknown = await q(
        ORPHAN_REPLIES_UNKNOWN,
        [funnelIds],
      );
      const adopted = await q<{ id: string | number; funnel_id: number; person_id: number; telegram_id: string | number; first_name: string; last_name: string | null; username: string | null; language_code: string | null }>(
        ADOPT_ORPHAN_REPLIES,
        [funnelIds, owner],
      );
      return {
        unknown: unknown.length,
        adopted: adopted
          .map((r) => ({
            id: Number(r.id),
            funnelId: r.funnel_id,
            personId: r.person_id,
            telegramId: Number(r.telegram_id),
            firstName: r.first_name,
            lastName: r.last_name,
            username: r.username,
            languageCode: r.language_code,
          }))
          .sort((a, b) => a.id - b.id),
      };
    },
    async setBlocked(funnelId, telegramId, blocked) {
      await q('update people set blocked = $3 where funnel_id = $1 and telegram_id = $2', [funnelId, telegramId, blocked]);
    },
    async stopRevoked(funnelId) {
      const stopped = await q<{ id: number }>(
        `update funnels set state = 'stopped', stop_reason = 'token_revoked', updated_at = now() where id = $1 and state = 'running' returning id`,
        [funnelId],
      );
      return stopped.length > 0;
    },
    forgetStages(funnelId) {
      stageCache.delete(funnelId);
      keywordCache.delete(funnelId);
      firstReads.delete(funnelId);
      // A read that started before the write may end after it: what it read is not kept.
      stageGenerations.set(funnelId, (stageGenerations.get(funnelId) ?? 0) + 1);
    },
    async pruneHandledUpdates() {
      await q(`delete from handled_updates where handled_at < now() - make_interval(hours => $1)`, [HANDLED_UPDATES_KEEP_HOURS]);
      // Replies that ended: the person's history keeps what was sent.
      await q(
        PRUNE_REPLIES,
        [HANDLED_UPDATES_KEEP_HOURS],
      );
    },
  };
}
