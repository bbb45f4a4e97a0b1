// Funnels: connect a bot, list, rename, run/stop, archive/restore, delete, copy into another
// funnel, and the bot's description on Telegram. Shared by the API and the bot runtime.
import { and, asc, desc, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import {
  FUNNEL_NAME_MAX,
  STAGES_MAX,
  type BotDescription,
  type Funnel,
  type RunCheck,
} from '../../contract/funnels';
import { visibleText } from '../../contract/telegram-html';
import type { Config } from '../config';
import type { Db } from '../db';
import { isUniqueViolation } from '../db/errors';
import { funnelFields, funnelKeywords, funnels, media, stages, tags, type FunnelRow } from '../db/schema';
import { ownedFunnel } from './access';
import { type BotApiFor, callTelegram } from './bot-api';
import { COMMON_ERRORS, conflict, DomainError, invalid, invalidField, invalidFields, notFound, type DomainMessage } from '../domain-error';
import { FUNNEL_ERRORS } from './errors';
import { idleFunnelRuntime, type FunnelRuntimePort } from './runtime-port';
import { openGate, type FeatureGate } from '../billing/ports';
import { paymentProblems } from './payments';
import { botTokenHash, botTokenHint, decryptBotToken, encryptSecret } from './secret-box';

/** digits, a colon, then the secret, as @BotFather hands it out. */
export const BOT_TOKEN_PATTERN = /^[0-9]{1,20}:[A-Za-z0-9_-]{20,100}$/;

export interface FunnelServiceDeps {
  db: Db;
  config: Pick<Config, 'secretKey'>;
  now: () => Date;
  /** The Bot API client for a token (server/telegram/client.ts's interactiveBotApi). */
  botApi: BotApiFor;
  /** Told when a copy adds stages to a funnel; asked whether a running bot reaches Telegram (a no-op when omitted). */
  runtime?: Pick<FunnelRuntimePort, 'stagesChanged' | 'telegramUnreachableSince'>;
  /** Billing's gate: running one more funnel than the plan allows is refused (402). */
  gate?: FeatureGate;
}

// Correlated subqueries in plain SQL: Drizzle may print a column without its table there.
const peopleCount = sql<number>`(select count(*)::int from people p where p.funnel_id = "funnels"."id")`;
const stageCount = sql<number>`(select count(*)::int from stages s where s.funnel_id = "funnels"."id")`;
const unreadCount = sql<number>`(select coalesce(sum(p.unread_count), 0)::int from people p where p.funnel_id = "funnels"."id")`;
const templateId = sql<number | null>`(select v.template_id from template_versions v where v.id = "funnels"."template_version_id")`;

export function toFunnel(row: FunnelRow, counts: { people_count: number; stage_count: number; unread_count?: number; template_id?: number | null }): Funnel {
  return {
    id: row.id,
    name: row.name,
    bot_id: row.botId,
    bot_username: row.botUsername,
    bot_token_hint: row.botTokenHint,
    state: row.state,
    stop_reason: row.stopReason ?? null,
    archived: row.archivedAt !== null,
    stage_order_locked: row.state === 'running',
    was_run: row.firstRunAt !== null,
    unread_count: Number(counts.unread_count ?? 0),
    inbox_alerts: row.inboxAlerts,
    people_count: Number(counts.people_count),
    stage_count: Number(counts.stage_count),
    template_id: counts.template_id ?? null,
    folder_id: row.folderId,
    // Filled in by list and get, which ask the runtime (createFunnelService's withReachability).
    telegram_unreachable_since: null,
    created_at: row.createdAt.toISOString(),
  };
}

export function createFunnelService({ db, config, now, botApi, runtime = idleFunnelRuntime, gate = openGate }: FunnelServiceDeps) {
  const orm = db.orm;

  /** A running funnel whose bot has not reached Telegram for a while says since when. */
  function withReachability(funnel: Funnel): Funnel {
    if (funnel.state !== 'running') return funnel;
    const since = runtime.telegramUnreachableSince?.(funnel.id) ?? null;
    return since ? { ...funnel, telegram_unreachable_since: since.toISOString() } : funnel;
  }

  async function list(ownerId: number, { archived, folder }: { archived: boolean; folder?: number }): Promise<Funnel[]> {
    const rows = await orm
      .select({ funnel: funnels, people_count: peopleCount, stage_count: stageCount, unread_count: unreadCount, template_id: templateId })
      .from(funnels)
      .where(
        and(
          eq(funnels.ownerId, ownerId),
          archived ? isNotNull(funnels.archivedAt) : isNull(funnels.archivedAt),
          folder !== undefined ? eq(funnels.folderId, folder) : undefined,
        ),
      )
      .orderBy(desc(funnels.createdAt), desc(funnels.id));
    return rows.map((r) => withReachability(toFunnel(r.funnel, r)));
  }

  async function get(ownerId: number, funnelId: number): Promise<Funnel> {
    const [row] = await orm
      .select({ funnel: funnels, people_count: peopleCount, stage_count: stageCount, unread_count: unreadCount, template_id: templateId })
      .from(funnels)
      .where(and(eq(funnels.id, funnelId), eq(funnels.ownerId, ownerId)))
      .limit(1);
    if (!row) throw notFound();
    return withReachability(toFunnel(row.funnel, row));
  }

  /** Verifies the token with getMe, then stores it encrypted. */
  async function connect(ownerId: number, body: { bot_token: string; name?: string }): Promise<Funnel> {
    const token = body.bot_token.trim();
    if (!BOT_TOKEN_PATTERN.test(token)) throw invalidField('bot_token', FUNNEL_ERRORS.malformedToken);
    const hash = botTokenHash(token);
    const alreadyConnected = invalidField('bot_token', FUNNEL_ERRORS.alreadyConnected);
    const [existing] = await orm.select({ id: funnels.id }).from(funnels).where(eq(funnels.botTokenHash, hash)).limit(1);
    if (existing) throw alreadyConnected;
    const me = await callTelegram(() => botApi(token).getMe(), invalidField('bot_token', FUNNEL_ERRORS.unknownToken));
    const name = (body.name?.trim() || me.first_name || me.username).slice(0, FUNNEL_NAME_MAX);
    try {
      const [row] = await orm
        .insert(funnels)
        .values({
          ownerId,
          name,
          botTokenEncrypted: encryptSecret(token, config.secretKey),
          botTokenHash: hash,
          botTokenHint: botTokenHint(token),
          botId: me.id,
          botUsername: me.username,
          createdAt: now(),
          updatedAt: now(),
        })
        .returning();
      return toFunnel(row, { people_count: 0, stage_count: 0 });
    } catch (error) {
      if (isUniqueViolation(error)) throw alreadyConnected;
      throw error;
    }
  }

  async function update(ownerId: number, funnelId: number, body: { name?: string; inbox_alerts?: boolean }): Promise<Funnel> {
    await ownedFunnel(orm, ownerId, funnelId);
    if (body.name !== undefined) {
      const name = body.name.trim();
      if (!name) throw invalidField('name', COMMON_ERRORS.blank);
      await orm.update(funnels).set({ name, updatedAt: now() }).where(and(eq(funnels.id, funnelId), eq(funnels.ownerId, ownerId)));
    }
    if (body.inbox_alerts !== undefined) await orm.update(funnels).set({ inboxAlerts: body.inbox_alerts, updatedAt: now() }).where(and(eq(funnels.id, funnelId), eq(funnels.ownerId, ownerId)));
    return get(ownerId, funnelId);
  }

  /**
   * Why the funnel cannot run, all at once: no stages, a stage without a message, a next-step
   * button on the last stage that leads nowhere, and Telegram's own word on the token (asked
   * every time: a revoked token is marked so on the funnel and its screen offers to replace it).
   */
  async function runProblems(funnel: FunnelRow): Promise<DomainMessage[]> {
    const problems: DomainMessage[] = [];
    const list = await orm
      .select({ id: stages.id, title: stages.title, message: stages.message, wait: stages.wait, payment: stages.payment, ask: stages.ask })
      .from(stages)
      .where(eq(stages.funnelId, funnel.id))
      .orderBy(asc(stages.position), asc(stages.id));
    if (list.length === 0) problems.push(FUNNEL_ERRORS.runWithoutStages);
    for (const stage of list) {
      if (stage.message.media_id === null && visibleText(stage.message.text).trim() === '') problems.push(FUNNEL_ERRORS.stageWithoutMessage(stage.title));
    }
    const last = list.at(-1);
    if (last?.message.next_button) problems.push(FUNNEL_ERRORS.lastStageNext(last.title));
    // A choice button whose stage was deleted (null, or an id deleted while it was being saved).
    const stageIds = new Set(list.map((s) => s.id));
    for (const stage of list) {
      for (const choice of stage.message.choices ?? []) {
        if (choice.stage_id === null || !stageIds.has(choice.stage_id)) problems.push(FUNNEL_ERRORS.brokenChoice(stage.title, choice.text));
      }
      if (stage.wait && (stage.wait.to_stage_id === null || !stageIds.has(stage.wait.to_stage_id))) problems.push(FUNNEL_ERRORS.brokenWait(stage.title));
      // A question whose field was deleted.
      if (stage.ask && stage.ask.field_id === null) problems.push(FUNNEL_ERRORS.brokenAsk(stage.title));
    }
    problems.push(...paymentProblems(list));
    if (funnel.botTokenEncrypted === null) {
      problems.push(FUNNEL_ERRORS.noBot);
      return problems;
    }
    try {
      await callTelegram(() => botApiOf(funnel).getMe(), invalid(FUNNEL_ERRORS.tokenRevoked));
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      problems.push(error.detail);
      if (error.detail.code === 'token_revoked' && funnel.state !== 'running') {
        await orm.update(funnels).set({ stopReason: 'token_revoked', updatedAt: now() }).where(and(eq(funnels.id, funnel.id), eq(funnels.ownerId, funnel.ownerId)));
      }
    }
    return problems;
  }

  async function runCheck(ownerId: number, funnelId: number): Promise<RunCheck> {
    const funnel = await ownedFunnel(orm, ownerId, funnelId);
    const problems: DomainMessage[] = funnel.archivedAt ? [FUNNEL_ERRORS.runArchived] : await runProblems(funnel);
    return { problems: problems.map(({ code, text, detail }) => ({ code, message: text, ...(detail === undefined ? {} : { detail }) })) };
  }

  /** Runs the bot once nothing stands in the way; the first run locks the stage order. */
  async function run(ownerId: number, funnelId: number): Promise<Funnel> {
    const funnel = await ownedFunnel(orm, ownerId, funnelId);
    if (funnel.archivedAt) throw conflict(FUNNEL_ERRORS.runArchived);
    const problems = await runProblems(funnel);
    if (problems.length > 0) throw invalidFields({ non_field_errors: problems });
    await orm.transaction(async (tx) => {
      // The owner's row is locked so that two runs at once cannot both pass billing's limit.
      await tx.execute(sql`select id from users where id = ${ownerId} for no key update`);
      await gate.requireFeature(ownerId, 'run_funnel', { funnelId, writer: tx });
      await tx
        .update(funnels)
        .set({ state: 'running', stopReason: null, firstRunAt: funnel.firstRunAt ?? now(), updatedAt: now() })
        .where(and(eq(funnels.id, funnelId), eq(funnels.ownerId, ownerId)));
    });
    return get(ownerId, funnelId);
  }

  /**
   * A new token for the funnel's own bot (@BotFather revoked the old one): getMe must answer
   * with the same bot. Stages, people and history stay; a running funnel goes on with it.
   * A funnel without a bot yet (added from a template) takes any bot not connected elsewhere.
   */
  async function replaceToken(ownerId: number, funnelId: number, body: { bot_token: string }): Promise<Funnel> {
    const funnel = await ownedFunnel(orm, ownerId, funnelId);
    const token = body.bot_token.trim();
    if (!BOT_TOKEN_PATTERN.test(token)) throw invalidField('bot_token', FUNNEL_ERRORS.malformedToken);
    const hash = botTokenHash(token);
    const alreadyConnected = invalidField('bot_token', FUNNEL_ERRORS.alreadyConnected);
    const [existing] = await orm.select({ id: funnels.id }).from(funnels).where(eq(funnels.botTokenHash, hash)).limit(1);
    if (existing && existing.id !== funnelId) throw alreadyConnected;
    const me = await callTelegram(() => botApi(token).getMe(), invalidField('bot_token', FUNNEL_ERRORS.unknownToken));
    if (funnel.botId !== null && me.id !== funnel.botId) throw invalidField('bot_token', FUNNEL_ERRORS.otherBot(me.username));
    try {
      await orm
        .update(funnels)
        .set({
          botTokenEncrypted: encryptSecret(token, config.secretKey),
          botTokenHash: hash,
          botTokenHint: botTokenHint(token),
          botId: me.id,
          botUsername: me.username,
          stopReason: null,
          updatedAt: now(),
        })
        .where(and(eq(funnels.id, funnelId), eq(funnels.ownerId, ownerId)));
    } catch (error) {
      if (isUniqueViolation(error)) throw alreadyConnected;
      throw error;
    }
    return get(ownerId, funnelId);
  }

  async function stop(ownerId: number, funnelId: number): Promise<Funnel> {
    const funnel = await ownedFunnel(orm, ownerId, funnelId);
    if (funnel.state === 'running') {
      await orm.update(funnels).set({ state: 'stopped', updatedAt: now() }).where(and(eq(funnels.id, funnelId), eq(funnels.ownerId, ownerId)));
    }
    return get(ownerId, funnelId);
  }

  /** Archiving stops the bot; a draft stays a draft (it never ran). */
  async function archive(ownerId: number, funnelId: number): Promise<Funnel> {
    const funnel = await ownedFunnel(orm, ownerId, funnelId);
    await orm
      .update(funnels)
      .set({ archivedAt: funnel.archivedAt ?? now(), state: funnel.state === 'running' ? 'stopped' : funnel.state, updatedAt: now() })
      .where(and(eq(funnels.id, funnelId), eq(funnels.ownerId, ownerId)));
    return get(ownerId, funnelId);
  }

  /** Back from the archive, still stopped: running it again is the owner's decision. */
  async function restore(ownerId: number, funnelId: number): Promise<Funnel> {
    await ownedFunnel(orm, ownerId, funnelId);
    await orm.update(funnels).set({ archivedAt: null, updatedAt: now() }).where(and(eq(funnels.id, funnelId), eq(funnels.ownerId, ownerId)));
    return get(ownerId, funnelId);
  }

  /** Deletes an archived funnel and, by cascade, its stages, tags, media, people and history. */
  async function remove(ownerId: number, funnelId: number): Promise<void> {
    const funnel = await ownedFunnel(orm, ownerId, funnelId);
    if (!funnel.archivedAt) throw conflict(FUNNEL_ERRORS.deleteNotArchived);
    await orm.delete(funnels).where(and(eq(funnels.id, funnelId), eq(funnels.ownerId, ownerId)));
  }

  /**
   * Copies the stages (appended after the target's, in order), their messages and media, and
   * the tags (merged by title) into another funnel of the same owner. Telegram file ids are
   * per bot, so copied media is uploaded afresh by the target's bot.
   */
  async function copy(ownerId: number, funnelId: number, targetId: number): Promise<Funnel> {
    await ownedFunnel(orm, ownerId, funnelId);
    if (targetId === funnelId) throw invalidField('target_funnel_id', FUNNEL_ERRORS.copyIntoItself);
    const [target] = await orm
      .select({ id: funnels.id })
      .from(funnels)
      .where(and(eq(funnels.id, targetId), eq(funnels.ownerId, ownerId)))
      .limit(1);
    if (!target) throw invalidField('target_funnel_id', COMMON_ERRORS.doesNotExist(targetId));

    await orm.transaction(async (tx) => {
      const sourceStages = await tx.select().from(stages).where(eq(stages.funnelId, funnelId)).orderBy(asc(stages.position), asc(stages.id));
      const [{ count, maxPosition }] = await tx
        .select({ count: sql<number>`count(*)::int`, maxPosition: sql<number>`coalesce(max(${stages.position}), -1)::int` })
        .from(stages)
        .where(eq(stages.funnelId, targetId));
      if (Number(count) + sourceStages.length > STAGES_MAX) throw invalid(FUNNEL_ERRORS.tooManyStages);

      // Tags, merged by title (without regard to case, as titles are unique).
      const tagIds = new Map<number, number>();
      const targetTags = new Map((await tx.select().from(tags).where(eq(tags.funnelId, targetId))).map((t) => [t.title.toLowerCase(), t.id]));
      for (const tag of await tx.select().from(tags).where(eq(tags.funnelId, funnelId)).orderBy(asc(tags.id))) {
        let id = targetTags.get(tag.title.toLowerCase());
        if (id === undefined) {
          [{ id }] = await tx.insert(tags).values({ funnelId: targetId, title: tag.title, color: tag.color }).returning({ id: tags.id });
          targetTags.set(tag.title.toLowerCase(), id);
        }
        tagIds.set(tag.id, id);
      }

      // Media used by the copied messages, duplicated without Telegram's file id.
      const mediaIds = [...new Set(sourceStages.map((s) => s.message.media_id).filter((id): id is number => id !== null))];
      const mediaMap = new Map<number, number>();
      if (mediaIds.length > 0) {
        for (const item of await tx.select().from(media).where(and(eq(media.funnelId, funnelId), inArray(media.id, mediaIds)))) {
          const [{ id }] = await tx
            .insert(media)
            .values({ funnelId: targetId, kind: item.kind, filename: item.filename, contentType: item.contentType, size: item.size, data: item.data })
            .returning({ id: media.id });
          mediaMap.set(item.id, id);
        }
      }

      let position = Number(maxPosition);
      const stageIds = new Map<number, number>();
      for (const stage of sourceStages) {
        position += 1;
        const mediaId = stage.message.media_id === null ? null : (mediaMap.get(stage.message.media_id) ?? null);
        const [{ id }] = await tx
          .insert(stages)
          .values({
            funnelId: targetId,
            title: stage.title,
            icon: stage.icon,
            color: stage.color,
            position,
            tagId: stage.tagId === null ? null : (tagIds.get(stage.tagId) ?? null),
            message: { ...stage.message, media_id: mediaId, choices: [] },
            // Its paid and refund stages are the copies' (set below, once all are inserted).
            payment: null,
          })
          .returning({ id: stages.id });
        stageIds.set(stage.id, id);
      }
      // Choice buttons lead to the copies of their stages (known once all are inserted).
      for (const stage of sourceStages) {
        const choices = stage.message.choices ?? [];
        if (choices.length === 0) continue;
        const copied = choices.map((c) => ({ text: c.text, stage_id: c.stage_id === null ? null : (stageIds.get(c.stage_id) ?? null) }));
        const mediaId = stage.message.media_id === null ? null : (mediaMap.get(stage.message.media_id) ?? null);
        await tx
          .update(stages)
          .set({ message: { ...stage.message, media_id: mediaId, choices: copied } })
          .where(and(eq(stages.id, stageIds.get(stage.id)!), eq(stages.funnelId, targetId)));
      }
      // Waits too, leading to the copies of their stages.
      for (const stage of sourceStages) {
        if (!stage.wait) continue;
        const wait = { ...stage.wait, to_stage_id: stage.wait.to_stage_id === null ? null : (stageIds.get(stage.wait.to_stage_id) ?? null) };
        await tx
          .update(stages)
          .set({ wait })
          .where(and(eq(stages.id, stageIds.get(stage.id)!), eq(stages.funnelId, targetId)));
      }
      // A payment leads to the copies of its stages too (null: broken, and stays so).
      for (const stage of sourceStages) {
        if (!stage.payment) continue;
        const copyOf = (id: number | null) => (id === null ? null : (stageIds.get(id) ?? null));
        const payment = { ...stage.payment, paid_stage_id: copyOf(stage.payment.paid_stage_id), refund_stage_id: copyOf(stage.payment.refund_stage_id) };
        await tx
          .update(stages)
          .set({ payment })
          .where(and(eq(stages.id, stageIds.get(stage.id)!), eq(stages.funnelId, targetId)));
      }
      // Keywords too, but for a phrase the target already has (its own stays).
      const sourceKeywords = await tx.select().from(funnelKeywords).where(eq(funnelKeywords.funnelId, funnelId)).orderBy(asc(funnelKeywords.id));
      if (sourceKeywords.length > 0) {
        await tx
          .insert(funnelKeywords)
          .values(sourceKeywords.map((k) => ({ funnelId: targetId, phrase: k.phrase, stageId: stageIds.get(k.stageId)! })))
          .onConflictDoNothing();
      }
      // Fields, merged by key (the target's own field of that key is kept), and the copied stages' questions asking for them.
      const fieldIds = new Map<number, number>();
      const targetFields = new Map((await tx.select().from(funnelFields).where(eq(funnelFields.funnelId, targetId))).map((f) => [f.key, f.id]));
      for (const field of await tx.select().from(funnelFields).where(eq(funnelFields.funnelId, funnelId)).orderBy(asc(funnelFields.id))) {
        let id = targetFields.get(field.key);
        if (id === undefined) {
          [{ id }] = await tx
            .insert(funnelFields)
            .values({ funnelId: targetId, key: field.key, title: field.title, kind: field.kind, options: field.options })
            .returning({ id: funnelFields.id });
        }
        fieldIds.set(field.id, id);
      }
      for (const stage of sourceStages) {
        if (!stage.ask) continue;
        const ask = { field_id: stage.ask.field_id === null ? null : (fieldIds.get(stage.ask.field_id) ?? null), reask_text: stage.ask.reask_text };
        await tx.update(stages).set({ ask }).where(and(eq(stages.id, stageIds.get(stage.id)!), eq(stages.funnelId, targetId)));
      }
      await tx.update(funnels).set({ updatedAt: now() }).where(and(eq(funnels.id, targetId), eq(funnels.ownerId, ownerId)));
    });
    runtime.stagesChanged(targetId);
    return get(ownerId, targetId);
  }

  function botApiOf(funnel: FunnelRow) {
    if (funnel.botTokenEncrypted === null) throw invalid(FUNNEL_ERRORS.noBot);
    return botApi(decryptBotToken(funnel, config));
  }

  async function description(ownerId: number, funnelId: number): Promise<BotDescription> {
    const api = botApiOf(await ownedFunnel(orm, ownerId, funnelId));
    const revoked = invalid(FUNNEL_ERRORS.tokenRevoked);
    const [long, short] = await Promise.all([
      callTelegram(() => api.getMyDescription(), revoked),
      callTelegram(() => api.getMyShortDescription(), revoked),
    ]);
    return { description: long.description, short_description: short.short_description };
  }

  async function setDescription(ownerId: number, funnelId: number, body: BotDescription): Promise<BotDescription> {
    const api = botApiOf(await ownedFunnel(orm, ownerId, funnelId));
    const revoked = invalid(FUNNEL_ERRORS.tokenRevoked);
    await callTelegram(() => api.setMyDescription(body.description), revoked);
    await callTelegram(() => api.setMyShortDescription(body.short_description), revoked);
    return { description: body.description, short_description: body.short_description };
  }

  return { list, get, connect, update, runCheck, run, replaceToken, stop, archive, restore, remove, copy, description, setDescription };
}

export type FunnelService = ReturnType<typeof createFunnelService>;
