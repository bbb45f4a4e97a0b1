// Mailings of a funnel: drafts, the pre-send check, starting, pause, resume, cancel, delete, and
// the outcome per recipient. Every change of a mailing once made goes through ./state.ts; the
// engine (server/outbox/) does the sending.
import { and, desc, eq, inArray } from 'drizzle-orm';
import {
  DELIVERED_RECIPIENT_STATES,
  DEFAULT_SEND_RATE,
  PAID_BROADCAST_RATE,
  RECIPIENTS_PAGE_DEFAULT,
  RECIPIENTS_PAGE_MAX,
  paidBroadcastStars,
  sendingSeconds,
  type Audience,
  type Mailing,
  type MailingBody,
  type MailingCheck,
  type MailingDeletion,
  type MailingPatch,
  type MailingProgress,
  type RecipientState,
  type RecipientsPage,
} from '../../contract/mailings';
import type { Db } from '../db';
import { mailings, media, stages, tags, type FunnelRow, type MailingMessage, type MailingRow } from '../db/schema';
import { openGate, type FeatureGate } from '../billing/ports';
import { ownedFunnel, ownersFunnelIds } from '../funnels/access';
import { COMMON_ERRORS, conflict, invalidFields, notFound, type DomainMessage } from '../domain-error';
import { FUNNEL_ERRORS } from '../funnels/errors';
import { toMessageMedia } from '../funnels/stages';
import { messageProblems } from '../messages/validate';
import { outcomeErrorReason } from '../outbox/outcomes';
import { MAILING_PROGRESS, MAILING_RECIPIENTS, MAILING_RECIPIENTS_COUNT } from '../outbox/sql';
import { EMPTY_AUDIENCE, audienceQuery, ownersLists } from './audience';
import { MAILING_ERRORS } from './errors';
import {
  MAILING_TRANSITIONS,
  cancelMailing,
  editMailing,
  pauseMailing,
  resumeMailing,
  resumeOwnersMailingsFromBilling,
  scheduleMailing,
  startMailing,
  startOwnersMailing,
  unsendMailing,
} from './state';

export interface MailingServiceDeps {
  db: Db;
  now: () => Date;
  /** Messages a second a bot sends (SEND_RATE). */
  sendRate?: number;
  /** The engine: there is work now (a mailing started or resumed). */
  wake?: () => void;
  /** Billing's gate: sending, scheduling and resuming a mailing need a plan with mailings (402). */
  gate?: FeatureGate;
}

const EMPTY_PROGRESS: MailingProgress = { total: 0, waiting: 0, sending: 0, sent: 0, failed: 0, blocked: 0, unknown: 0, cancelled: 0 };
const EMPTY_DELETION: MailingDeletion = { deleting: 0, deleted: 0, too_old: 0, failed: 0 };

const isDelivered = (state: string) => (DELIVERED_RECIPIENT_STATES as readonly string[]).includes(state);

/** Which progress count a recipient's state (as the owner sees it, outbox/sql.ts) adds to: every message that reached the chat is sent. */
function progressKey(state: string): keyof MailingProgress | null {
  if (isDelivered(state)) return 'sent';
  if (state in EMPTY_PROGRESS && state !== 'total') return state as keyof MailingProgress;
  return null;
}

/** Which deletion count a delivered message's state adds to (null: not asked to be deleted). */
function deletionKey(state: string): keyof MailingDeletion | null {
  if (state === 'deleting' || state === 'deleted' || state === 'too_old') return state;
  if (state === 'delete_failed') return 'failed';
  return null;
}

interface MailingCounts {
  progress: MailingProgress;
  deletion: MailingDeletion;
}

const stateError = () => conflict(MAILING_ERRORS.mailingState);

