// Templates 'for affiliates': an admin publishes one of their funnels (a version is a snapshot,
// ./snapshot.ts), every user lists and previews the published ones and adds one to their funnels
// as a draft without a bot; a funnel made from an older version is told what changed and, if it
// has never run, may take the update. Admin-only calls are checked by the routes (403); here a
// template someone may not see is 404, as another user's data is everywhere in the API.
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Funnel } from '../../contract/funnels';
import {
  TEMPLATE_COVER_MAX_BYTES,
  TEMPLATE_COVER_TYPES,
  TEMPLATE_STATS_DAYS,
  TEMPLATES_API,
  type CreateTemplateBody,
  type FunnelTemplate,
  type Template,
  type TemplateCard,
  type TemplateStats,
  type TemplateSummary,
  type UpdateTemplateBody,
} from '../../contract/templates';
import type { Db } from '../db';
import { funnels, templateMedia, templates, templateVersions, type TemplateSnapshot, type UserRow } from '../db/schema';
import { ownedFunnel } from '../funnels/access';
import { COMMON_ERRORS, conflict, invalid, invalidField, notFound, tooLarge, unsupported } from '../domain-error';
import { toFunnel } from '../funnels/funnels';
import { requireContentOfType } from '../funnels/media';
import { applySnapshot, clearFunnelContent, snapshotChanges, takeSnapshot } from './snapshot';
import { TEMPLATE_ERRORS } from './errors';


export interface TemplateServiceDeps {
  db: Db;
  now: () => Date;
}

type TemplateRow = typeof templates.$inferSelect;
type Latest = { version: number; versionId: number; snapshot: TemplateSnapshot };

