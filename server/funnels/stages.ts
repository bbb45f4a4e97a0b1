// Stages of a funnel and the message of each. Positions are kept in order (gaps allowed after
// a delete); once the bot has run, the order is locked. Deleting a stage leaves its people
// without a stage (stage_id null, by the foreign key): they stay in the funnel's people list,
// and the next-step button of an older message still moves them on from where it was sent.
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import {
  PALETTE,
  STAGES_MAX,
  type MessageContentBody,
  type StageMessage,
  type MessageMedia,
  type Stage,
  type StageBody,
  type StageCreateBody,
  type StageIcon,
} from '../../contract/funnels';
import type { Db } from '../db';
import { funnels, media, people, stages, tags, type MediaRow, type StageRow } from '../db/schema';
import { ownedFunnel, ownedStage, ownersRow } from './access';
import { COMMON_ERRORS, conflict, invalid, invalidField, invalidFields, notFound, type DomainMessage } from '../domain-error';
import { FUNNEL_ERRORS } from './errors';
import { idleFunnelRuntime, type FunnelRuntimePort } from './runtime-port';
import { messageProblems } from '../messages/validate';

export interface StageServiceDeps {
  db: Db;
  /** Told of every committed change to a funnel's stages (a no-op when omitted). */
  runtime?: Pick<FunnelRuntimePort, 'stagesChanged'>;
}

export function toMessageMedia(row: Pick<MediaRow, 'id' | 'kind' | 'contentType' | 'size' | 'filename'>): MessageMedia {
  return { id: row.id, kind: row.kind, content_type: row.contentType, size: row.size, filename: row.filename };
}

