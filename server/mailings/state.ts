// The mailing state machine: which action is allowed in which state, and where it leads (pure),
// and the writes that apply it for the delivery engine (start when due, finish, pause), which
// reaches them only through its MailingEvents port (server/outbox/ports.ts). Each write is a
// conditional UPDATE (… WHERE state IN (from)), so two requests (or a request and the engine, or
// two processes) racing on one mailing cannot both win.
import { and, eq, inArray } from 'drizzle-orm';
import type { MailingState } from '../../contract/mailings';
import type { Db } from '../db';
import { rawSql } from '../db/raw';
import { mailings } from '../db/schema';
import { ownersFunnelIds } from '../funnels/access';
import type { MailingEvents, MailingPauseReason } from '../outbox/ports';
import { FINISH_SENT_MAILINGS, makeMailingRows } from '../outbox/sql';
import { audienceQuery } from './audience';

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
  return orm.transaction(async (tx) => {
    const [row] = await tx
      .update(mailings)
      .set({ state: 'sending', startedAt: now(), scheduledAt: null, updatedAt: now() })
      .where(
        and(
          eq(mailings.id, mailingId),
          ownerId === undefined ? undefined : inArray(mailings.funnelId, ownersFunnelIds(orm, ownerId)),
          inArray(mailings.state, [...MAILING_TRANSITIONS.start.from]),
        ),
      )
      .returning();
    if (!row) return false;
    await tx.execute(rawSql(makeMailingRows(audience.where, audience.params.length), [...audience.params, row.id]));
    return true;
  });
}

/** The mailing side of the delivery engine (its MailingEvents port), on this database. */
export function mailingEvents(db: Db, { now = () => new Date(), wake }: { now?: () => Date; wake?: () => void } = {}): MailingEvents {
  const pauseWhere = async (column: 'id' | 'funnel_id', id: number, reason: MailingPauseReason) => {
    await db.query(
      `update mailings set state = 'paused', pause_reason = $2, updated_at = now() where ${column} = $1 and state = any($3::text[])`,
      [id, reason, [...MAILING_TRANSITIONS.pause.from]],
    );
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
      await db.query(FINISH_SENT_MAILINGS, [funnelId]);
    },
    pause: (mailingId, reason) => pauseWhere('id', mailingId, reason),
    pauseBot: (funnelId, reason) => pauseWhere('funnel_id', funnelId, reason),
  };
}
