// npm run bench:timers — BENCH_TIMERS people (default 100,000) wait in a stage whose wait fell due
// within the same minute; two timer schedulers (as two processes would) fire them side by side,
// batch by batch (outbox/timer-scheduler.ts). Prints how fast they fired and checks that none
// fired twice: one 'timer' move, one fired timer and one outbox row (the next stage's reply,
// for the bot runtime) per person. Embedded PGlite unless BENCH_DATABASE_URL (or DATABASE_URL)
// names a PostgreSQL server. Goal: at least 2,000 timers a second.
import { TimerScheduler } from '../../server/outbox/timer-scheduler';
import { createFunnel, createOwner } from '../../server/test/funnel-runtime';
import { benchDb } from './db';

if (process.env.BENCH_DATABASE_URL) process.env.DATABASE_URL = process.env.BENCH_DATABASE_URL;
const TIMERS = Number(process.env.BENCH_TIMERS ?? 100_000);
const GOAL_PER_S = 2_000;

async function main(): Promise<void> {
  const { db, label, cleanup } = await benchDb('timers');
  try {
    const ownerId = await createOwner(db);
    const { funnel, stageIds } = await createFunnel(db, {
      ownerId,
      token: '900002:bench-timers',
      username: 'bench_timers_bot',
      state: 'running',
      stageSpecs: [
        { title: 'Welcome', text: 'Welcome', next: null, wait: { amount: 1, unit: 'minutes', to: 1 } },
        { title: 'Later', text: 'Still there, {first_name|friend}?', next: 'Yes', tag: 'Waited' },
      ],
    });
    const [welcome] = stageIds;
    const seeding = performance.now();
    await db.query(
      `insert into people (funnel_id, telegram_id, first_name, stage_id) select $1, 7000000 + i, 'P' || i, $2 from generate_series(1, $3) i`,
      [funnel.id, welcome, TIMERS],
    );
    // Placed in Welcome: the stage_moves trigger makes each person's timer (in batches, as /start's would).
    const placing = performance.now();
    for (let from = 0; from < TIMERS; from += 10_000) {
      await db.query(
        `insert into stage_moves (funnel_id, person_id, to_stage_id, via)
         select funnel_id, id, stage_id, 'start' from people where funnel_id = $1 order by id offset $2 limit 10000`,
        [funnel.id, from],
      );
    }
    const placed = performance.now() - placing;
    // All due within the same minute, a minute ago.
    await db.query(`update person_timers set due_at = now() - interval '1 minute' + (id % 60) * interval '1 second' where funnel_id = $1`, [funnel.id]);
    await db.query('analyze person_timers');
    console.log(`${label}: ${TIMERS.toLocaleString('en')} timers made in ${((performance.now() - seeding) / 1000).toFixed(1)} s (the trigger: ${((TIMERS / placed) * 1000).toFixed(0)} moves/s)`);

    const batches: number[] = [];
    const fire = async (scheduler: TimerScheduler) => {
      for (;;) {
        const started = performance.now();
        const { fired, skipped } = await scheduler.fireBatch();
        if (fired + skipped === 0) return;
        batches.push(performance.now() - started);
      }
    };
    const firing = performance.now();
    await Promise.all([fire(new TimerScheduler(db)), fire(new TimerScheduler(db))]);
    const seconds = (performance.now() - firing) / 1000;

    const [counts] = await db.query<{ fired: number; waiting: number; moves: number; moved_twice: number; rows: number; people: number; in_later: number }>(
      `select (select count(*) from person_timers where funnel_id = $1 and state = 'fired')::int as fired,
              (select count(*) from person_timers where funnel_id = $1 and state = 'waiting')::int as waiting,
              (select count(*) from stage_moves where funnel_id = $1 and via = 'timer')::int as moves,
              (select count(*) from (select person_id from stage_moves where funnel_id = $1 and via = 'timer' group by 1 having count(*) > 1) x)::int as moved_twice,
              (select count(*) from outbox where funnel_id = $1 and stage_id is not null and reply)::int as rows,
              (select count(distinct person_id) from outbox where funnel_id = $1 and stage_id is not null and reply)::int as people,
              (select count(*) from people where funnel_id = $1 and stage_id = $2)::int as in_later`,
      [funnel.id, stageIds[1]],
    );
    batches.sort((a, b) => a - b);
    const rate = TIMERS / seconds;
    console.log(
      `fired ${counts.fired.toLocaleString('en')} in ${seconds.toFixed(1)} s: ${rate.toFixed(0)} timers/s (goal ≥ ${GOAL_PER_S}); ` +
        `${batches.length} batches, p50 ${batches[Math.floor(batches.length / 2)]?.toFixed(0)} ms, max ${batches.at(-1)?.toFixed(0)} ms`,
    );
    console.log(
      `none twice: ${counts.moves.toLocaleString('en')} 'timer' moves (${counts.moved_twice} people twice), ${counts.rows.toLocaleString('en')} outbox rows for ` +
        `${counts.people.toLocaleString('en')} people, ${counts.in_later.toLocaleString('en')} in the next stage, ${counts.waiting} still waiting`,
    );
    const ok = counts.fired === TIMERS && counts.moves === TIMERS && counts.moved_twice === 0 && counts.rows === TIMERS && counts.people === TIMERS && counts.waiting === 0;
    if (!ok) throw new Error('a timer fired twice or not at all');
    if (rate < GOAL_PER_S) console.log(`below the goal of ${GOAL_PER_S}/s`);
  } finally {
    await cleanup();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