export function createStageService({ db, runtime = idleFunnelRuntime }: StageServiceDeps) {
  const orm = db.orm;

  async function toStages(rows: StageRow[]): Promise<Stage[]> {
    if (rows.length === 0) return [];
    const ids = rows.map((r) => r.id);
    const counts = new Map(
      (
        await orm
          .select({ stageId: people.stageId, count: sql<number>`count(*)::int` })
          .from(people)
          .where(inArray(people.stageId, ids))
          .groupBy(people.stageId)
      ).map((r) => [r.stageId, Number(r.count)]),
    );
    const mediaIds = rows.map((r) => r.message.media_id).filter((id): id is number => id !== null);
    const mediaRows = new Map(
      mediaIds.length === 0
        ? []
        : (
            await orm
              .select({ id: media.id, kind: media.kind, contentType: media.contentType, size: media.size, filename: media.filename })
              .from(media)
              .where(inArray(media.id, mediaIds))
          ).map((m) => [m.id, toMessageMedia(m)]),
    );
    return rows.map((row) => {
      const message: StageMessage = {
        text: row.message.text,
        media: row.message.media_id === null ? null : (mediaRows.get(row.message.media_id) ?? null),
        buttons: row.message.buttons,
        next_button: row.message.next_button,
        choices: row.message.choices ?? [],
      };
      return {
        id: row.id,
        funnel_id: row.funnelId,
        title: row.title,
        icon: row.icon as StageIcon,
        color: row.color,
        position: row.position,
        tag_id: row.tagId,
        message,
        wait: row.wait ?? null,
        payment: row.payment ?? null,
        ask: row.ask ?? null,
        people_count: counts.get(row.id) ?? 0,
      };
    });
  }

  const one = async (row: StageRow) => (await toStages([row]))[0];

  async function list(ownerId: number, funnelId: number): Promise<Stage[]> {
    await ownedFunnel(orm, ownerId, funnelId);
    return toStages(await orm.select().from(stages).where(eq(stages.funnelId, funnelId)).orderBy(asc(stages.position), asc(stages.id)));
  }

  async function get(ownerId: number, stageId: number): Promise<Stage> {
    return one(await ownedStage(orm, ownerId, stageId));
  }

  async function checkTag(funnelId: number, tagId: number | null | undefined): Promise<void> {
    if (tagId === null || tagId === undefined) return;
    const [tag] = await orm.select({ id: tags.id }).from(tags).where(and(eq(tags.id, tagId), eq(tags.funnelId, funnelId))).limit(1);
    if (!tag) throw invalidField('tag_id', COMMON_ERRORS.doesNotExist(tagId));
  }

  function cleanTitle(title: string): string {
    const clean = title.trim();
    if (!clean) throw invalidField('title', COMMON_ERRORS.blank);
    return clean;
  }

  /**
   * Adds a stage at the end of the funnel, or at `position` among the others (those from there on
   * move one down), which only a funnel whose bot is not running allows.
   */
  async function create(ownerId: number, funnelId: number, body: StageCreateBody): Promise<Stage> {
    await ownedFunnel(orm, ownerId, funnelId);
    const title = cleanTitle(body.title);
    await checkTag(funnelId, body.tag_id);
    const row = await orm.transaction(async (tx) => {
      // Serializes appends to one funnel, so two at once do not get the same position (the owner
      // is in this first statement of the transaction: nothing below runs for someone else's funnel).
      const [locked] = await tx.select({ state: funnels.state }).from(funnels).where(and(eq(funnels.id, funnelId), eq(funnels.ownerId, ownerId))).for('update');
      if (!locked) throw notFound();
      const [{ count, maxPosition }] = await tx
        .select({ count: sql<number>`count(*)::int`, maxPosition: sql<number>`coalesce(max(${stages.position}), -1)::int` })
        .from(stages)
        .where(eq(stages.funnelId, funnelId));
      if (Number(count) >= STAGES_MAX) throw invalid(FUNNEL_ERRORS.tooManyStages);
      let position = Number(maxPosition) + 1;
      if (body.position !== undefined && body.position < Number(count)) {
        if (locked.state === 'running') throw conflict(FUNNEL_ERRORS.orderLocked);
        // Positions are made 0…n-1 again, with a gap where the new stage goes.
        const ordered = await tx.select({ id: stages.id }).from(stages).where(eq(stages.funnelId, funnelId)).orderBy(asc(stages.position), asc(stages.id));
        for (const [index, { id }] of ordered.entries()) {
          await tx.update(stages).set({ position: index < body.position ? index : index + 1 }).where(ownersRow(tx, ownerId, stages, id));
        }
        position = body.position;
      }
      const [inserted] = await tx
        .insert(stages)
        .values({
          funnelId,
          title,
          icon: body.icon ?? 'flag',
          color: body.color ?? PALETTE[0],
          position,
          tagId: body.tag_id ?? null,
        })
        .returning();
      return inserted;
    });
    runtime.stagesChanged(funnelId);
    return one(row);
  }

  async function update(ownerId: number, stageId: number, body: Partial<StageBody>): Promise<Stage> {
    const stage = await ownedStage(orm, ownerId, stageId);
    const changes: Partial<StageRow> = {};
    if (body.title !== undefined) changes.title = cleanTitle(body.title);
    if (body.icon !== undefined) changes.icon = body.icon;
    if (body.color !== undefined) changes.color = body.color;
    if (body.tag_id !== undefined) {
      await checkTag(stage.funnelId, body.tag_id);
      changes.tagId = body.tag_id;
    }
    if (Object.keys(changes).length === 0) return one(stage);
    const [row] = await orm.update(stages).set(changes).where(ownersRow(orm, ownerId, stages, stageId)).returning();
    runtime.stagesChanged(stage.funnelId);
    return one(row);
  }

  /**
   * Deletes the stage. Choice buttons and waits that led to it stay, broken (stage_id null) until
   * the owner picks another stage (a funnel with one cannot run); its keywords go with it (foreign key).
   */
  async function remove(ownerId: number, stageId: number): Promise<void> {
    const stage = await ownedStage(orm, ownerId, stageId);
    await orm.transaction(async (tx) => {
      await tx.delete(stages).where(ownersRow(tx, ownerId, stages, stageId));
      await tx.execute(sql`
        update stages set message = jsonb_set(message, '{choices}', (
            select jsonb_agg(case when choice->'stage_id' = to_jsonb(${stageId}::int) then jsonb_set(choice, '{stage_id}', 'null'::jsonb) else choice end order by n)
            from jsonb_array_elements(message->'choices') with ordinality as c(choice, n)))
         where funnel_id = ${stage.funnelId} and funnel_id in (select id from funnels where owner_id = ${ownerId})
           and message->'choices' @> jsonb_build_array(jsonb_build_object('stage_id', ${stageId}::int))`);
      // A wait that led to it stays, broken (to_stage_id null), as choice buttons do.
      await tx.execute(sql`
        update stages set wait = jsonb_set(wait, '{to_stage_id}', 'null'::jsonb)
         where funnel_id = ${stage.funnelId} and funnel_id in (select id from funnels where owner_id = ${ownerId})
           and wait->'to_stage_id' = to_jsonb(${stageId}::int)`);
      // A payment that led to it (paid or refunded people went there) is broken until fixed.
      await tx.execute(sql`
        update stages set payment = payment || jsonb_build_object(
            'paid_stage_id', case when payment->'paid_stage_id' = to_jsonb(${stageId}::int) then null else payment->'paid_stage_id' end,
            'refund_stage_id', case when payment->'refund_stage_id' = to_jsonb(${stageId}::int) then null else payment->'refund_stage_id' end)
         where funnel_id = ${stage.funnelId} and funnel_id in (select id from funnels where owner_id = ${ownerId})
           and (payment->'paid_stage_id' = to_jsonb(${stageId}::int) or payment->'refund_stage_id' = to_jsonb(${stageId}::int))`);
    });
    runtime.stagesChanged(stage.funnelId);
  }

  /** Sets the order (not while the bot runs); stageIds must name every stage of the funnel exactly once. */
  async function reorder(ownerId: number, funnelId: number, stageIds: number[]): Promise<Stage[]> {
    await ownedFunnel(orm, ownerId, funnelId);
    await orm.transaction(async (tx) => {
      // A running bot is moving people through the stages: the order stays while it runs.
      const [locked] = await tx.select({ state: funnels.state }).from(funnels).where(and(eq(funnels.id, funnelId), eq(funnels.ownerId, ownerId))).for('update');
      if (!locked) throw notFound();
      if (locked.state === 'running') throw conflict(FUNNEL_ERRORS.orderLocked);
      const current = (await tx.select({ id: stages.id }).from(stages).where(eq(stages.funnelId, funnelId))).map((s) => s.id);
      const given = new Set(stageIds);
      if (given.size !== stageIds.length || given.size !== current.length || current.some((id) => !given.has(id))) {
        throw invalidField('stage_ids', FUNNEL_ERRORS.orderMismatch);
      }
      for (const [position, id] of stageIds.entries()) {
        await tx.update(stages).set({ position }).where(ownersRow(tx, ownerId, stages, id));
      }
    });
    runtime.stagesChanged(funnelId);
    return list(ownerId, funnelId);
  }

  async function setMessage(ownerId: number, stageId: number, body: MessageContentBody): Promise<StageMessage> {
    const stage = await ownedStage(orm, ownerId, stageId);
    const choices = body.choices ?? [];
    const funnelStageIds = new Set(
      choices.length === 0 ? [] : (await orm.select({ id: stages.id }).from(stages).where(eq(stages.funnelId, stage.funnelId))).map((s) => s.id),
    );
    const problems = choiceProblems(choices, funnelStageIds, await messageProblems(body, async (mediaId) => {
      const [item] = await orm
        .select({ id: media.id })
        .from(media)
        .where(and(eq(media.id, mediaId), eq(media.funnelId, stage.funnelId)))
        .limit(1);
      return Boolean(item);
    }));
    if (problems) throw invalidFields(problems);
    // A phone or choice question shows its reply keyboard: Telegram takes one keyboard per message.
    if (stage.ask?.field_id != null && (body.buttons.length > 0 || choices.length > 0)) {
      const [field] = await db.query<{ kind: string }>('select kind from funnel_fields where id = $1 and funnel_id = $2', [stage.ask.field_id, stage.funnelId]);
      if (field && (field.kind === 'phone' || field.kind === 'choice')) throw invalidField('buttons', FUNNEL_ERRORS.askWithButtons);
    }
    const message = {
      text: body.text,
      media_id: body.media_id,
      buttons: body.buttons.map((b) => ({ text: b.text.trim(), url: b.url.trim() })),
      next_button: body.next_button ? { text: body.next_button.text.trim() } : null,
      choices: choices.map((c) => ({ text: c.text.trim(), stage_id: c.stage_id })),
    };
    const [row] = await orm.update(stages).set({ message }).where(ownersRow(orm, ownerId, stages, stageId)).returning();
    runtime.stagesChanged(stage.funnelId);
    return (await one(row)).message;
  }

  return { list, get, one, create, update, remove, reorder, setMessage };
}

export type StageService = ReturnType<typeof createStageService>;

/**
 * Adds the problems of a message's choice buttons (under "choices") to the message's own: each
 * needs its text and a stage of the same funnel (null is kept: a button broken by a deleted stage
 * may stay while the rest of the message is edited, and the funnel cannot run until it is fixed).
 */
function choiceProblems(
  choices: NonNullable<MessageContentBody['choices']>,
  funnelStageIds: Set<number>,
  problems: Record<string, DomainMessage[]> | null,
): Record<string, DomainMessage[]> | null {
  const found: DomainMessage[] = [];
  const add = (message: DomainMessage) => {
    if (!found.some((m) => m.text === message.text)) found.push(message);
  };
  for (const choice of choices as Array<Partial<(typeof choices)[number]>>) {
    if (choice.text === undefined || choice.stage_id === undefined) add(COMMON_ERRORS.required);
    else {
      if (!choice.text.trim()) add(COMMON_ERRORS.blank);
      if (choice.stage_id !== null && !funnelStageIds.has(choice.stage_id)) add(COMMON_ERRORS.doesNotExist(choice.stage_id));
    }
  }
  if (found.length === 0) return problems;
  return { ...problems, choices: found };
}