export function createMailingService({ db, now, sendRate = DEFAULT_SEND_RATE, wake, gate = openGate }: MailingServiceDeps) {
  const orm = db.orm;
  /** This mailing, if the owner's: part of the delete's WHERE, so it never runs on another user's mailing. */
  const ownersMailing = (ownerId: number, id: number) => and(eq(mailings.id, id), inArray(mailings.funnelId, ownersFunnelIds(orm, ownerId)));

  async function ownedMailing(ownerId: number, id: number): Promise<{ mailing: MailingRow; funnel: FunnelRow }> {
    const [row] = await orm.select().from(mailings).where(eq(mailings.id, id)).limit(1);
    if (!row) throw notFound();
    const funnel = await ownedFunnel(orm, ownerId, row.funnelId);
    return { mailing: row, funnel };
  }

  async function progressOf(ids: number[]): Promise<Map<number, MailingCounts>> {
    const result = new Map<number, MailingCounts>();
    if (ids.length === 0) return result;
    const rows = await db.query<{ mailing_id: number; state: string; n: number }>(
      MAILING_PROGRESS,
      [ids],
    );
    for (const row of rows) {
      const counts = result.get(row.mailing_id) ?? { progress: { ...EMPTY_PROGRESS }, deletion: { ...EMPTY_DELETION } };
      const key = progressKey(row.state);
      if (key) counts.progress[key] += Number(row.n);
      counts.progress.total += Number(row.n);
      const deleted = deletionKey(row.state);
      if (deleted) counts.deletion[deleted] += Number(row.n);
      result.set(row.mailing_id, counts);
    }
    return result;
  }

  async function countAudience(funnelId: number, audience: Audience): Promise<number> {
    const { where, params } = await audienceQuery(db, funnelId, audience);
    const [row] = await db.query<{ n: number }>(`select count(*)::int as n from people p where ${where}`, params);
    return Number(row?.n ?? 0);
  }

  async function toMailings(rows: MailingRow[]): Promise<Mailing[]> {
    const progress = await progressOf(rows.map((r) => r.id));
    const mediaIds = [...new Set(rows.map((r) => r.message.media_id).filter((id): id is number => id !== null))];
    const mediaRows = mediaIds.length
      ? await orm
          .select({ id: media.id, kind: media.kind, contentType: media.contentType, size: media.size, filename: media.filename })
          .from(media)
          .where(inArray(media.id, mediaIds))
      : [];
    const mediaById = new Map(mediaRows.map((m) => [m.id, toMessageMedia(m)]));
    return Promise.all(
      rows.map(async (row) => ({
        id: row.id,
        funnel_id: row.funnelId,
        title: row.title,
        message: {
          text: row.message.text,
          media: row.message.media_id !== null ? (mediaById.get(row.message.media_id) ?? null) : null,
          buttons: row.message.buttons,
          next_button: null,
        },
        audience: row.audience,
        state: row.state,
        // A reason outlives its pause in rows written before cancel and resume cleared it.
        pause_reason: row.state === 'paused' ? row.pauseReason : null,
        paid_broadcast: row.paidBroadcast,
        scheduled_at: row.scheduledAt?.toISOString() ?? null,
        started_at: row.startedAt?.toISOString() ?? null,
        finished_at: row.finishedAt?.toISOString() ?? null,
        unsent_at: row.unsentAt?.toISOString() ?? null,
        audience_size: row.state === 'draft' || row.state === 'scheduled' ? await countAudience(row.funnelId, row.audience) : row.recipientCount,
        progress: progress.get(row.id)?.progress ?? { ...EMPTY_PROGRESS },
        deletion: row.unsentAt ? (progress.get(row.id)?.deletion ?? { ...EMPTY_DELETION }) : null,
        created_at: row.createdAt.toISOString(),
      })),
    );
  }

  /** The message and audience as stored, with every problem per field (null: none). */
  async function cleanBody(
    funnelId: number,
    body: { message?: MailingBody['message']; audience?: Audience },
  ): Promise<{ message?: MailingMessage; audience?: Audience; problems: Record<string, DomainMessage[]> | null }> {
    const problems: Record<string, DomainMessage[]> = {};
    let message: MailingMessage | undefined;
    if (body.message) {
      const input = body.message;
      const candidate = {
        text: input.text,
        media_id: input.media_id ?? null,
        buttons: (input.buttons ?? []) as Array<{ text: string; url: string }>,
        next_button: null,
      };
      const found = await messageProblems(candidate, async (mediaId) => {
        const [item] = await orm.select({ id: media.id }).from(media).where(and(eq(media.id, mediaId), eq(media.funnelId, funnelId))).limit(1);
        return Boolean(item);
      });
      if (found) for (const [field, list] of Object.entries(found)) problems[field] = list;
      message = { ...candidate, buttons: candidate.buttons.map((b) => ({ text: (b.text ?? '').trim(), url: (b.url ?? '').trim() })) };
    }
    let audience: Audience | undefined;
    if (body.audience) {
      audience = {
        stages_in: [...new Set(body.audience.stages_in)],
        stages_out: [...new Set(body.audience.stages_out)],
        tags_in: [...new Set(body.audience.tags_in)],
        tags_out: [...new Set(body.audience.tags_out)],
        lists_in: [...new Set(body.audience.lists_in ?? [])],
        sources_in: [...new Set(body.audience.sources_in ?? [])],
        fields: (body.audience.fields ?? []).map((f) => (f.value?.trim() ? { field_id: f.field_id, value: f.value.trim() } : { field_id: f.field_id })),
      };
      const stageIds = [...audience.stages_in, ...audience.stages_out];
      const tagIds = [...audience.tags_in, ...audience.tags_out];
      const ownStages = new Set(
        stageIds.length ? (await orm.select({ id: stages.id }).from(stages).where(and(eq(stages.funnelId, funnelId), inArray(stages.id, stageIds)))).map((s) => s.id) : [],
      );
      const ownTags = new Set(
        tagIds.length ? (await orm.select({ id: tags.id }).from(tags).where(and(eq(tags.funnelId, funnelId), inArray(tags.id, tagIds)))).map((s) => s.id) : [],
      );
      const listIds = audience.lists_in ?? [];
      const ownLists = new Set(listIds.length ? (await ownersLists(db, funnelId, listIds)).map((l) => l.id) : []);
      const sourceIds = audience.sources_in ?? [];
      const ownSources = new Set(
        sourceIds.length
          ? (await db.query<{ id: number }>('select id from funnel_sources where funnel_id = $1 and id = any($2::int[])', [funnelId, sourceIds])).map((s) => s.id)
          : [],
      );
      const fieldIds = (audience.fields ?? []).map((f) => f.field_id);
      const ownFields = new Set(
        fieldIds.length
          ? (await db.query<{ id: number }>('select id from funnel_fields where funnel_id = $1 and id = any($2::int[])', [funnelId, fieldIds])).map((f) => f.id)
          : [],
      );
      const missing = [
        ...stageIds.filter((id) => !ownStages.has(id)),
        ...tagIds.filter((id) => !ownTags.has(id)),
        ...listIds.filter((id) => !ownLists.has(id)),
        ...sourceIds.filter((id) => !ownSources.has(id)),
        ...fieldIds.filter((id) => !ownFields.has(id)),
      ];
      if (missing.length) problems.audience = [COMMON_ERRORS.doesNotExist(missing[0])];
    }
    return { message, audience, problems: Object.keys(problems).length ? problems : null };
  }

  async function list(ownerId: number, funnelId: number): Promise<Mailing[]> {
    await ownedFunnel(orm, ownerId, funnelId);
    const rows = await orm.select().from(mailings).where(eq(mailings.funnelId, funnelId)).orderBy(desc(mailings.id)).limit(200);
    return toMailings(rows);
  }

  async function get(ownerId: number, id: number): Promise<Mailing> {
    const { mailing } = await ownedMailing(ownerId, id);
    return (await toMailings([mailing]))[0];
  }

  async function create(ownerId: number, funnelId: number, body: MailingBody): Promise<Mailing> {
    const funnel = await ownedFunnel(orm, ownerId, funnelId);
    if (funnel.archivedAt) throw conflict(MAILING_ERRORS.funnelArchived);
    const clean = await cleanBody(funnelId, { message: body.message, audience: body.audience ?? EMPTY_AUDIENCE });
    if (clean.problems) throw invalidFields(clean.problems);
    const [row] = await orm
      .insert(mailings)
      .values({ funnelId, title: body.title.trim(), message: clean.message!, audience: clean.audience!, paidBroadcast: body.paid_broadcast ?? false })
      .returning();
    return (await toMailings([row]))[0];
  }

  async function update(ownerId: number, id: number, patch: MailingPatch): Promise<Mailing> {
    const { mailing } = await ownedMailing(ownerId, id);
    if (!MAILING_TRANSITIONS.edit.from.includes(mailing.state)) throw stateError();
    const clean = await cleanBody(mailing.funnelId, { message: patch.message, audience: patch.audience });
    if (clean.problems) throw invalidFields(clean.problems);
    const row = await editMailing(
      orm,
      { ownerId, mailingId: id },
      {
        ...(patch.title !== undefined ? { title: patch.title.trim() } : {}),
        ...(clean.message ? { message: clean.message } : {}),
        ...(clean.audience ? { audience: clean.audience } : {}),
        ...(patch.paid_broadcast !== undefined ? { paidBroadcast: patch.paid_broadcast } : {}),
      },
      now(),
    );
    return (await toMailings([row]))[0];
  }

  async function audienceCount(ownerId: number, funnelId: number, audience: Audience): Promise<number> {
    await ownedFunnel(orm, ownerId, funnelId);
    const clean = await cleanBody(funnelId, { audience });
    if (clean.problems) throw invalidFields(clean.problems);
    return countAudience(funnelId, clean.audience!);
  }

  /** What Telegram and the audience would say if the mailing went now (the server enforces it on send). */
  async function checkRow(mailing: MailingRow, funnel: FunnelRow): Promise<MailingCheck> {
    const problems: MailingCheck['problems'] = [];
    const add = (field: string, message: DomainMessage) =>
      problems.push({ field, code: message.code, message: message.text, ...(message.count !== undefined ? { count: message.count } : {}) });
    const found = await messageProblems(mailing.message, async (mediaId) => {
      const [item] = await orm.select({ id: media.id }).from(media).where(and(eq(media.id, mediaId), eq(media.funnelId, mailing.funnelId))).limit(1);
      return Boolean(item);
    });
    for (const [field, list] of Object.entries(found ?? {})) for (const message of list) add(`message.${field}`, message);
    const size = await countAudience(mailing.funnelId, mailing.audience);
    if (size === 0) add('audience', MAILING_ERRORS.emptyAudience);
    if (funnel.stopReason === 'token_revoked') add('non_field_errors', FUNNEL_ERRORS.tokenRevoked);
    if (funnel.archivedAt) add('non_field_errors', MAILING_ERRORS.funnelArchived);
    const rate = mailing.paidBroadcast ? PAID_BROADCAST_RATE : sendRate;
    return {
      problems,
      audience_size: size,
      estimated_seconds: sendingSeconds(size, rate),
      messages_per_second: Math.floor(rate),
      stars: mailing.paidBroadcast ? paidBroadcastStars(size) : 0,
    };
  }

  async function check(ownerId: number, id: number): Promise<MailingCheck> {
    const { mailing, funnel } = await ownedMailing(ownerId, id);
    return checkRow(mailing, funnel);
  }

  /**
   * Turns a draft or scheduled mailing to sending and makes one outbox row per recipient, in one
   * transaction: a second start (a double click, another process starting it on schedule) finds
   * the state changed and does nothing. Answers false when it was not startable.
   */
  async function startNow(mailingId: number, ownerId?: number): Promise<boolean> {
    const started = await startMailing(db, mailingId, { now, ownerId });
    if (started) wake?.();
    return started;
  }

  async function send(ownerId: number, id: number, scheduledAt: string | null | undefined): Promise<Mailing> {
    const { mailing, funnel } = await ownedMailing(ownerId, id);
    if (!MAILING_TRANSITIONS.start.from.includes(mailing.state)) throw stateError();
    await gate.requireFeature(ownerId, 'mailings');
    const result = await checkRow(mailing, funnel);
    if (result.problems.length) {
      const fields: Record<string, DomainMessage[]> = {};
      for (const p of result.problems) (fields[p.field] ??= []).push({ code: p.code as DomainMessage['code'], text: p.message, ...(p.count !== undefined ? { count: p.count } : {}) });
      throw invalidFields(fields);
    }
    if (scheduledAt) {
      const at = new Date(scheduledAt);
      if (Number.isNaN(at.getTime()) || !/[zZ]|[+-]\d\d:?\d\d$/.test(scheduledAt)) throw invalidFields({ scheduled_at: [MAILING_ERRORS.badMoment] });
      if (at.getTime() <= now().getTime()) throw invalidFields({ scheduled_at: [MAILING_ERRORS.scheduleInPast] });
      const row = await scheduleMailing(orm, { ownerId, mailingId: id }, at, now());
      wake?.();
      return (await toMailings([row]))[0];
    }
    await startOwnersMailing(db, { ownerId, mailingId: id }, now);
    wake?.();
    return get(ownerId, id);
  }

  async function pause(ownerId: number, id: number): Promise<Mailing> {
    const row = await pauseMailing(orm, { ownerId, mailingId: id }, now());
    return (await toMailings([row]))[0];
  }

  async function resume(ownerId: number, id: number): Promise<Mailing> {
    const { mailing } = await ownedMailing(ownerId, id);
    await gate.requireFeature(ownerId, 'mailings');
    // One billing paused goes back to where it was (a scheduled one had no recipients yet).
    if (mailing.state === 'paused' && mailing.pauseReason === 'billing' && (await resumeOwnersMailingsFromBilling(orm, ownerId, now(), id)).length > 0) {
      wake?.();
      return get(ownerId, id);
    }
    const row = await resumeMailing(orm, { ownerId, mailingId: id }, now());
    wake?.();
    return (await toMailings([row]))[0];
  }

  /** Cancelled: nobody else gets it; what was sent stays sent. */
  async function cancel(ownerId: number, id: number): Promise<Mailing> {
    const row = await cancelMailing(orm, { ownerId, mailingId: id }, now());
    return (await toMailings([row]))[0];
  }

  /** Deleted with its outcome list; a sending one is cancelled first (its history entries stay). */
  async function remove(ownerId: number, id: number): Promise<void> {
    const { mailing } = await ownedMailing(ownerId, id);
    if (mailing.state === 'sending' || mailing.state === 'paused') await cancel(ownerId, id).catch(() => undefined);
    await orm.delete(mailings).where(ownersMailing(ownerId, id));
  }

  /** "Also delete from the chats": every message still within Telegram's 48 hours is deleted by the engine. */
  async function unsend(ownerId: number, id: number): Promise<Mailing> {
    const row = await unsendMailing(orm, { ownerId, mailingId: id }, now());
    wake?.();
    return (await toMailings([row]))[0];
  }

  async function recipients(
    ownerId: number,
    id: number,
    query: { state?: RecipientState; limit?: number; offset?: number },
  ): Promise<RecipientsPage> {
    await ownedMailing(ownerId, id);
    const limit = Math.min(Math.max(query.limit ?? RECIPIENTS_PAGE_DEFAULT, 1), RECIPIENTS_PAGE_MAX);
    const offset = Math.max(query.offset ?? 0, 0);
    const states = query.state === 'sent' ? [...DELIVERED_RECIPIENT_STATES] : query.state ? [query.state] : null;
    const rows = await db.query<{ person_id: number; first_name: string; last_name: string; username: string | null; state: string; at: Date; error: string | null; total: number }>(
      MAILING_RECIPIENTS,
      [id, states, limit, offset],
    );
    let count = rows[0]?.total ?? 0;
    if (rows.length === 0 && offset > 0) {
      const [c] = await db.query<{ n: number }>(MAILING_RECIPIENTS_COUNT, [id, states]);
      count = c?.n ?? 0;
    }
    return {
      count: Number(count),
      results: rows.map((r) => ({
        person_id: r.person_id,
        first_name: r.first_name,
        last_name: r.last_name,
        username: r.username,
        state: r.state as RecipientState,
        at: new Date(r.at).toISOString(),
        error: r.error,
        error_reason: outcomeErrorReason(r.state, r.error),
      })),
    };
  }

  return { list, get, create, update, audienceCount, check, send, startNow, pause, resume, cancel, remove, unsend, recipients };
}

export type MailingService = ReturnType<typeof createMailingService>;
