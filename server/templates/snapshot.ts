// A template version's snapshot: a funnel's stages, messages, tags, fields and series of letters, with
// references by position instead of ids (a stage's tag is an index into `tags`, a series' stage an
// index into `stages`) and media as rows of template_media. Taking one copies the media; applying
// one to a funnel copies them again, so no funnel and no version ever shares a row with another.
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { TemplateChange } from '../../contract/templates';
import type { Database } from '../db';
import { funnelFields, funnelKeywords, funnels, letters, letterSeries, media, stages, tags, templateMedia, type SnapshotMessage, type TemplateSnapshot } from '../db/schema';

type Tx = Parameters<Parameters<Database['transaction']>[0]>[0];


/** Reads the funnel and writes its snapshot's media under `versionId`; answers the snapshot. */
export async function takeSnapshot(tx: Tx, funnelId: number, versionId: number): Promise<TemplateSnapshot> {
  const tagRows = await tx.select().from(tags).where(eq(tags.funnelId, funnelId)).orderBy(asc(tags.id));
  const stageRows = await tx.select().from(stages).where(eq(stages.funnelId, funnelId)).orderBy(asc(stages.position), asc(stages.id));
  const seriesRows = await tx.select().from(letterSeries).where(eq(letterSeries.funnelId, funnelId)).orderBy(asc(letterSeries.id));
  const letterRows =
    seriesRows.length === 0
      ? []
      : await tx
          .select()
          .from(letters)
          .where(inArray(letters.seriesId, seriesRows.map((s) => s.id)))
          .orderBy(asc(letters.position), asc(letters.id));

  const mediaIds = new Set<number>();
  for (const s of stageRows) if (s.message.media_id !== null) mediaIds.add(s.message.media_id);
  for (const l of letterRows) if (l.message.media_id !== null) mediaIds.add(l.message.media_id);
  const mediaMap = new Map<number, number>();
  if (mediaIds.size > 0) {
    const rows = await tx.select().from(media).where(and(eq(media.funnelId, funnelId), inArray(media.id, [...mediaIds])));
    for (const m of rows) {
      const [{ id }] = await tx
        .insert(templateMedia)
        .values({ versionId, kind: m.kind, filename: m.filename, contentType: m.contentType, size: m.size, data: m.data })
        .returning({ id: templateMedia.id });
      mediaMap.set(m.id, id);
    }
  }
  const tagIndex = new Map(tagRows.map((t, i) => [t.id, i]));
  const stageIndex = new Map(stageRows.map((s, i) => [s.id, i]));
  const ref = (map: Map<number, number>, id: number | null) => (id === null ? null : (map.get(id) ?? null));
  const message = (m: {
    text: string;
    media_id: number | null;
    buttons: SnapshotMessage['buttons'];
    next_button: { text: string } | null;
    choices?: Array<{ text: string; stage_id: number | null }>;
  }): SnapshotMessage => ({
    text: m.text,
    media: m.media_id === null ? null : (mediaMap.get(m.media_id) ?? null),
    buttons: m.buttons.map((b) => ({ text: b.text, url: b.url })),
    next_button: m.next_button ? { text: m.next_button.text } : null,
    // Choice buttons lead to stages by their index in the snapshot (null: broken, and stays so).
    ...(m.choices?.length ? { choices: m.choices.map((c) => ({ text: c.text, stage: ref(stageIndex, c.stage_id) })) } : {}),
  });
  const keywordRows = await tx.select().from(funnelKeywords).where(eq(funnelKeywords.funnelId, funnelId)).orderBy(asc(funnelKeywords.id));
  const fieldRows = await tx.select().from(funnelFields).where(eq(funnelFields.funnelId, funnelId)).orderBy(asc(funnelFields.id));
  const fieldIndex = new Map(fieldRows.map((f, i) => [f.id, i]));

  return {
    tags: tagRows.map((t) => ({ title: t.title, color: t.color })),
    stages: stageRows.map((s) => ({
      title: s.title,
      icon: s.icon,
      color: s.color,
      tag: ref(tagIndex, s.tagId),
      message: message(s.message),
      // A wait leads to a stage by its index too (null: broken, and stays so).
      ...(s.wait
        ? { wait: { amount: s.wait.amount, unit: s.wait.unit, to_stage: ref(stageIndex, s.wait.to_stage_id), only_if_silent: s.wait.only_if_silent } }
        : {}),
      // A payment's stages by their index, as choices (null: broken, and stays so).
      ...(s.payment
        ? {
            payment: {
              title: s.payment.title,
              description: s.payment.description,
              amount: s.payment.amount,
              paid_stage: ref(stageIndex, s.payment.paid_stage_id),
              refund_stage: ref(stageIndex, s.payment.refund_stage_id),
            },
          }
        : {}),
      // A question names its field by index in `fields` (null: broken, and stays so).
      ...(s.ask ? { ask: { field: ref(fieldIndex, s.ask.field_id), reask_text: s.ask.reask_text } } : {}),
    })),
    ...(fieldRows.length ? { fields: fieldRows.map((f) => ({ key: f.key, title: f.title, kind: f.kind, options: f.options })) } : {}),
    ...(keywordRows.length ? { keywords: keywordRows.map((k) => ({ phrase: k.phrase, stage: stageIndex.get(k.stageId)! })) } : {}),
    series: seriesRows.map((s) => ({
      name: s.name,
      join_on: { on: s.joinOn.on, stage: ref(stageIndex, s.joinOn.stage_id), tag: ref(tagIndex, s.joinOn.tag_id) },
      leave_on: { stage: ref(stageIndex, s.leaveOn.stage_id), tag: ref(tagIndex, s.leaveOn.tag_id) },
      time_zone: s.timeZone,
      catch_up_hours: s.catchUpHours,
      enabled: s.enabledAt !== null,
      letters: letterRows
        .filter((l) => l.seriesId === s.id)
        .map((l) => ({ name: l.name, message: message(l.message), sending_time: l.sendingTime, enabled: l.enabled })),
    })),
  };
}

