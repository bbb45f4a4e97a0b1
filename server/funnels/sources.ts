// Traffic sources of a funnel (issue 24): named start links whose /start payload, src_<code>,
// records a person's first source (the bot runtime writes people.source_id, in the /start's own
// statement). The owner lists, creates, renames, archives and deletes them, and reads the
// results by source. Every write names the owner in its own WHERE: another user's funnel or
// source is "not found" and no statement touches it.
import { randomBytes } from 'node:crypto';
import type { StatsPeriod } from '../../contract/funnels';
import {
  SOURCE_CODE_LENGTH,
  SOURCES_MAX,
  sourceLink,
  type FunnelSource,
  type SourceBody,
  type SourcePatch,
  type SourceStats,
  type SourceStatsRow,
} from '../../contract/sources';
import type { Db } from '../db';
import { isUniqueViolation } from '../db/errors';
import { isoTime } from '../db/raw';
import { COMMON_ERRORS, invalid, invalidField, notFound } from '../domain-error';
import { FUNNEL_ERRORS } from './errors';
import { periodStart } from './stats';

export interface SourcesServiceDeps {
  db: Db;
  now: () => Date;
}

interface SourceRow {
  id: number;
  funnel_id: number;
  name: string;
  code: string;
  archived_at: Date | string | null;
  created_at: Date | string;
  bot_username: string | null;
  people_count: number | string;
}

/** A fresh code: url-safe, unguessable enough that links cannot be walked. */
export function newSourceCode(): string {
  return randomBytes(SOURCE_CODE_LENGTH).toString('base64url').slice(0, SOURCE_CODE_LENGTH);
}

const toSource = (r: SourceRow): FunnelSource => ({
  id: r.id,
  funnel_id: r.funnel_id,
  name: r.name,
  code: r.code,
  link: sourceLink(r.bot_username, r.code),
  people_count: Number(r.people_count),
  archived: r.archived_at !== null,
  created_at: isoTime(r.created_at),
});

/** Sources with their funnel's bot (for the link) and people, of the owner ($1) only. */
const SELECT_SOURCES = `select s.id, s.funnel_id, s.name, s.code, s.archived_at, s.created_at, f.bot_username,
       (select count(*)::int from people p where p.source_id = s.id) as people_count
  from funnel_sources s join funnels f on f.id = s.funnel_id
 where f.owner_id = $1`;

