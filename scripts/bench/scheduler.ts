// npm run bench:scheduler — what the delivery engine costs when there is little to do but a lot
// stored: the passes it makes every second (joins and leaves of series), once a minute (the same
// look, an hour back) and every quarter second (due work, downtime rules, follow-ups of repeating
// letters), timed on a database holding BENCH_MEMBERS people (default 100,000) in three series of
// letters (joining on /start, on a stage and on a tag, each with a leaving rule), a tenth of them
// blocked, their next letters waiting a day ahead, and BENCH_SENT rows (default 1,000,000) of
// finished mailings in the outbox.
// Prints p50/p99 of each pass and the plan PostgreSQL picks (embedded PGlite unless DATABASE_URL).
// Goal: a pass costs what there is to do, not what is stored (a few ms at rest). BENCH_KEEP=1
// keeps the PostgreSQL database afterwards, to EXPLAIN the passes in.
import { LetterScheduler, WIDE_LOOK_MS } from '../../server/outbox/letter-scheduler';
import { createFunnel, createOwner } from '../../server/test/funnel-runtime';
import { benchDb } from './db';
import { spread } from './stats';

const MEMBERS = Number(process.env.BENCH_MEMBERS ?? 100_000);
const SENT = Number(process.env.BENCH_SENT ?? 1_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 30);

/** The engine's own look for bots with due work (outbox/engine.ts tick). */
const DUE_BOTS = `
  select funnel_id from mailings where state = 'sending'
  union select funnel_id from outbox where state in ('sending', 'unsend', 'deleting') and not reply
  union select distinct funnel_id from outbox where state = 'waiting' and letter_id is not null and not_before <= now()`;

