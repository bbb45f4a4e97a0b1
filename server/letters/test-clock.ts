// Tests only (TEST_CLOCK=1, never in production: createServices makes it only then): "time
// passes" for one user's series of letters and stages' waits, by moving their schedule back
// instead of waiting — members' joining, the series' start, every waiting moment and every waiting
// timer of their funnels — so the engine then finds them due as it would have. One statement, so a look of the engine sees all of it moved or none.
import type { Db } from '../db';

/** The furthest one call moves the schedule (400 days). */
export const TEST_CLOCK_MAX_ADVANCE_S = 400 * 86_400;

const ADVANCE_OWNERS_SCHEDULE = `
  with mine as (select s.id from letter_series s join funnels f on f.id = s.funnel_id where f.owner_id = $1),
  series_moved as (update letter_series set enabled_at = enabled_at - make_interval(secs => $2) where id in (select id from mine)),
  members_moved as (update series_members set joined_at = joined_at - make_interval(secs => $2) where series_id in (select id from mine)),
  moments_moved as (
    update outbox set moment = moment - make_interval(secs => $2), anchor = anchor - make_interval(secs => $2), not_before = not_before - make_interval(secs => $2)
     where series_id in (select id from mine) and state = 'waiting'
  ),
  timers_moved as (
    update person_timers set due_at = due_at - make_interval(secs => $2)
     where state = 'waiting' and funnel_id in (select id from funnels where owner_id = $1)
  )
  select 1`;

export function createTestClock({ db }: { db: Db }) {
  return {
    /** Moves the owner's series of letters and waiting timers `seconds` into the past, as if that much time had passed. */
    async advance(ownerId: number, seconds: number): Promise<void> {
      await db.query(ADVANCE_OWNERS_SCHEDULE, [ownerId, seconds]);
    },
  };
}

export type TestClock = ReturnType<typeof createTestClock>;