export function createSourcesService({ db, now }: SourcesServiceDeps) {
  async function requireFunnel(ownerId: number, funnelId: number): Promise<{ bot_username: string | null }> {
    const [funnel] = await db.query<{ bot_username: string | null }>('select bot_username from funnels where id = $1 and owner_id = $2', [funnelId, ownerId]);
    if (!funnel) throw notFound();
    return funnel;
  }

  async function list(ownerId: number, funnelId: number): Promise<FunnelSource[]> {
    await requireFunnel(ownerId, funnelId);
    const rows = await db.query<SourceRow>(`${SELECT_SOURCES} and s.funnel_id = $2 order by s.archived_at is not null, s.created_at, s.id`, [ownerId, funnelId]);
    return rows.map(toSource);
  }

  async function get(ownerId: number, funnelId: number, sourceId: number): Promise<FunnelSource> {
    const [row] = await db.query<SourceRow>(`${SELECT_SOURCES} and s.funnel_id = $2 and s.id = $3`, [ownerId, funnelId, sourceId]);
    if (!row) throw notFound();
    return toSource(row);
  }

  function cleanName(name: string): string {
    const clean = name.trim();
    if (!clean) throw invalidField('name', COMMON_ERRORS.blank);
    return clean;
  }

  async function create(ownerId: number, funnelId: number, body: SourceBody): Promise<FunnelSource> {
    await requireFunnel(ownerId, funnelId);
    const name = cleanName(body.name);
    const [{ count }] = await db.query<{ count: number }>('select count(*)::int as count from funnel_sources where funnel_id = $1', [funnelId]);
    if (Number(count) >= SOURCES_MAX) throw invalid(FUNNEL_ERRORS.tooManySources);
    // A code taken in this funnel already (a one-in-2^60 chance) is drawn again.
    for (let attempt = 0; ; attempt++) {
      try {
        const [row] = await db.query<{ id: number }>(
          `insert into funnel_sources (funnel_id, name, code)
           select f.id, $2, $3 from funnels f where f.id = $1 and f.owner_id = $4 returning id`,
          [funnelId, name, newSourceCode(), ownerId],
        );
        if (!row) throw notFound(); // the funnel went meanwhile
        return await get(ownerId, funnelId, row.id);
      } catch (error) {
        if (!isUniqueViolation(error) || attempt >= 3) throw error;
      }
    }
  }

  async function update(ownerId: number, funnelId: number, sourceId: number, patch: SourcePatch): Promise<FunnelSource> {
    const name = patch.name === undefined ? null : cleanName(patch.name);
    const archived = patch.archived ?? null;
    const updated = await db.query<{ id: number }>(
      `update funnel_sources s set
         name = coalesce($4, s.name),
         archived_at = case when $5::boolean is null then s.archived_at when $5 then coalesce(s.archived_at, now()) else null end
        where s.id = $3 and s.funnel_id = $2 and s.funnel_id in (select f.id from funnels f where f.owner_id = $1)
       returning s.id`,
      [ownerId, funnelId, sourceId, name, archived],
    );
    if (updated.length === 0) throw notFound();
    return get(ownerId, funnelId, sourceId);
  }

  /** Deletes the source; its people keep everything else and count as "no source" from now on. */
  async function remove(ownerId: number, funnelId: number, sourceId: number): Promise<void> {
    const deleted = await db.query<{ id: number }>(
      `delete from funnel_sources s where s.id = $3 and s.funnel_id = $2 and s.funnel_id in (select f.id from funnels f where f.owner_id = $1) returning s.id`,
      [ownerId, funnelId, sourceId],
    );
    if (deleted.length === 0) throw notFound();
  }

  /**
   * Per source (and "no source"): the people who joined in the period by it, and how many of
   * them reached each stage (ever: a cohort, so a later stage is never counted for people who
   * joined before the period), and what they paid (payments not refunded: how many, and Stars).
   */
  async function stats(ownerId: number, funnelId: number, period: StatsPeriod, timeZone: string): Promise<SourceStats> {
    const funnel = await requireFunnel(ownerId, funnelId);
    const since = periodStart(period, now(), timeZone);
    const [sources, stageRows, joined, reached, sold] = await Promise.all([
      db.query<{ id: number; name: string; code: string; archived_at: Date | string | null }>(
        'select id, name, code, archived_at from funnel_sources where funnel_id = $1 order by created_at, id',
        [funnelId],
      ),
      db.query<{ id: number }>('select id from stages where funnel_id = $1 order by position, id', [funnelId]),
      db.query<{ source_id: number | null; count: number }>(
        `select p.source_id, count(*)::int as count from people p
          where p.funnel_id = $1 and ($2::timestamptz is null or p.joined_at >= $2) group by p.source_id`,
        [funnelId, since],
      ),
      db.query<{ source_id: number | null; stage_id: number; count: number }>(
        `select p.source_id, r.stage_id, count(*)::int as count from people p join stage_reaches r on r.person_id = p.id
          where p.funnel_id = $1 and ($2::timestamptz is null or p.joined_at >= $2) group by p.source_id, r.stage_id`,
        [funnelId, since],
      ),
      db.query<{ source_id: number | null; paid: number; revenue: string | number }>(
        `select p.source_id, count(*)::int as paid, sum(fp.amount)::bigint as revenue from people p join funnel_payments fp on fp.person_id = p.id
          where p.funnel_id = $1 and fp.state = 'paid' and ($2::timestamptz is null or p.joined_at >= $2) group by p.source_id`,
        [funnelId, since],
      ),
    ]);
    const key = (sourceId: number | null) => sourceId ?? 0;
    const soldBy = new Map(sold.map((r) => [key(r.source_id), { paid: r.paid, revenue: Number(r.revenue) }]));
    const joinedBy = new Map(joined.map((r) => [key(r.source_id), Number(r.count)]));
    const reachedBy = new Map(reached.map((r) => [`${key(r.source_id)}:${r.stage_id}`, Number(r.count)]));
    const row = (id: number | null, name: string, code: string | null, archived: boolean): SourceStatsRow => ({
      id,
      name,
      code,
      link: code === null ? null : sourceLink(funnel.bot_username, code),
      archived,
      people: joinedBy.get(key(id)) ?? 0,
      reached: stageRows.map((s) => ({ stage_id: s.id, count: reachedBy.get(`${key(id)}:${s.id}`) ?? 0 })),
      paid: soldBy.get(key(id))?.paid ?? 0,
      revenue: soldBy.get(key(id))?.revenue ?? 0,
    });
    return {
      period,
      since: since?.toISOString() ?? null,
      sources: [...sources.map((s) => row(s.id, s.name, s.code, s.archived_at !== null)), row(null, '', null, false)],
    };
  }

  return { list, get, create, update, remove, stats };
}

export type SourcesService = ReturnType<typeof createSourcesService>;
