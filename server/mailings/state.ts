// The mailing state machine: which action is allowed in which state, and where it leads (pure),
// and every write that applies it: the owner's (edit, schedule, start, pause, resume, cancel,
// delete from the chats) and the delivery engine's (start when due, finish, pause), which it
// reaches only through its MailingEvents port (server/outbox/ports.ts). No other module writes a
// mailing's row once it is made. Each write is a conditional UPDATE (… WHERE state IN (from)), so
// two requests (or a request and the engine, or two processes) racing on one mailing cannot both
// win; an owner's write has the owner in its own WHERE, so it can never touch another's mailing.
import { and, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import { DELETE_FROM_CHATS_HOURS, type MailingState } from '../../contract/mailings';
import type { Database, Db } from '../db';
import { rawSql } from '../db/raw';
import { mailings, type MailingRow } from '../db/schema';
import { conflict, invalid, notFound, type DomainError } from '../domain-error';
import { ownersFunnelIds } from '../funnels/access';
import type { MailingEvents, MailingPauseReason } from '../outbox/ports';
import { CANCEL_MAILING_ROWS, MAILING_ROWS_LEFT, UNSEND_MAILING, insertMailingRows } from '../outbox/sql';
import { audienceQuery } from './audience';
import { MAILING_ERRORS } from './errors';

export type MailingAction = 'edit' | 'schedule' | 'start' | 'pause' | 'resume' | 'cancel' | 'finish' | 'unsend';

/** The states an action may start from, and the state it leaves (null: the state stays). */
export const MAILING_TRANSITIONS: Record<MailingAction, { from: readonly MailingState[]; to: MailingState | null }> = {
  edit: { from: ['draft', 'scheduled'], to: null },
  schedule: { from: ['draft', 'scheduled'], to: 'scheduled' },
  start: { from: ['draft', 'scheduled'], to: 'sending' },
  pause: { from: ['sending'], to: 'paused' },
  resume: { from: ['paused'], to: 'sending' },
  cancel: { from: ['draft', 'scheduled', 'sending', 'paused'], to: 'cancelled' },
  finish: { from: ['sending'], to: 'finished' },
  unsend: { from: ['finished', 'cancelled'], to: null },
};

export function canApply(action: MailingAction, state: MailingState): boolean {
  return MAILING_TRANSITIONS[action].from.includes(state);
}

/** The state after `action`, or null when the action is not allowed in `state`. */
export function nextState(action: MailingAction, state: MailingState): MailingState | null {
  if (!canApply(action, state)) return null;
  return MAILING_TRANSITIONS[action].to ?? state;
}

/** Sending may happen only here: the engine claims rows of mailings in this state alone. */
export const isSending = (state: MailingState) => state === 'sending';

/** Scheduled mailings started per tick at most (the rest start at the next one). */
const DUE_PER_TICK = 100;

/** A transaction, as Drizzle hands it to orm.transaction's callback. */
type Tx = Parameters<Parameters<Database['transaction']>[0]>[0];
/** Where a transition writes: the database's query API, or a transaction already open on it. */
export type MailingWriter = Database | Tx;

/** One owner's mailing, as a user-driven transition names it. */
export interface OwnedMailing {
  ownerId: number;
  mailingId: number;
}

/** What an edit may change (the state stays). */
export type MailingEdit = Partial<Pick<MailingRow, 'title' | 'message' | 'audience' | 'paidBroadcast'>>;

type MailingColumns = Partial<typeof mailings.$inferInsert>;

/** This mailing, if the owner's: part of every owner's write's WHERE. */
const ownersMailing = (writer: MailingWriter, { ownerId, mailingId }: OwnedMailing) =>
  and(eq(mailings.id, mailingId), inArray(mailings.funnelId, ownersFunnelIds(writer, ownerId)));

/**
 * Why an owner's transition wrote nothing, as the owner is told: another user's (or no) mailing
 * is not found, their own in a state the action is not allowed from is a conflict.
 */
async function refusal(writer: MailingWriter, target: OwnedMailing): Promise<DomainError> {
  const [own] = await writer.select({ id: mailings.id }).from(mailings).where(ownersMailing(writer, target)).limit(1);
  return own ? conflict(MAILING_ERRORS.mailingState) : notFound();
}

/**
 * Applies `action` to the owner's mailing if it is in one of the action's `from` states (and
 * matches `also`): its `to` state and `columns`, in one conditional UPDATE. Answers the row as
 * written, or throws the refusal.
 */
async function applyToOwners(writer: MailingWriter, action: MailingAction, target: OwnedMailing, columns: MailingColumns, also?: SQL): Promise<MailingRow> {
  const { from, to } = MAILING_TRANSITIONS[action];
  const [row] = await writer
    .update(mailings)
    .set({ ...columns, ...(to ? { state: to } : {}) })
    .where(and(ownersMailing(writer, target), inArray(mailings.state, [...from]), also))
    .returning();
  if (!row) throw await refusal(writer, target);
  return row;
}

/** The owner edits a draft or scheduled mailing's title, message, audience or paid flag. */
export function editMailing(writer: MailingWriter, target: OwnedMailing, edit: MailingEdit, now: Date): Promise<MailingRow> {
  return applyToOwners(writer, 'edit', target, { ...edit, updatedAt: now });
}

/** The owner schedules a draft (or moves a scheduled one) to `at`; the engine starts it then (startDue). */
export function scheduleMailing(writer: MailingWriter, target: OwnedMailing, at: Date, now: Date): Promise<MailingRow> {
  return applyToOwners(writer, 'schedule', target, { scheduledAt: at, updatedAt: now });
}

/** The owner pauses a sending mailing: its waiting rows stay, unclaimed, until it resumes. */
export function pauseMailing(writer: MailingWriter, target: OwnedMailing, now: Date): Promise<MailingRow> {
  return applyToOwners(writer, 'pause', target, { pauseReason: null, updatedAt: now });
}

/** The owner resumes a paused mailing (whatever paused it): the engine claims its waiting rows again. */
export function resumeMailing(writer: MailingWriter, target: OwnedMailing, now: Date): Promise<MailingRow> {
  return applyToOwners(writer, 'resume', target, { pauseReason: null, updatedAt: now });
}

/**
 * The owner cancels a mailing that has not ended: nobody else gets it (its waiting rows are
 * cancelled in the same transaction, only once the mailing is known to be theirs); what was sent
 * stays sent.
 */
export function cancelMailing(writer: MailingWriter, target: OwnedMailing, now: Date): Promise<MailingRow> {
  return writer.transaction(async (tx) => {
    // Why it had paused itself is no longer the news: it was cancelled.
    const row = await applyToOwners(tx, 'cancel', target, { pauseReason: null, finishedAt: now, updatedAt: now });
    await tx.execute(rawSql(CANCEL_MAILING_ROWS, [row.id]));
    return row;
  });
}

/**
 * "Also delete from the chats", once per ended mailing: its sent rows still within Telegram's 48
 * hours are marked for the engine to delete, in the transaction that marks the mailing; with none
 * left to delete nothing is written and the owner is told it is too late.
 */
export function unsendMailing(writer: MailingWriter, target: OwnedMailing, now: Date): Promise<MailingRow> {
  return writer.transaction(async (tx) => {
    const row = await applyToOwners(tx, 'unsend', target, { unsentAt: now, updatedAt: now }, isNull(mailings.unsentAt));
    const marked = (await tx.execute(rawSql(UNSEND_MAILING, [row.id, DELETE_FROM_CHATS_HOURS, target.ownerId]))) as unknown as { rows: Array<{ n: number }> };
    if (Number(marked.rows[0]?.n ?? 0) === 0) throw invalid(MAILING_ERRORS.unsendTooLate);
    return row;
  });
}

/**
 * Turns a draft or scheduled mailing to sending and makes one outbox row per recipient, in one
 * transaction: a second start (a double click, another process starting it on schedule) finds
 * the state changed and does nothing. Answers false when it was not startable. With `ownerId`,
 * only that owner's mailing starts; without, the engine starts a scheduled one as itself.
 */
export async function startMailing(db: Db, mailingId: number, { now, ownerId }: { now: () => Date; ownerId?: number }): Promise<boolean> {
  const orm = db.orm;
  // The audience is read first (its lists may need their own statements), outside the
  // transaction; the conditional update below still lets only one start through.
  const [pre] = await orm.select({ funnelId: mailings.funnelId, audience: mailings.audience }).from(mailings).where(eq(mailings.id, mailingId)).limit(1);
  if (!pre) return false;
  const audience = await audienceQuery(db, pre.funnelId, pre.audience);
  const { from, to } = MAILING_TRANSITIONS.start;
  return orm.transaction(async (tx) => {
    const [row] = await tx
      .update(mailings)
      .set({ state: to ?? undefined, startedAt: now(), scheduledAt: null, updatedAt: now() })
      .where(
        and(
          eq(mailings.id, mailingId),
          ownerId === undefined ? undefined : inArray(mailings.funnelId, ownersFunnelIds(tx, ownerId)),
          inArray(mailings.state, [...from]),
        ),
      )
      .returning();
    if (!row) return false;
    const mailing = `$${audience.params.length + 1}`;
    await tx.execute(
      rawSql(
        `with made as (${insertMailingRows(audience.where, audience.params.length)})
         update mailings set recipient_count = (select count(*) from made) where id = ${mailing}`,
        [...audience.params, row.id],
      ),
    );
    return true;
  });
}

/**
 * Billing, when a subscription ends: the owner's sending and scheduled mailings pause with
 * pause_reason 'billing' (nothing is deleted; a scheduled one keeps its moment). Answers their ids.
 */
export async function pauseOwnersMailingsForBilling(writer: MailingWriter, ownerId: number, now: Date): Promise<number[]> {
  const rows = await writer
    .update(mailings)
    .set({ state: 'paused', pauseReason: 'billing', updatedAt: now })
    .where(and(inArray(mailings.funnelId, ownersFunnelIds(writer, ownerId)), inArray(mailings.state, ['sending', 'scheduled'])))
    .returning({ id: mailings.id });
  return rows.map((row) => row.id);
}

/**
 * Billing, on payment (or the owner resuming one): what billing paused goes on as it was. One
 * that had started sends again; one that had not is scheduled again (the engine starts it at
 * once if its moment has passed). `mailingId` narrows it to one mailing. Answers their ids.
 */
export async function resumeOwnersMailingsFromBilling(writer: MailingWriter, ownerId: number, now: Date, mailingId?: number): Promise<number[]> {
  const rows = await writer
    .update(mailings)
    .set({ state: sql`case when ${mailings.startedAt} is null then 'scheduled' else 'sending' end`, pauseReason: null, updatedAt: now })
    .where(
      and(
        inArray(mailings.funnelId, ownersFunnelIds(writer, ownerId)),
        eq(mailings.state, 'paused'),
        eq(mailings.pauseReason, 'billing'),
        mailingId === undefined ? undefined : eq(mailings.id, mailingId),
      ),
    )
    .returning({ id: mailings.id });
  return rows.map((row) => row.id);
}

/** The owner sends a draft or scheduled mailing now (startMailing), or is told why not. */
export async function startOwnersMailing(db: Db, target: OwnedMailing, now: () => Date): Promise<void> {
  if (!(await startMailing(db, target.mailingId, { now, ownerId: target.ownerId }))) throw await refusal(db.orm, target);
}

/** The mailing side of the delivery engine (its MailingEvents port), on this database. */
export function mailingEvents(
  db: Db,
  {
    now = () => new Date(),
    wake,
    onAutoPaused,
  }: {
    now?: () => Date;
    wake?: () => void;
    /** Told once per mailing the engine paused (only the write that paused it tells): the owner's notice. */
    onAutoPaused?: (mailingId: number, reason: MailingPauseReason) => Promise<void>;
  } = {},
): MailingEvents {
  const pauseWhere = async (column: 'id' | 'funnel_id', id: number, reason: MailingPauseReason) => {
    const paused = await db.query<{ id: number }>(
      `update mailings set state = $2, pause_reason = $3, updated_at = now() where ${column} = $1 and state = any($4::text[]) returning id`,
      [id, MAILING_TRANSITIONS.pause.to, reason, [...MAILING_TRANSITIONS.pause.from]],
    );
    // After the write, and not waited for: the engine's tick never waits on a mail server, and a
    // notice that fails (the notifier logs it) never undoes the pause.
    for (const row of paused) void onAutoPaused?.(row.id, reason).catch(() => undefined);
  };
  return {
    async startDue() {
      const due = await db.query<{ id: number }>(
        `select id from mailings where state = 'scheduled' and scheduled_at <= now() order by scheduled_at limit ${DUE_PER_TICK}`,
      );
      let started = false;
      for (const { id } of due) started = (await startMailing(db, id, { now })) || started;
      if (started) wake?.();
    },
    async finishSent(funnelId) {
      await db.query(
        `update mailings m set state = $2, finished_at = now(), updated_at = now()
          where m.funnel_id = $1 and m.state = any($3::text[]) and not ${MAILING_ROWS_LEFT}`,
        [funnelId, MAILING_TRANSITIONS.finish.to, [...MAILING_TRANSITIONS.finish.from]],
      );
    },
    pause: (mailingId, reason) => pauseWhere('id', mailingId, reason),
    pauseBot: (funnelId, reason) => pauseWhere('funnel_id', funnelId, reason),
  };
}