export function createTemplateService({ db, now }: TemplateServiceDeps) {
  const orm = db.orm;

  /** The latest version of each template. */
  async function latestOf(templateIds: number[]): Promise<Map<number, Latest>> {
    if (templateIds.length === 0) return new Map();
    const rows = await orm
      .selectDistinctOn([templateVersions.templateId], {
        templateId: templateVersions.templateId,
        versionId: templateVersions.id,
        version: templateVersions.version,
        snapshot: templateVersions.snapshot,
      })
      .from(templateVersions)
      .where(inArray(templateVersions.templateId, templateIds))
      .orderBy(templateVersions.templateId, desc(templateVersions.version));
    return new Map(rows.map((r) => [r.templateId, { version: r.version, versionId: r.versionId, snapshot: r.snapshot }]));
  }

  const visibleTo = (row: TemplateRow, viewer: UserRow) => row.published || row.publisherId === viewer.id;

  function summary(row: TemplateRow, latest: Latest, viewer: UserRow): TemplateSummary {
    const mine = row.publisherId === viewer.id;
    return {
      id: row.id,
      name: row.name,
      description: row.description,
      cover_url: row.coverType ? `${TEMPLATES_API.cover(row.id)}?v=${row.updatedAt.getTime()}` : null,
      stage_count: latest.snapshot.stages.length,
      version: latest.version,
      published: row.published,
      mine,
      source_funnel_id: mine ? row.sourceFunnelId : null,
      updated_at: row.updatedAt.toISOString(),
    };
  }

  /** A template the viewer may see (published, or their own), with its latest version; else 404. */
  async function visible(viewer: UserRow, id: number): Promise<{ row: TemplateRow; latest: Latest }> {
    const [row] = await orm.select().from(templates).where(eq(templates.id, id)).limit(1);
    if (!row || !visibleTo(row, viewer)) throw notFound();
    const latest = (await latestOf([id])).get(id);
    if (!latest) throw notFound();
    return { row, latest };
  }

  /** A template the viewer published (the admin calls); else 404. */
  async function published(viewer: UserRow, id: number): Promise<TemplateRow> {
    const [row] = await orm
      .select()
      .from(templates)
      .where(and(eq(templates.id, id), eq(templates.publisherId, viewer.id)))
      .limit(1);
    if (!row) throw notFound();
    return row;
  }

  async function list(viewer: UserRow): Promise<TemplateSummary[]> {
    const rows = await orm
      .select()
      .from(templates)
      .where(sql`${templates.published} or ${templates.publisherId} = ${viewer.id}`)
      .orderBy(desc(templates.updatedAt), desc(templates.id));
    const latest = await latestOf(rows.map((r) => r.id));
    return rows.filter((r) => latest.has(r.id)).map((r) => summary(r, latest.get(r.id)!, viewer));
  }

  async function get(viewer: UserRow, id: number): Promise<Template> {
    const { row, latest } = await visible(viewer, id);
    const snapshot = latest.snapshot;
    const kinds = new Map<number, 'photo' | 'video'>();
    const mediaIds = snapshot.stages.map((s) => s.message.media).filter((m): m is number => m !== null);
    if (mediaIds.length > 0) {
      for (const m of await orm.select({ id: templateMedia.id, kind: templateMedia.kind }).from(templateMedia).where(inArray(templateMedia.id, mediaIds))) kinds.set(m.id, m.kind);
    }
    return {
      ...summary(row, latest, viewer),
      stages: snapshot.stages.map((s) => ({
        title: s.title,
        icon: s.icon as Template['stages'][number]['icon'],
        color: s.color,
        tag: s.tag === null ? null : (snapshot.tags[s.tag]?.title ?? null),
        message: {
          text: s.message.text,
          media:
            s.message.media !== null && kinds.has(s.message.media)
              ? { id: s.message.media, kind: kinds.get(s.message.media)!, url: TEMPLATES_API.media(s.message.media) }
              : null,
          buttons: s.message.buttons,
          next_button: s.message.next_button,
        },
      })),
      tags: snapshot.tags,
      series: snapshot.series.map((s) => ({ name: s.name, letters: s.letters.map((l) => ({ name: l.name })) })),
    };
  }

  /** A new version of the template from its source funnel (in the caller's transaction). */
  async function snapshotVersion(tx: Parameters<Parameters<typeof orm.transaction>[0]>[0], templateId: number, funnelId: number, version: number, name: string) {
    const [{ id: versionId }] = await tx
      .insert(templateVersions)
      .values({ templateId, version, snapshot: { tags: [], stages: [], series: [] }, createdAt: now() })
      .returning({ id: templateVersions.id });
    const snapshot = await takeSnapshot(tx, funnelId, versionId);
    if (snapshot.stages.length === 0) throw invalidField('funnel_id', TEMPLATE_ERRORS.withoutStages);
    // The name goes with the version: a funnel made from it keeps showing it, whatever the publisher renames later.
    await tx.update(templateVersions).set({ snapshot: { ...snapshot, name } }).where(eq(templateVersions.id, versionId));
  }

  async function create(admin: UserRow, body: CreateTemplateBody): Promise<Template> {
    await ownedFunnel(orm, admin.id, body.funnel_id).catch(() => {
      throw invalidField('funnel_id', COMMON_ERRORS.doesNotExist(body.funnel_id));
    });
    const id = await orm.transaction(async (tx) => {
      const [row] = await tx
        .insert(templates)
        .values({ publisherId: admin.id, sourceFunnelId: body.funnel_id, name: body.name.trim(), description: (body.description ?? '').trim(), createdAt: now(), updatedAt: now() })
        .returning({ id: templates.id });
      await snapshotVersion(tx, row.id, body.funnel_id, 1, body.name.trim());
      return row.id;
    });
    return get(admin, id);
  }

  /** Publishes the source funnel as it is now: a new version. Funnels already made keep theirs. */
  async function publishVersion(admin: UserRow, id: number): Promise<Template> {
    const row = await published(admin, id);
    if (row.sourceFunnelId === null) throw conflict(TEMPLATE_ERRORS.sourceGone);
    const sourceId = row.sourceFunnelId;
    await orm.transaction(async (tx) => {
      // Locks the template: two publishings at once make versions n+1 and n+2, not two n+1.
      const [locked] = await tx.select({ name: templates.name }).from(templates).where(eq(templates.id, id)).for('update');
      const [{ max }] = await tx
        .select({ max: sql<number>`coalesce(max(${templateVersions.version}), 0)::int` })
        .from(templateVersions)
        .where(eq(templateVersions.templateId, id));
      await snapshotVersion(tx, id, sourceId, Number(max) + 1, locked.name);
      await tx.update(templates).set({ updatedAt: now() }).where(and(eq(templates.id, id), eq(templates.publisherId, admin.id)));
    });
    return get(admin, id);
  }

  async function update(admin: UserRow, id: number, body: UpdateTemplateBody): Promise<Template> {
    await published(admin, id);
    await orm
      .update(templates)
      .set({
        ...(body.name === undefined ? {} : { name: body.name.trim() }),
        ...(body.description === undefined ? {} : { description: body.description.trim() }),
        ...(body.published === undefined ? {} : { published: body.published }),
        updatedAt: now(),
      })
      .where(and(eq(templates.id, id), eq(templates.publisherId, admin.id)));
    return get(admin, id);
  }

  /** `data` is null when the body was not a picture: another publisher's template is still 404 first. */
  async function setCover(admin: UserRow, id: number, file: { contentType: string; data: Buffer | null }): Promise<Template> {
    await published(admin, id);
    const type = file.contentType.split(';')[0].trim().toLowerCase();
    if (!file.data || !(TEMPLATE_COVER_TYPES as readonly string[]).includes(type)) throw unsupported(TEMPLATE_ERRORS.coverType);
    if (file.data.length === 0) throw invalid(TEMPLATE_ERRORS.emptyFile);
    if (file.data.length > TEMPLATE_COVER_MAX_BYTES) throw tooLarge(TEMPLATE_ERRORS.coverTooBig);
    requireContentOfType(type, file.data);
    await orm.update(templates).set({ coverType: type, cover: file.data, updatedAt: now() }).where(and(eq(templates.id, id), eq(templates.publisherId, admin.id)));
    return get(admin, id);
  }

  /** A published template's public card (no credentials: its link, for a visitor who is not signed in); else 404. */
  async function card(id: number): Promise<TemplateCard> {
    const [row] = await orm
      .select()
      .from(templates)
      .where(and(eq(templates.id, id), eq(templates.published, true)))
      .limit(1);
    const latest = row ? (await latestOf([id])).get(id) : undefined;
    if (!row || !latest) throw notFound();
    return {
      id: row.id,
      name: row.name,
      description: row.description,
      cover_url: row.coverType ? `${TEMPLATES_API.cover(row.id)}?v=${row.updatedAt.getTime()}` : null,
      stage_count: latest.snapshot.stages.length,
      letter_count: latest.snapshot.series.reduce((sum, series) => sum + series.letters.length, 0),
    };
  }

  /** The cover picture of a published template (no credentials: an <img> shows it). */
  async function cover(id: number): Promise<{ contentType: string; data: Buffer }> {
    const [row] = await orm
      .select({ type: templates.coverType, data: templates.cover })
      .from(templates)
      .where(and(eq(templates.id, id), eq(templates.published, true)))
      .limit(1);
    if (!row?.type || !row.data) throw notFound();
    return { contentType: row.type, data: Buffer.from(row.data) };
  }

  /** A picture or video of a published template's preview (no credentials: an <img> shows it). */
  async function mediaFile(id: number): Promise<{ contentType: string; data: Buffer; filename: string }> {
    const [row] = await orm
      .select({ type: templateMedia.contentType, data: templateMedia.data, filename: templateMedia.filename })
      .from(templateMedia)
      .innerJoin(templateVersions, eq(templateVersions.id, templateMedia.versionId))
      .innerJoin(templates, eq(templates.id, templateVersions.templateId))
      .where(and(eq(templateMedia.id, id), eq(templates.published, true)))
      .limit(1);
    if (!row) throw notFound();
    return { contentType: row.type, data: Buffer.from(row.data), filename: row.filename };
  }

  /** 'Add to my funnels': a draft funnel without a bot, with the latest version's content. */
  async function add(viewer: UserRow, id: number): Promise<Funnel> {
    const { row, latest } = await visible(viewer, id);
    const funnel = await orm.transaction(async (tx) => {
      const [created] = await tx
        .insert(funnels)
        .values({ ownerId: viewer.id, name: row.name.slice(0, 128), templateVersionId: latest.versionId, createdAt: now(), updatedAt: now() })
        .returning();
      await applySnapshot(tx, latest.snapshot, created.id, now());
      return created;
    });
    return toFunnel(funnel, { people_count: 0, stage_count: latest.snapshot.stages.length, template_id: row.id });
  }

  async function funnelTemplate(viewer: UserRow, funnelId: number): Promise<FunnelTemplate> {
    const funnel = await ownedFunnel(orm, viewer.id, funnelId);
    if (funnel.templateVersionId === null) throw invalid(TEMPLATE_ERRORS.notFromTemplate);
    const [mine] = await orm.select().from(templateVersions).where(eq(templateVersions.id, funnel.templateVersionId)).limit(1);
    const [template] = await orm.select().from(templates).where(eq(templates.id, mine.templateId)).limit(1);
    const latest = (await latestOf([mine.templateId])).get(mine.templateId)!;
    const newer = latest.version > mine.version && template.published;
    // Others see the name of the version their funnel was made from, never a later, unpublished one.
    const name = template.publisherId === viewer.id ? template.name : (mine.snapshot.name ?? template.name);
    return {
      template_id: template.id,
      name,
      version: mine.version,
      latest_version: template.published ? latest.version : mine.version,
      update_available: newer,
      changes: newer ? snapshotChanges(mine.snapshot, latest.snapshot) : [],
      can_apply: newer && funnel.firstRunAt === null && funnel.state !== 'running',
    };
  }

  /** Takes the latest version into a funnel that has never run (its stages, tags, letters and media are replaced). */
  async function applyUpdate(viewer: UserRow, funnelId: number): Promise<FunnelTemplate> {
    const status = await funnelTemplate(viewer, funnelId);
    if (!status.update_available) throw conflict(TEMPLATE_ERRORS.upToDate);
    if (!status.can_apply) throw conflict(TEMPLATE_ERRORS.wasRun);
    const latest = (await latestOf([status.template_id])).get(status.template_id)!;
    await orm.transaction(async (tx) => {
      // The funnel may not have been run meanwhile (first_run_at is set in the same row); the
      // owner is checked again here, first in the transaction that replaces its content.
      const ownFunnel = and(eq(funnels.id, funnelId), eq(funnels.ownerId, viewer.id));
      const [locked] = await tx.select({ firstRunAt: funnels.firstRunAt }).from(funnels).where(ownFunnel).for('update');
      if (!locked) throw notFound();
      if (locked.firstRunAt !== null) throw conflict(TEMPLATE_ERRORS.wasRun);
      await clearFunnelContent(tx, funnelId);
      await applySnapshot(tx, latest.snapshot, funnelId, now());
      await tx.update(funnels).set({ templateVersionId: latest.versionId, updatedAt: now() }).where(ownFunnel);
    });
    return funnelTemplate(viewer, funnelId);
  }

  async function stats(admin: UserRow, id: number): Promise<TemplateStats> {
    await published(admin, id);
    const [totals] = await db.query<{ added: number; connected: number; running: number; people: number }>(
      `select count(*)::int as added,
              count(*) filter (where f.bot_id is not null)::int as connected,
              count(*) filter (where f.state = 'running')::int as running,
              coalesce(sum((select count(*) from people p where p.funnel_id = f.id)), 0)::int as people
         from funnels f join template_versions v on v.id = f.template_version_id
        where v.template_id = $1`,
      [id],
    );
    const days = await db.query<{ date: string; added: number; people: number }>(
      `with days as (select generate_series(current_date - ($2::int - 1), current_date, interval '1 day')::date as day),
            made as (select f.id, f.created_at from funnels f join template_versions v on v.id = f.template_version_id where v.template_id = $1)
       select to_char(d.day, 'YYYY-MM-DD') as date,
              (select count(*) from made m where m.created_at::date = d.day)::int as added,
              (select count(*) from people p join made m on m.id = p.funnel_id where p.joined_at::date = d.day)::int as people
         from days d order by d.day`,
      [id, TEMPLATE_STATS_DAYS],
    );
    return { ...totals, days };
  }

  /** 404 unless the admin published this template (before an upload's body is read). */
  async function requirePublisher(admin: UserRow, id: number): Promise<void> {
    await published(admin, id);
  }

  return { requirePublisher, list, get, card, create, publishVersion, update, setCover, cover, mediaFile, add, funnelTemplate, applyUpdate, stats };
}

export type TemplateService = ReturnType<typeof createTemplateService>;
