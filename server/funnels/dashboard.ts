// The dashboard: for each of the owner's funnels (not archived), people per stage and what
// happened today: new people, messages sent, stage moves. "Today" starts at midnight in the
// owner's time zone (the app sends its own, an IANA name), or UTC when none is given.
import { and, asc, desc, eq, gte, inArray, isNull, sql } from 'drizzle-orm';
import type { DashboardFunnel, StageIcon, StatsPeriod } from '../../contract/funnels';
import type { Db } from '../db';
import { funnels, people, personEvents, stages } from '../db/schema';
import { revenueOf } from './payments';
import { periodStart, stageStatsOf } from './stats';
import { startOfDayIn } from './time-zone';

export function createDashboardService({ db, now }: { db: Db; now: () => Date }) {
  const orm = db.orm;

  async function dashboard(ownerId: number, timeZone = 'UTC', period: StatsPeriod = 'all'): Promise<DashboardFunnel[]> {
    const rows = await orm
      .select()
      .from(funnels)
      .where(and(eq(funnels.ownerId, ownerId), isNull(funnels.archivedAt)))
      .orderBy(desc(funnels.createdAt), desc(funnels.id));
    if (rows.length === 0) return [];
    const ids = rows.map((f) => f.id);
    const since = startOfDayIn(now(), timeZone);
    const periodSince = periodStart(period, now(), timeZone);
    const [stats, revenue] = await Promise.all([stageStatsOf(db, ids, periodSince), revenueOf(db, ids, periodSince)]);

    const stageRows = await orm
      .select({
        id: stages.id,
        funnelId: stages.funnelId,
        title: stages.title,
        color: stages.color,
        icon: stages.icon,
        people: sql<number>`(select count(*)::int from people p where p.stage_id = "stages"."id")`,
      })
      .from(stages)
      .where(inArray(stages.funnelId, ids))
      .orderBy(asc(stages.position), asc(stages.id));
    const peopleRows = await orm
      .select({
        funnelId: people.funnelId,
        total: sql<number>`count(*)::int`,
        today: sql<number>`(count(*) filter (where ${people.joinedAt} >= ${since.toISOString()}))::int`,
      })
      .from(people)
      .where(inArray(people.funnelId, ids))
      .groupBy(people.funnelId);
    const eventRows = await orm
      .select({
        funnelId: personEvents.funnelId,
        sent: sql<number>`(count(*) filter (where ${personEvents.direction} = 'out'))::int`,
        moves: sql<number>`(count(*) filter (where ${personEvents.kind} = 'stage_message'))::int`,
      })
      .from(personEvents)
      .where(and(inArray(personEvents.funnelId, ids), gte(personEvents.createdAt, since)))
      .groupBy(personEvents.funnelId);

    const peopleBy = new Map(peopleRows.map((r) => [r.funnelId, r]));
    const eventsBy = new Map(eventRows.map((r) => [r.funnelId, r]));
    return rows.map((f) => ({
      id: f.id,
      name: f.name,
      bot_username: f.botUsername,
      state: f.state,
      stop_reason: f.stopReason ?? null,
      stages: stageRows
        .filter((s) => s.funnelId === f.id)
        .map((s) => {
          const figures = stats.get(f.id)?.find((x) => x.stage_id === s.id);
          const sold = revenue.get(f.id)?.stages.get(s.id);
          return {
            id: s.id,
            title: s.title,
            color: s.color,
            icon: s.icon as StageIcon,
            people_count: Number(s.people),
            reached: figures?.reached ?? 0,
            moved_on: figures?.moved_on ?? 0,
            paid: sold?.paid ?? 0,
            revenue: sold?.revenue ?? 0,
          };
        }),
      people_count: Number(peopleBy.get(f.id)?.total ?? 0),
      today: {
        new_people: Number(peopleBy.get(f.id)?.today ?? 0),
        messages_sent: Number(eventsBy.get(f.id)?.sent ?? 0),
        stage_moves: Number(eventsBy.get(f.id)?.moves ?? 0),
      },
      paid: revenue.get(f.id)?.paid ?? 0,
      revenue: revenue.get(f.id)?.revenue ?? 0,
    }));
  }

  return { dashboard };
}