/**
 * Writes the snapshot into a funnel that has none of it yet (a new funnel, or one whose stages,
 * tags, series and media were just removed): tags, media copies, stages, series and letters.
 */
export async function applySnapshot(tx: Tx, snapshot: TemplateSnapshot, funnelId: number, now: Date): Promise<void> {
  const tagIds: number[] = [];
  for (const t of snapshot.tags) {
    const [{ id }] = await tx.insert(tags).values({ funnelId, title: t.title, color: t.color }).returning({ id: tags.id });
    tagIds.push(id);
  }
  const used = new Set<number>();
  for (const s of snapshot.stages) if (s.message.media !== null) used.add(s.message.media);
  for (const series of snapshot.series) for (const l of series.letters) if (l.message.media !== null) used.add(l.message.media);
  const mediaIds = new Map<number, number>();
  if (used.size > 0) {
    for (const m of await tx.select().from(templateMedia).where(inArray(templateMedia.id, [...used]))) {
      const [{ id }] = await tx
        .insert(media)
        .values({ funnelId, kind: m.kind, filename: m.filename, contentType: m.contentType, size: m.size, data: m.data })
        .returning({ id: media.id });
      mediaIds.set(m.id, id);
    }
  }
  const mediaOf = (id: number | null) => (id === null ? null : (mediaIds.get(id) ?? null));
  const stageIds: number[] = [];
  for (const [position, s] of snapshot.stages.entries()) {
    const [{ id }] = await tx
      .insert(stages)
      .values({
        funnelId,
        title: s.title,
        icon: s.icon,
        color: s.color,
        position,
        tagId: s.tag === null ? null : (tagIds[s.tag] ?? null),
        message: { text: s.message.text, media_id: mediaOf(s.message.media), buttons: s.message.buttons, next_button: s.message.next_button },
      })
      .returning({ id: stages.id });
    stageIds.push(id);
  }
  const at = (list: number[], index: number | null) => (index === null ? null : (list[index] ?? null));
  // Choice buttons, waits and keywords name stages by index: known once every stage is inserted.
  for (const [index, s] of snapshot.stages.entries()) {
    if (!s.message.choices?.length) continue;
    const choices = s.message.choices.map((c) => ({ text: c.text, stage_id: at(stageIds, c.stage) }));
    await tx
      .update(stages)
      .set({ message: { text: s.message.text, media_id: mediaOf(s.message.media), buttons: s.message.buttons, next_button: s.message.next_button, choices } })
      .where(and(eq(stages.id, stageIds[index]), eq(stages.funnelId, funnelId)));
  }
  for (const [index, s] of snapshot.stages.entries()) {
    if (!s.wait) continue;
    const wait = { amount: s.wait.amount, unit: s.wait.unit, to_stage_id: at(stageIds, s.wait.to_stage), only_if_silent: s.wait.only_if_silent };
    await tx.update(stages).set({ wait }).where(and(eq(stages.id, stageIds[index]), eq(stages.funnelId, funnelId)));
  }
  for (const [index, s] of snapshot.stages.entries()) {
    if (!s.payment) continue;
    const { title, description, amount } = s.payment;
    const payment = { title, description, amount, paid_stage_id: at(stageIds, s.payment.paid_stage), refund_stage_id: at(stageIds, s.payment.refund_stage) };
    await tx.update(stages).set({ payment }).where(and(eq(stages.id, stageIds[index]), eq(stages.funnelId, funnelId)));
  }
  const fieldIds: number[] = [];
  for (const f of snapshot.fields ?? []) {
    const [{ id }] = await tx.insert(funnelFields).values({ funnelId, key: f.key, title: f.title, kind: f.kind, options: f.options }).returning({ id: funnelFields.id });
    fieldIds.push(id);
  }
  for (const [index, s] of snapshot.stages.entries()) {
    if (!s.ask) continue;
    const ask = { field_id: at(fieldIds, s.ask.field), reask_text: s.ask.reask_text };
    await tx.update(stages).set({ ask }).where(and(eq(stages.id, stageIds[index]), eq(stages.funnelId, funnelId)));
  }
  const keywords = (snapshot.keywords ?? []).flatMap((k) => {
    const stageId = at(stageIds, k.stage);
    return stageId === null ? [] : [{ funnelId, phrase: k.phrase, stageId }];
  });
  if (keywords.length > 0) await tx.insert(funnelKeywords).values(keywords).onConflictDoNothing();
  for (const s of snapshot.series) {
    const [{ id: seriesId }] = await tx
      .insert(letterSeries)
      .values({
        funnelId,
        name: s.name,
        joinOn: { on: s.join_on.on, stage_id: at(stageIds, s.join_on.stage), tag_id: at(tagIds, s.join_on.tag) },
        leaveOn: { stage_id: at(stageIds, s.leave_on.stage), tag_id: at(tagIds, s.leave_on.tag) },
        timeZone: s.time_zone,
        catchUpHours: s.catch_up_hours,
        enabledAt: s.enabled ? now : null,
      })
      .returning({ id: letterSeries.id });
    for (const [position, l] of s.letters.entries()) {
      await tx.insert(letters).values({
        seriesId,
        position,
        name: l.name,
        message: { text: l.message.text, media_id: mediaOf(l.message.media), buttons: l.message.buttons, next_button: null },
        sendingTime: l.sending_time,
        enabled: l.enabled,
      });
    }
  }
  await tx.update(funnels).set({ updatedAt: now }).where(eq(funnels.id, funnelId));
}

