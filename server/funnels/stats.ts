// The results of a funnel per stage: how many people are in each stage now, how many reached it
// in a period (stage_reaches keeps the first time each person reached each stage, so moving on,
// a second /start or a move by hand never takes a reach away), how many moved on from it in the
// period (left it for another stage by any way: stage_moves), and where those went. "Went on to
// the next stage" is not told: with choice buttons and keywords a person moves on to any stage,
// and the next one in the list may not be where anyone goes. Both figures count people, each
// once, from the same rows: the destinations add up to "moved on" unless someone left twice.
// Periods are calendar days in the owner's time zone: "today" from midnight,
// "7d" and "30d" from midnight 6 and 29 days before, "all" from the beginning.
import { and, asc, desc, eq, gte, inArray, isNotNull, sql } from 'drizzle-orm';
import type { FunnelStats, StageMoveStats, StageStats, StatsPeriod } from '../../contract/funnels';
import type { Db } from '../db';
import { people, stageMoves, stageReaches, stages } from '../db/schema';
import { ownedFunnel } from './access';
import { revenueOf } from './payments';
import { startOfDayIn } from './time-zone';

const PERIOD_DAYS: Record<Exclude<StatsPeriod, 'all'>, number> = { today: 0, '7d': 6, '30d': 29 };

/** When `period` began at `now` in `timeZone` (null for all time). */
export function periodStart(period: StatsPeriod, now: Date, timeZone: string): Date | null {
  if (period === 'all') return null;
  // Noon of the first day, then its midnight: a clock change on the way can't shift the date.
  const midnight = startOfDayIn(now, timeZone);
  const firstDayNoon = new Date(midnight.getTime() + 12 * 3_600_000 - PERIOD_DAYS[period] * 86_400_000);
  return startOfDayIn(firstDayNoon, timeZone);
}

/** Moves that took a person out of a stage (a button leading back to the same stage is no move on), since `since`. */
function movesOnSince(funnelIds: number[], since: Date | null) {
  return and(
    inArray(stageMoves.funnelId, funnelIds),
    isNotNull(stageMoves.fromStageId),
    sql`${stageMoves.toStageId} is distinct from ${stageMoves.fromStageId}`,
    since ? gte(stageMoves.createdAt, since) : undefined,
  );
}

/** Per funnel, its stages in order with now/reached/moved on since `since` (null: all time). */
export async function stageStatsOf(db: Db, funnelIds: number[], since: Date | null): Promise<Map<number, StageStats[]>> {
  const result = new Map<number, StageStats[]>(funnelIds.map((id) => [id, []]));
  if (funnelIds.length === 0) return result;
  const orm = db.orm;
  const [stageRows, nowRows, reachRows, movedOnRows, revenue] = await Promise.all([
    orm
      .select({ id: stages.id, funnelId: stages.funnelId })
      .from(stages)
      .where(inArray(stages.funnelId, funnelIds))
      .orderBy(asc(stages.position), asc(stages.id)),
    orm
      .select({ stageId: people.stageId, count: sql<number>`count(*)::int` })
      .from(people)
      .where(inArray(people.funnelId, funnelIds))
      .groupBy(people.stageId),
    orm
      .select({ stageId: stageReaches.stageId, count: sql<number>`count(*)::int` })
      .from(stageReaches)
      .where(since ? and(inArray(stageReaches.funnelId, funnelIds), gte(stageReaches.reachedAt, since)) : inArray(stageReaches.funnelId, funnelIds))
      .groupBy(stageReaches.stageId),
    orm
      .select({ stageId: stageMoves.fromStageId, count: sql<number>`count(distinct ${stageMoves.personId})::int` })
      .from(stageMoves)
      .where(movesOnSince(funnelIds, since))
      .groupBy(stageMoves.fromStageId),
    revenueOf(db, funnelIds, since),
  ]);
  const nowBy = new Map(nowRows.map((r) => [r.stageId, Number(r.count)]));
  const reachedBy = new Map(reachRows.map((r) => [r.stageId, Number(r.count)]));
  const movedOnBy = new Map(movedOnRows.map((r) => [r.stageId, Number(r.count)]));
  for (const funnelId of funnelIds) {
    result.set(
      funnelId,
      stageRows
        .filter((s) => s.funnelId === funnelId)
        .map((s) => {
          const sold = revenue.get(funnelId)?.stages.get(s.id);
          return { stage_id: s.id, now: nowBy.get(s.id) ?? 0, reached: reachedBy.get(s.id) ?? 0, moved_on: movedOnBy.get(s.id) ?? 0, paid: sold?.paid ?? 0, revenue: sold?.revenue ?? 0 };
        }),
    );
  }
  return result;
}

export function createStatsService({ db, now }: { db: Db; now: () => Date }) {
  async function funnelStats(ownerId: number, funnelId: number, period: StatsPeriod, timeZone: string): Promise<FunnelStats> {
    await ownedFunnel(db.orm, ownerId, funnelId);
    const since = periodStart(period, now(), timeZone);
    const [stats, [{ count }], moves, revenue] = await Promise.all([
      stageStatsOf(db, [funnelId], since),
      db.orm
        .select({ count: sql<number>`count(*)::int` })
        .from(people)
        .where(since ? and(eq(people.funnelId, funnelId), gte(people.joinedAt, since)) : eq(people.funnelId, funnelId)),
      movesOf(funnelId, since),
      revenueOf(db, [funnelId], since),
    ]);
    const sold = revenue.get(funnelId);
    return {
      period,
      since: since?.toISOString() ?? null,
      stages: stats.get(funnelId) ?? [],
      new_people: Number(count),
      moves,
      paid: sold?.paid ?? 0,
      revenue: sold?.revenue ?? 0,
    };
  }

  /** Where people went from each stage since `since`: per destination, and per button, keyword or next step; people, each once per row. */
  async function movesOf(funnelId: number, since: Date | null): Promise<StageMoveStats[]> {
    const rows = await db.orm
      .select({
        fromStageId: stageMoves.fromStageId,
        toStageId: stageMoves.toStageId,
        via: stageMoves.via,
        label: stageMoves.label,
        count: sql<number>`count(distinct ${stageMoves.personId})::int`,
      })
      .from(stageMoves)
      .where(movesOnSince([funnelId], since))
      .groupBy(stageMoves.fromStageId, stageMoves.toStageId, stageMoves.via, stageMoves.label)
      .orderBy(desc(sql`count(distinct ${stageMoves.personId})`), asc(stageMoves.label));
    return rows.map((r) => ({ from_stage_id: r.fromStageId!, to_stage_id: r.toStageId, via: r.via, label: r.label, count: Number(r.count) }));
  }
  return { funnelStats };
}
