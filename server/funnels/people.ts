// Tags of a funnel and its people (the Telegram users who pressed /start), with their tags and
// history. The bot runtime writes people and events; the owner reads them and tags by hand.
import { and, asc, desc, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import {
  NO_STAGE,
  PALETTE,
  PEOPLE_PAGE_DEFAULT,
  PEOPLE_SEARCH_MAX,
  PEOPLE_PAGE_MAX,
  PERSON_HISTORY_LIMIT,
  TAGS_MAX,
  type PeoplePage,
  type PersonListItem,
  type ContactHistoryEntry,
  type HistoryEntry,
  type Person,
  type PersonDetail,
  type Tag,
  type TagBody,
} from '../../contract/funnels';
import { NO_SOURCE } from '../../contract/sources';
import type { Db } from '../db';
import { isUniqueViolation } from '../db/errors';
import { isoTime } from '../db/raw';
import { paymentsOfPerson } from './payments';
import { people, personEvents, personTags, personTimers, stageMoves, stageReaches, stages, tags, type PersonRow, type TagRow } from '../db/schema';
import { ownedFunnel, ownedPerson, ownedTag, ownersRow } from './access';
import { COMMON_ERRORS, invalid, invalidField, notFound } from '../domain-error';
import { FUNNEL_ERRORS } from './errors';
import { personFieldValues } from './field-values';
import { idleFunnelRuntime, type FunnelRuntimePort } from './runtime-port';

export { PERSON_HISTORY_LIMIT } from '../../contract/funnels';

export interface PeopleServiceDeps {
  db: Db;
  now: () => Date;
  /** Told when removing a tag takes it off a funnel's stages (a no-op when omitted). */
  runtime?: Pick<FunnelRuntimePort, 'stagesChanged'>;
}

// Plain SQL: Drizzle may print a column without its table inside a subquery.
const tagPeopleCount = sql<number>`(select count(*)::int from person_tags pt where pt.tag_id = "tags"."id")`;

const toTag = (row: TagRow, peopleCount: number): Tag => ({
  id: row.id,
  funnel_id: row.funnelId,
  title: row.title,
  color: row.color,
  people_count: Number(peopleCount),
});

export function toPerson(row: PersonRow, tagIds: number[]): Person {
  return {
    id: row.id,
    funnel_id: row.funnelId,
    telegram_id: row.telegramId,
    first_name: row.firstName,
    last_name: row.lastName,
    username: row.username,
    stage_id: row.stageId,
    source_id: row.sourceId,
    tag_ids: tagIds,
    blocked: row.blocked,
    joined_at: row.joinedAt.toISOString(),
    last_seen_at: row.lastSeenAt.toISOString(),
  };
}

export function createPeopleService({ db, runtime = idleFunnelRuntime }: PeopleServiceDeps) {
  const orm = db.orm;

  // --- tags ------------------------------------------------------------------------------------
  async function listTags(ownerId: number, funnelId: number): Promise<Tag[]> {
    await ownedFunnel(orm, ownerId, funnelId);
    const rows = await orm.select({ tag: tags, count: tagPeopleCount }).from(tags).where(eq(tags.funnelId, funnelId)).orderBy(asc(tags.title), asc(tags.id));
    return rows.map((r) => toTag(r.tag, r.count));
  }

  async function getTag(ownerId: number, tagId: number): Promise<Tag> {
    await ownedTag(orm, ownerId, tagId);
    const [row] = await orm.select({ tag: tags, count: tagPeopleCount }).from(tags).where(eq(tags.id, tagId));
    return toTag(row.tag, row.count);
  }

  function cleanTitle(title: string): string {
    const clean = title.trim();
    if (!clean) throw invalidField('title', COMMON_ERRORS.blank);
    return clean;
  }

  async function titleTaken(funnelId: number, title: string, exceptId?: number): Promise<boolean> {
    const rows = await orm
      .select({ id: tags.id })
      .from(tags)
      .where(and(eq(tags.funnelId, funnelId), sql`lower(${tags.title}) = lower(${title})`));
    return rows.some((r) => r.id !== exceptId);
  }

  async function createTag(ownerId: number, funnelId: number, body: TagBody): Promise<Tag> {
    await ownedFunnel(orm, ownerId, funnelId);
    const title = cleanTitle(body.title);
    if (await titleTaken(funnelId, title)) throw invalidField('title', FUNNEL_ERRORS.tagTitleTaken);
    const [{ count }] = await orm.select({ count: sql<number>`count(*)::int` }).from(tags).where(eq(tags.funnelId, funnelId));
    if (Number(count) >= TAGS_MAX) throw invalid(FUNNEL_ERRORS.tooManyTags);
    try {
      const [row] = await orm.insert(tags).values({ funnelId, title, color: body.color ?? PALETTE[0] }).returning();
      return toTag(row, 0);
    } catch (error) {
      if (isUniqueViolation(error)) throw invalidField('title', FUNNEL_ERRORS.tagTitleTaken);
      throw error;
    }
  }

  async function updateTag(ownerId: number, tagId: number, body: Partial<TagBody>): Promise<Tag> {
    const tag = await ownedTag(orm, ownerId, tagId);
    const changes: Partial<TagRow> = {};
    if (body.title !== undefined) {
      changes.title = cleanTitle(body.title);
      if (await titleTaken(tag.funnelId, changes.title, tagId)) throw invalidField('title', FUNNEL_ERRORS.tagTitleTaken);
    }
    if (body.color !== undefined) changes.color = body.color;
    if (Object.keys(changes).length > 0) {
      try {
        await orm.update(tags).set(changes).where(ownersRow(orm, ownerId, tags, tagId));
      } catch (error) {
        if (isUniqueViolation(error)) throw invalidField('title', FUNNEL_ERRORS.tagTitleTaken);
        throw error;
      }
    }
    return getTag(ownerId, tagId);
  }

  /** Removes the tag from everyone and from the stages that set it. */
  async function removeTag(ownerId: number, tagId: number): Promise<void> {
    const tag = await ownedTag(orm, ownerId, tagId);
    await orm.delete(tags).where(ownersRow(orm, ownerId, tags, tagId));
    // A stage that gave this tag gives none now (stages.tag_id is set null).
    runtime.stagesChanged(tag.funnelId);
  }

  // --- people ----------------------------------------------------------------------------------
  async function tagIdsOf(personIds: number[]): Promise<Map<number, number[]>> {
    const map = new Map<number, number[]>(personIds.map((id) => [id, []]));
    if (personIds.length === 0) return map;
    const rows = await orm
      .select({ personId: personTags.personId, tagId: personTags.tagId })
      .from(personTags)
      .where(inArray(personTags.personId, personIds))
      .orderBy(asc(personTags.tagId));
    for (const row of rows) map.get(row.personId)?.push(row.tagId);
    return map;
  }

  /**
   * Newest first; filtered by stage (or `none`: people whose stage was deleted), tag, and a
   * search in the name and username (any case, any alphabet the database's locale knows).
   */
  async function listPeople(
    ownerId: number,
    funnelId: number,
    query: {
      stage?: number | typeof NO_STAGE;
      tag?: number;
      source?: number | typeof NO_SOURCE;
      field?: number;
      field_value?: string;
      search?: string;
      limit?: number;
      offset?: number;
    },
  ): Promise<PeoplePage> {
    await ownedFunnel(orm, ownerId, funnelId);
    const conditions: SQL[] = [eq(people.funnelId, funnelId)];
    if (query.field_value !== undefined && query.field === undefined) throw invalidField('field', FUNNEL_ERRORS.fieldRequiredForValue);
    if (query.field !== undefined) {
      // A field of another funnel (the user's or not) is missing here, as a tag of another is in a mailing's audience.
      const [own] = await db.query('select 1 from funnel_fields where id = $1 and funnel_id = $2', [query.field, funnelId]);
      if (!own) throw invalidField('field', COMMON_ERRORS.doesNotExist(query.field));
      const value = query.field_value?.trim();
      conditions.push(
        value
          ? sql`exists (select 1 from person_fields pf where pf.person_id = "people"."id" and pf.field_id = ${query.field} and lower(pf.value) = lower(${value}))`
          : sql`exists (select 1 from person_fields pf where pf.person_id = "people"."id" and pf.field_id = ${query.field})`,
      );
    }
    if (query.stage === NO_STAGE) conditions.push(isNull(people.stageId));
    else if (query.stage !== undefined) conditions.push(eq(people.stageId, query.stage));
    if (query.source === NO_SOURCE) conditions.push(isNull(people.sourceId));
    else if (query.source !== undefined) conditions.push(eq(people.sourceId, query.source));
    const search = query.search?.trim().replace(/^@/, '').slice(0, PEOPLE_SEARCH_MAX);
    if (search) {
      // LIKE's own characters are taken literally.
      const pattern = `%${search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      conditions.push(
        sql`(lower(${people.firstName} || ' ' || ${people.lastName}) like ${pattern} or lower(coalesce(${people.username}, '')) like ${pattern})`,
      );
    }
    if (query.tag !== undefined) {
      conditions.push(sql`exists (select 1 from person_tags pt where pt.person_id = "people"."id" and pt.tag_id = ${query.tag})`);
    }
    const where = and(...conditions);
    const [{ count }] = await orm.select({ count: sql<number>`count(*)::int` }).from(people).where(where);
    const rows = await orm
      .select()
      .from(people)
      .where(where)
      .orderBy(desc(people.joinedAt), desc(people.id))
      .limit(Math.min(query.limit ?? PEOPLE_PAGE_DEFAULT, PEOPLE_PAGE_MAX))
      .offset(query.offset ?? 0);
    const tagIds = await tagIdsOf(rows.map((r) => r.id));
    const valuesOf = await fieldValuesOf(rows.map((r) => r.id));
    return {
      count: Number(count),
      results: rows.map((r): PersonListItem => ({ ...toPerson(r, tagIds.get(r.id) ?? []), field_values: valuesOf.get(r.id) ?? [] })),
    };
  }

  /** The field values of `personIds`, each person's in the funnel's order of fields (their ids). */
  async function fieldValuesOf(personIds: number[]): Promise<Map<number, PersonListItem['field_values']>> {
    const map = new Map<number, PersonListItem['field_values']>();
    if (personIds.length === 0) return map;
    const rows = await db.query<{ person_id: number; field_id: number; value: string }>(
      'select person_id, field_id, value from person_fields where person_id = any($1::int[]) order by field_id',
      [personIds],
    );
    for (const row of rows) map.set(row.person_id, [...(map.get(row.person_id) ?? []), { field_id: row.field_id, value: row.value }]);
    return map;
  }

  async function getPerson(ownerId: number, personId: number): Promise<PersonDetail> {
    const person = await ownedPerson(orm, ownerId, personId);
    const tagIds = await tagIdsOf([person.id]);
    const events = await orm
      .select()
      .from(personEvents)
      .where(eq(personEvents.personId, personId))
      .orderBy(desc(personEvents.createdAt), desc(personEvents.id))
      .limit(PERSON_HISTORY_LIMIT);
    const history: HistoryEntry[] = events.map((e) => ({
      id: e.id,
      direction: e.direction,
      kind: e.kind,
      text: e.text,
      stage_id: e.stageId,
      created_at: e.createdAt.toISOString(),
    }));
    const others = await db.query<{
      person_id: number;
      funnel_id: number;
      funnel_name: string;
      bot_username: string | null;
      stage_title: string | null;
      tags: string[] | null;
      series: string[] | null;
      blocked: boolean;
      joined_at: Date | string;
    }>(
      `select p.id as person_id, f.id as funnel_id, f.name as funnel_name, f.bot_username, s.title as stage_title, p.blocked, p.joined_at,
              (select array_agg(t.title order by t.title) from person_tags pt join tags t on t.id = pt.tag_id where pt.person_id = p.id) as tags,
              (select array_agg(ls.name order by ls.name) from series_members sm join letter_series ls on ls.id = sm.series_id
                where sm.person_id = p.id and sm.left_at is null) as series
         from people p join funnels f on f.id = p.funnel_id left join stages s on s.id = p.stage_id
        where p.telegram_id = $1 and f.owner_id = $2 and p.id <> $3
        order by p.joined_at, p.id`,
      [person.telegramId, ownerId, person.id],
    );
    const other_funnels = others.map((o) => ({
      ...o,
      tags: o.tags ?? [],
      series: o.series ?? [],
      joined_at: isoTime(o.joined_at),
    }));
    const [source] =
      person.sourceId === null ? [] : await db.query<{ id: number; name: string; code: string }>('select id, name, code from funnel_sources where id = $1', [person.sourceId]);
    const timers = (
      await orm
        .select()
        .from(personTimers)
        .where(and(eq(personTimers.personId, person.id), eq(personTimers.state, 'waiting')))
        .orderBy(asc(personTimers.dueAt))
    ).map((t) => ({ id: t.id, stage_id: t.stageId, to_stage_id: t.toStageId, due_at: t.dueAt.toISOString(), only_if_silent: t.onlyIfSilent }));
    const payments = await paymentsOfPerson(db, person.id);
    const fields = await personFieldValues(db, person.id);
    return { ...toPerson(person, tagIds.get(person.id) ?? []), source: source ?? null, history, fields, other_funnels, timers, payments };
  }

  /** One contact's history across the owner's bots (the same Telegram user in each), newest first. */
  async function contactHistory(ownerId: number, personId: number): Promise<ContactHistoryEntry[]> {
    const person = await ownedPerson(orm, ownerId, personId);
    const rows = await db.query<{ id: number; direction: 'in' | 'out'; kind: HistoryEntry['kind']; text: string; stage_id: number | null; created_at: Date | string; funnel_id: number; funnel_name: string; stage_title: string | null }>(
      `select e.id, e.direction, e.kind, e.text, e.stage_id, e.created_at, f.id as funnel_id, f.name as funnel_name, s.title as stage_title
         from people p join funnels f on f.id = p.funnel_id join person_events e on e.person_id = p.id left join stages s on s.id = e.stage_id
        where p.telegram_id = $1 and f.owner_id = $2
        order by e.created_at desc, e.id desc limit $3`,
      [person.telegramId, ownerId, PERSON_HISTORY_LIMIT],
    );
    return rows.map((r) => ({ ...r, id: Number(r.id), created_at: isoTime(r.created_at) }));
  }

  /**
   * The owner moves a person to a stage of the same funnel by hand (a person whose stage was
   * deleted, say). They get the stage's tag and count as having reached it; nothing is sent.
   */
  async function movePerson(ownerId: number, personId: number, stageId: number): Promise<void> {
    const person = await ownedPerson(orm, ownerId, personId);
    const [stage] = await orm
      .select({ id: stages.id, tagId: stages.tagId })
      .from(stages)
      .where(and(eq(stages.id, stageId), eq(stages.funnelId, person.funnelId)))
      .limit(1);
    if (!stage) throw invalidField('stage_id', COMMON_ERRORS.doesNotExist(stageId));
    await orm.transaction(async (tx) => {
      await tx.update(people).set({ stageId: stage.id }).where(ownersRow(tx, ownerId, people, personId));
      // The results' "where people went next" counts moves by hand too.
      if (person.stageId !== stage.id) {
        await tx.insert(stageMoves).values({ funnelId: person.funnelId, personId, fromStageId: person.stageId, toStageId: stage.id, via: 'manual' });
      }
      await tx.insert(stageReaches).values({ personId, stageId: stage.id, funnelId: person.funnelId }).onConflictDoNothing();
      if (stage.tagId !== null) await tx.insert(personTags).values({ personId, tagId: stage.tagId, source: 'stage' }).onConflictDoNothing();
    });
  }

  /** Tags a person by hand; tagging twice is harmless. */
  async function addPersonTag(ownerId: number, personId: number, tagId: number): Promise<PersonDetail> {
    const person = await ownedPerson(orm, ownerId, personId);
    const [tag] = await orm.select({ id: tags.id }).from(tags).where(and(eq(tags.id, tagId), eq(tags.funnelId, person.funnelId))).limit(1);
    if (!tag) throw invalidField('tag_id', COMMON_ERRORS.doesNotExist(tagId));
    await orm.insert(personTags).values({ personId, tagId, source: 'manual' }).onConflictDoNothing();
    return getPerson(ownerId, personId);
  }

  async function removePersonTag(ownerId: number, personId: number, tagId: number): Promise<void> {
    await ownedPerson(orm, ownerId, personId);
    const removed = await orm
      .delete(personTags)
      .where(
        and(
          eq(personTags.personId, personId),
          eq(personTags.tagId, tagId),
          inArray(personTags.personId, orm.select({ id: people.id }).from(people).where(ownersRow(orm, ownerId, people, personId))),
        ),
      )
      .returning({ tagId: personTags.tagId });
    if (removed.length === 0) throw notFound();
  }

  return { listTags, getTag, createTag, updateTag, removeTag, listPeople, getPerson, contactHistory, movePerson, addPersonTag, removePersonTag };
}

export type PeopleService = ReturnType<typeof createPeopleService>;