/** Removes what a snapshot writes (before applying a newer one to a funnel that never ran). */
export async function clearFunnelContent(tx: Tx, funnelId: number): Promise<void> {
  await tx.delete(letterSeries).where(eq(letterSeries.funnelId, funnelId));
  await tx.delete(stages).where(eq(stages.funnelId, funnelId));
  await tx.delete(tags).where(eq(tags.funnelId, funnelId));
  await tx.delete(funnelFields).where(eq(funnelFields.funnelId, funnelId));
  await tx.delete(media).where(eq(media.funnelId, funnelId));
}

/** What changed from one version to the next, as the owner of a funnel made from it is told. */
export function snapshotChanges(from: TemplateSnapshot, to: TemplateSnapshot): TemplateChange[] {
  const changes: TemplateChange[] = [];
  if (to.stages.length > from.stages.length) changes.push('stages_added');
  if (to.stages.length < from.stages.length) changes.push('stages_removed');
  const common = Math.min(from.stages.length, to.stages.length);
  // Media ids differ between versions (each has its copies): compare whether there is one.
  const comparable = (s: TemplateSnapshot['stages'][number]) => JSON.stringify({ ...s, message: { ...s.message, media: s.message.media !== null } });
  for (let i = 0; i < common; i++) {
    if (comparable(from.stages[i]) !== comparable(to.stages[i])) {
      changes.push('stages_changed');
      break;
    }
  }
  if (JSON.stringify(from.tags) !== JSON.stringify(to.tags)) changes.push('tags_changed');
  const letterShape = (s: TemplateSnapshot) =>
    JSON.stringify(s.series.map((x) => ({ ...x, letters: x.letters.map((l) => ({ ...l, message: { ...l.message, media: l.message.media !== null } })) })));
  if (letterShape(from) !== letterShape(to)) changes.push('letters_changed');
  return changes;
}