async function main(): Promise<void> {
  const { db, label, cleanup } = await benchDb('scheduler');
  try {
    const started = performance.now();
    const ownerId = await createOwner(db);
    const { funnel, stageIds, tagIds } = await createFunnel(db, {
      ownerId,
      token: '900001:bench-scheduler',
      username: 'bench_scheduler_bot',
      state: 'running',
      stageSpecs: [{ text: 'Welcome' }, { text: 'Warm' }, { text: 'Paid' }, { text: 'Hot', tag: 'Hot' }, { text: 'Done', tag: 'Done' }],
    });
    const [welcome, warm, paid] = stageIds;
    const [hot, done] = [tagIds[3]!, tagIds[4]!];
    await db.query(
      `insert into people (funnel_id, telegram_id, first_name, joined_at, blocked)
       select $1, 5000000 + i, 'P' || i, now() - interval '2 days' + i * interval '1 ms', i % 10 = 0 from generate_series(1, $2) i`,
      [funnel.id, MEMBERS],
    );
    // Everyone reached the first stage, half the second, a twentieth 'Paid'; a third are tagged Hot, a twentieth Done.
    await db.query(`insert into stage_reaches (person_id, stage_id, funnel_id, reached_at) select id, $2, $1, joined_at from people where funnel_id = $1`, [funnel.id, welcome]);
    await db.query(`insert into stage_reaches (person_id, stage_id, funnel_id, reached_at) select id, $2, $1, joined_at + interval '1 hour' from people where funnel_id = $1 and id % 2 = 0`, [funnel.id, warm]);
    await db.query(`insert into stage_reaches (person_id, stage_id, funnel_id, reached_at) select id, $2, $1, joined_at + interval '2 hours' from people where funnel_id = $1 and id % 20 = 0`, [funnel.id, paid]);
    await db.query(`insert into person_tags (person_id, tag_id, added_at) select id, $2, joined_at + interval '1 hour' from people where funnel_id = $1 and id % 3 = 0`, [funnel.id, hot]);
    await db.query(`insert into person_tags (person_id, tag_id, added_at) select id, $2, joined_at + interval '3 hours' from people where funnel_id = $1 and id % 20 = 0`, [funnel.id, done]);
    const series = async (name: string, joinOn: object, leaveOn: object) => {
      const [row] = await db.query<{ id: number }>(
        `insert into letter_series (funnel_id, name, join_on, leave_on, enabled_at) values ($1, $2, $3, $4, now() - interval '3 days') returning id`,
        [funnel.id, name, JSON.stringify(joinOn), JSON.stringify(leaveOn)],
      );
      const [letter] = await db.query<{ id: number }>(
        `insert into letters (series_id, position, name, message, sending_time, enabled) values ($1, 0, 'Tip', $2, '{"kind":"every","every":1,"unit":"days","time_of_day":"10:00"}', true) returning id`,
        [row.id, JSON.stringify({ text: 'Tip of the day', media_id: null, buttons: [], next_button: null })],
      );
      return { seriesId: row.id, letterId: letter.id };
    };
    const onStart = await series('On start', { on: 'start', stage_id: null, tag_id: null }, { stage_id: paid, tag_id: null });
    const onStage = await series('On warm', { on: 'stage', stage_id: warm, tag_id: null }, { stage_id: paid, tag_id: null });
    const onTag = await series('On hot', { on: 'tag', stage_id: null, tag_id: hot }, { stage_id: null, tag_id: done });
    // Members as the scheduler made them (the ones with a reason to leave have left), with the next letter a day ahead.
    const members = async ({ seriesId, letterId }: { seriesId: number; letterId: number }, from: string, leftIf: string) => {
      await db.query(
        `insert into series_members (series_id, person_id, joined_at, how, left_at)
         select $1, x.person_id, x.at, 'start', case when ${leftIf} then x.at + interval '4 hours' end from (${from}) x`,
        [seriesId],
      );
      await db.query(
        `insert into outbox (funnel_id, person_id, letter_id, series_id, moment, anchor, occurrence, not_before, priority, followed, state)
         select $1, m.person_id, $2, $3, now() + interval '1 day', now(), 1, now() + interval '1 day', 5, false, 'waiting'
           from series_members m where m.series_id = $3 and m.left_at is null`,
        [funnel.id, letterId, seriesId],
      );
    };
    const blockedOrPaid = `exists (select 1 from people p where p.id = x.person_id and p.blocked) or x.person_id % 20 = 0`;
    await members(onStart, `select id as person_id, joined_at as at from people where funnel_id = ${funnel.id}`, blockedOrPaid);
    await members(onStage, `select person_id, reached_at as at from stage_reaches where stage_id = ${warm}`, blockedOrPaid);
    await members(onTag, `select person_id, added_at as at from person_tags where tag_id = ${hot}`, blockedOrPaid);
    // Finished mailings (one per MEMBERS rows): their rows stay, the history of each recipient.
    const [{ id: firstPerson }] = await db.query<{ id: number }>('select min(id)::int as id from people where funnel_id = $1', [funnel.id]);
    for (let sent = 0, k = 1; sent < SENT; sent += MEMBERS, k++) {
      const [mailing] = await db.query<{ id: number }>(
        `insert into mailings (funnel_id, title, message, audience, state, started_at, finished_at) values ($1, $2, $3, '{}', 'finished', now() - interval '1 day', now() - interval '1 day') returning id`,
        [funnel.id, `News ${k}`, JSON.stringify({ text: 'News', media_id: null, buttons: [], next_button: null })],
      );
      await db.query(
        `insert into outbox (funnel_id, person_id, mailing_id, state, sent_at, telegram_message_id, attempts, priority)
         select $1, $3 + i, $4, 'sent', now() - interval '1 day', i + 1, 1, 9 from generate_series(0, $2 - 1) i`,
        [funnel.id, Math.min(MEMBERS, SENT - sent), firstPerson, mailing.id],
      );
    }
    await db.query('analyze');
    const [{ n: active }] = await db.query<{ n: number }>('select count(*)::int as n from series_members where left_at is null');
    const [{ n: outboxRows }] = await db.query<{ n: number }>('select count(*)::int as n from outbox');
    console.log(`\nbench:scheduler on ${label}: ${MEMBERS} people, ${active} active members in 3 series, ${outboxRows} outbox rows (set up in ${((performance.now() - started) / 1000).toFixed(0)} s)`);

    const time = async (name: string, pass: () => Promise<unknown>) => {
      const took: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        const t0 = performance.now();
        await pass();
        took.push(performance.now() - t0);
      }
      const s = spread(took);
      console.log(`  ${name.padEnd(52)} p50 ${s.p50.toFixed(1)} ms, p99 ${s.p99.toFixed(1)} ms`);
    };
    await time('joins and leaves, whole (at start, a new series)', () => new LetterScheduler(db).memberships());
    let clock = 0;
    const looking = new LetterScheduler(db, () => clock);
    await looking.memberships();
    await time('joins and leaves since the last look (every second)', () => looking.memberships());
    await time('the same, an hour back (once a minute)', () => {
      clock += WIDE_LOOK_MS;
      return looking.memberships();
    });
    // A clock that stands still: the pass without its once-a-second look at joins and leaves.
    const passes = new LetterScheduler(db, () => 0);
    await time('follow-ups and downtime rules (every 250 ms)', () => passes.tick());
    await time('bots with due work (every 250 ms)', () => db.query(DUE_BOTS));
    const [{ n: after }] = await db.query<{ n: number }>('select count(*)::int as n from series_members where left_at is null');
    console.log(`  (active members after the passes: ${after}; nobody joined or left who should not have)`);
    if (db.driver !== 'pglite') {
      const plans = await db.query<{ 'QUERY PLAN': string }>(`explain ${DUE_BOTS}`);
      console.log('  plan of the look for due work:\n' + plans.map((r) => `    ${r['QUERY PLAN']}`).join('\n'));
    }
  } finally {
    if (!process.env.BENCH_KEEP) await cleanup();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
