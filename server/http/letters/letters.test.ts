// Series of letters through the API and the delivery engine against the fake Bot API: the rules
// of sending times ('Incorrect data', 'You have not configured the sending time'), joining on
// /start and by hand, each (person, letter, moment) sent once even with two schedulers at work,
// a repeating letter after downtime (one overdue letter, the rest skipped), leaving on a tag, on
// a stage and (at once) on blocking, the scheduler's looks since the last one, an hour back and whole, and
// ownership.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { FUNNELS_API } from '../../../contract/funnels';
import { LETTERS_API, type Letter, type LetterHistory, type Series } from '../../../contract/letters';
import { outbox, people, seriesMembers } from '../../db/schema';
import { COMMON_ERRORS } from '../../domain-error';
import { LETTER_ERRORS } from '../../letters/errors';
import { LetterScheduler, MEMBERSHIP_INTERVAL_MS, WIDE_LOOK_MS } from '../../outbox/letter-scheduler';
import { eventually } from '../../test/eventually';
import { addTag, call, connectFunnel, NOT_FOUND, ok, user, useFunnelsTestEnv } from '../../test/funnels-api';
import { expectJsonError } from '../../test/helpers';
import { addSubscribers, useOutboxSenders } from '../../test/mailings';
import { fieldsError } from '../funnels/expected-errors';

const env = useFunnelsTestEnv();
const expectError = (res: Parameters<typeof expectJsonError>[0], status: number, body: Record<string, unknown>) => expect(expectJsonError(res, status)).toEqual(body);
const startSender = useOutboxSenders(env);

const letterBody = (name: string, sending_time: unknown, enabled = true) => ({ name, message: { text: `${name} for {first_name|friend}` }, sending_time, enabled });
const hours = (every: number, kind: 'through' | 'every' = 'through') => ({ kind, every, unit: 'hours', time_of_day: null });

async function seriesWith(key: string, funnelId: number, body: Record<string, unknown>, letterSpecs: Array<ReturnType<typeof letterBody>>) {
  const series = ok<Series>(await call(env, key, 'POST', LETTERS_API.series(funnelId), { name: 'Warm-up', ...body }), 201);
  const made: Letter[] = [];
  for (const spec of letterSpecs) made.push(ok<Letter>(await call(env, key, 'POST', LETTERS_API.letters(series.id), spec), 201));
  ok(await call(env, key, 'POST', LETTERS_API.enable(series.id)));
  return { series, letters: made };
}

/** Moves the series' start and the people's joining back by `ms` (instead of waiting hours). */
async function backdate(seriesId: number, personIds: number[], ms: number) {
  await env.t.db.query(`update letter_series set enabled_at = enabled_at - make_interval(secs => $2 / 1000.0) where id = $1`, [seriesId, ms + 60_000]);
  await env.t.db.query(`update people set joined_at = joined_at - make_interval(secs => $2 / 1000.0) where id = any($1::int[])`, [personIds, ms]);
}

const historyOf = async (key: string, letterId: number) => ok<LetterHistory>(await call(env, key, 'GET', LETTERS_API.history(letterId)));

describe('series of letters', () => {
  it('refuses a bad sending time, and turning on a letter or a series without one', async () => {
    const key = await user(env);
    const funnel = await connectFunnel(env, key);
    const series = ok<Series>(await call(env, key, 'POST', LETTERS_API.series(funnel.id), { name: 'Onboarding', time_zone: 'Europe/Moscow' }), 201);
    expect(series).toMatchObject({ enabled: false, join_on: { on: 'start' }, catch_up_hours: 24, time_zone: 'Europe/Moscow', letters: [] });
    expectError(await call(env, key, 'POST', LETTERS_API.letters(series.id), letterBody('A', { kind: 'every', every: 0, unit: 'days' })), 400, fieldsError({ sending_time: [COMMON_ERRORS.incorrectData] }));
    expectError(await call(env, key, 'POST', LETTERS_API.letters(series.id), letterBody('A', { kind: 'every', every: 1, unit: 'hours', time_of_day: '10:00' })), 400, fieldsError({ sending_time: [COMMON_ERRORS.incorrectData] }));
    expectError(await call(env, key, 'POST', LETTERS_API.letters(series.id), letterBody('A', null, true)), 400, fieldsError({ enabled: [LETTER_ERRORS.noSendingTime] }));
    const draft = ok<Letter>(await call(env, key, 'POST', LETTERS_API.letters(series.id), letterBody('A', null, false)), 201);
    expect(draft).toMatchObject({ enabled: false, sending_time: null, sent_count: 0 });
    expectError(await call(env, key, 'PATCH', LETTERS_API.letter(draft.id), { enabled: true }), 400, fieldsError({ enabled: [LETTER_ERRORS.noSendingTime] }));
    expectError(await call(env, key, 'POST', LETTERS_API.enable(series.id)), 400, fieldsError({ enabled: [LETTER_ERRORS.noSendingTime] }));
    const ready = ok<Letter>(await call(env, key, 'PATCH', LETTERS_API.letter(draft.id), { sending_time: { kind: 'every', every: 1, unit: 'months', time_of_day: '09:30' }, enabled: true }));
    expect(ready).toMatchObject({ enabled: true, sending_time: { kind: 'every', every: 1, unit: 'months', time_of_day: '09:30' } });
    expect(ok<Series>(await call(env, key, 'POST', LETTERS_API.enable(series.id))).enabled).toBe(true);
    // An empty history: nobody received it yet.
    expect(await historyOf(key, ready.id)).toEqual({ count: 0, results: [] });

    const stranger = await user(env);
    expectError(await call(env, stranger, 'GET', LETTERS_API.oneSeries(series.id)), 404, NOT_FOUND);
    expectError(await call(env, stranger, 'GET', LETTERS_API.series(funnel.id)), 404, NOT_FOUND);
    expectError(await call(env, stranger, 'PATCH', LETTERS_API.letter(ready.id), { name: 'Mine' }), 404, NOT_FOUND);
    expectError(await call(env, stranger, 'GET', LETTERS_API.history(ready.id)), 404, NOT_FOUND);
    expectError(await call(env, stranger, 'DELETE', LETTERS_API.oneSeries(series.id)), 404, NOT_FOUND);
  });

  it('sends each (person, letter, moment) once, in order, with two schedulers at work', async () => {
    const key = await user(env);
    const funnel = await connectFunnel(env, key);
    const { series, letters } = await seriesWith(key, funnel.id, {}, [letterBody('First', hours(1)), letterBody('Second', hours(1))]);
    const subscribers = await addSubscribers(env.t.db, env.fake, funnel.token, funnel.id, 5);
    // They joined an hour (less two seconds) ago: the first letter is due in two seconds.
    await backdate(series.id, subscribers.map((s) => s.id), 3_600_000 - 2_000);
    const a = new LetterScheduler(env.t.db);
    const b = new LetterScheduler(env.t.db);
    await Promise.all([a.joins(), b.joins(), a.joins()]);
    const rows = await env.t.db.orm.select().from(outbox).where(eq(outbox.seriesId, series.id));
    expect(rows).toHaveLength(10);
    startSender();
    for (const person of subscribers) {
      const got = await env.fake.waitForBotMessage(funnel.token, person.telegramId, { timeoutMs: 15_000 });
      expect(got.text).toBe(`First for ${person.firstName}`);
    }
    const first = await eventually(() => historyOf(key, letters[0].id), (h) => h.results.every((r) => r.state === 'sent'), 'all sent');
    expect(first.count).toBe(5);
    const second = await historyOf(key, letters[1].id);
    expect(second.results.map((r) => r.state)).toEqual(['waiting', 'waiting', 'waiting', 'waiting', 'waiting']);
    expect(Date.parse(second.results[0].moment) - Date.parse(first.results[0].moment)).toBe(3_600_000);
    for (const person of subscribers) expect(env.fake.botMessages(funnel.token, person.telegramId)).toHaveLength(1);
    const person = ok<{ history: Array<{ kind: string; text: string }> }>(await call(env, key, 'GET', FUNNELS_API.person(subscribers[0].id)));
    expect(person.history.some((h) => h.kind === 'letter' && h.text === `First for ${subscribers[0].firstName}`)).toBe(true);
  });

  it('after downtime sends one overdue letter, skips what is older than the cut-off, and schedules the next', async () => {
    const key = await user(env);
    const funnel = await connectFunnel(env, key);
    const hourly = await seriesWith(key, funnel.id, {}, [letterBody('Hourly', hours(1, 'every'))]);
    const strict = await seriesWith(key, funnel.id, { name: 'Strict', catch_up_hours: 1 }, [letterBody('Daily tip', hours(3, 'every'))]);
    const [ann] = await addSubscribers(env.t.db, env.fake, funnel.token, funnel.id, 1);
    // Ann joined five and a half hours ago, while the server was down.
    await backdate(hourly.series.id, [ann.id], 5.5 * 3_600_000);
    await env.t.db.query(`update letter_series set enabled_at = enabled_at - interval '6 hours' where id = $1`, [strict.series.id]);
    startSender();
    const got = await env.fake.waitForBotMessage(funnel.token, ann.telegramId, { timeoutMs: 15_000 });
    expect(got.text).toBe(`Hourly for ${ann.firstName}`);
    const hourlyHistory = await eventually(() => historyOf(key, hourly.letters[0].id), (h) => h.results.some((r) => r.state === 'sent') && h.results.some((r) => r.state === 'waiting'), 'sent and the next one waiting');
    const next = hourlyHistory.results.find((r) => r.state === 'waiting')!;
    expect(Date.parse(next.moment)).toBeGreaterThan(Date.now());
    // The strict series' first moment (3 h after joining) is 2.5 h late, over its 1 h cut-off: skipped, shown so.
    const strictHistory = await eventually(() => historyOf(key, strict.letters[0].id), (h) => h.results.some((r) => r.state === 'skipped') && h.results.some((r) => r.state === 'waiting'), 'skipped, then the next');
    expect(strictHistory.results.find((r) => r.state === 'skipped')).toBeDefined();
    expect(env.fake.botMessages(funnel.token, ann.telegramId).map((m) => m.text)).toEqual([`Hourly for ${ann.firstName}`]);
  });

  it('a person joins by hand and leaves on the series’ tag; waiting letters are cancelled', async () => {
    const key = await user(env);
    const funnel = await connectFunnel(env, key);
    const done = await addTag(env, key, funnel.id, 'Bought');
    const { series, letters } = await seriesWith(key, funnel.id, { join_on: { on: 'manual', stage_id: null, tag_id: null }, leave_on: { stage_id: null, tag_id: done.id } }, [
      letterBody('Reminder', hours(2)),
    ]);
    const [bob] = await addSubscribers(env.t.db, env.fake, funnel.token, funnel.id, 1);
    const stranger = await user(env);
    expectError(await call(env, stranger, 'POST', LETTERS_API.members(series.id), { person_id: bob.id }), 404, NOT_FOUND);
    expect((await call(env, key, 'POST', LETTERS_API.members(series.id), { person_id: bob.id })).statusCode).toBe(204);
    expect((await historyOf(key, letters[0].id)).results.map((r) => r.state)).toEqual(['waiting']);
    expect(ok<Series>(await call(env, key, 'GET', LETTERS_API.oneSeries(series.id))).members_count).toBe(1);
    ok(await call(env, key, 'POST', FUNNELS_API.personTags(bob.id), { tag_id: done.id }), 201);
    const scheduler = new LetterScheduler(env.t.db);
    await scheduler.tick();
    expect((await historyOf(key, letters[0].id)).results.map((r) => r.state)).toEqual(['cancelled']);
    const [member] = await env.t.db.orm.select().from(seriesMembers).where(eq(seriesMembers.personId, bob.id));
    expect(member.leftAt).not.toBeNull();
    const [row] = await env.t.db.orm.select().from(people).where(eq(people.id, bob.id));
    expect(row.blocked).toBe(false);
  });

  it('looks for joins among what happened since its previous look, an hour back once a minute, and at a new series whole', async () => {
    const key = await user(env);
    const funnel = await connectFunnel(env, key);
    let now = 0;
    const scheduler = new LetterScheduler(env.t.db, () => now);
    await scheduler.memberships();
    const [ann, bob] = await addSubscribers(env.t.db, env.fake, funnel.token, funnel.id, 2);
    const { series } = await seriesWith(key, funnel.id, { join_on: { on: 'start', stage_id: null, tag_id: null } }, [letterBody('Hello', hours(1))]);
    // They pressed /start two hours ago, the series was turned on before that: a series new to the scheduler is looked at whole.
    await backdate(series.id, [ann.id, bob.id], 2 * 3_600_000);
    const members = async () => ok<Series>(await call(env, key, 'GET', LETTERS_API.oneSeries(series.id))).members_count;
    now += MEMBERSHIP_INTERVAL_MS;
    await scheduler.memberships();
    expect(await members()).toBe(2);
    // Cleo's joining shows up with an old time (as a transaction that committed very late would); Dan joins now.
    const [cleo] = await addSubscribers(env.t.db, env.fake, funnel.token, funnel.id, 1);
    await env.t.db.query(`update people set joined_at = now() - interval '30 minutes' where id = $1`, [cleo.id]);
    const [dan] = await addSubscribers(env.t.db, env.fake, funnel.token, funnel.id, 1);
    now += MEMBERSHIP_INTERVAL_MS;
    await scheduler.memberships();
    const memberIds = async () => (await env.t.db.query<{ person_id: number }>('select person_id from series_members where series_id = $1 order by person_id', [series.id])).map((r) => r.person_id);
    expect(await memberIds()).toEqual([ann.id, bob.id, dan.id]);
    // The minute's look, an hour back, finds her.
    now += WIDE_LOOK_MS;
    await scheduler.memberships();
    expect(await memberIds()).toEqual([ann.id, bob.id, cleo.id, dan.id]);
  });

  it('a person leaves on reaching the series’ leaving stage after joining; a stage reached before joining does not count', async () => {
    const key = await user(env);
    const funnel = await connectFunnel(env, key);
    const paid = ok<{ id: number }>(await call(env, key, 'POST', FUNNELS_API.stages(funnel.id), { title: 'Paid' }), 201);
    const { series, letters } = await seriesWith(key, funnel.id, { join_on: { on: 'manual', stage_id: null, tag_id: null }, leave_on: { stage_id: paid.id, tag_id: null } }, [
      letterBody('Still thinking?', hours(2)),
    ]);
    const [ann, bob] = await addSubscribers(env.t.db, env.fake, funnel.token, funnel.id, 2);
    ok(await call(env, key, 'PATCH', FUNNELS_API.person(ann.id), { stage_id: paid.id }));
    for (const person of [ann, bob]) expect((await call(env, key, 'POST', LETTERS_API.members(series.id), { person_id: person.id })).statusCode).toBe(204);
    // (The app's clock is the tests' frozen one: the times are set where the story needs them.)
    await env.t.db.query(`update series_members set joined_at = now() - interval '1 minute' where series_id = $1`, [series.id]);
    await env.t.db.query(`update stage_reaches set reached_at = now() - interval '2 minutes' where person_id = $1`, [ann.id]);
    const scheduler = new LetterScheduler(env.t.db);
    await scheduler.memberships();
    const states = async () => new Map((await historyOf(key, letters[0].id)).results.map((r) => [r.person_id, r.state]));
    expect(await states()).toEqual(new Map([[ann.id, 'waiting'], [bob.id, 'waiting']]));
    ok(await call(env, key, 'PATCH', FUNNELS_API.person(bob.id), { stage_id: paid.id }));
    await scheduler.memberships();
    expect(await states()).toEqual(new Map([[ann.id, 'waiting'], [bob.id, 'cancelled']]));
    expect(ok<Series>(await call(env, key, 'GET', LETTERS_API.oneSeries(series.id))).members_count).toBe(1);
  });

  it('a person joins on reaching the series’ stage and leaves on blocking the bot', async () => {
    const key = await user(env);
    const funnel = await connectFunnel(env, key);
    const stage = ok<{ id: number }>(await call(env, key, 'POST', FUNNELS_API.stages(funnel.id), { title: 'Paid' }), 201);
    const { series, letters } = await seriesWith(key, funnel.id, { join_on: { on: 'stage', stage_id: stage.id, tag_id: null } }, [letterBody('Thanks', hours(24))]);
    const [cleo, dan] = await addSubscribers(env.t.db, env.fake, funnel.token, funnel.id, 2);
    ok(await call(env, key, 'PATCH', FUNNELS_API.person(cleo.id), { stage_id: stage.id }));
    const scheduler = new LetterScheduler(env.t.db);
    await scheduler.tick();
    expect((await historyOf(key, letters[0].id)).results.map((r) => [r.person_id, r.state])).toEqual([[cleo.id, 'waiting']]);
    expect(ok<Series>(await call(env, key, 'GET', LETTERS_API.oneSeries(series.id))).members_count).toBe(1);
    void dan;
    // Blocking leaves the series at once, whichever path saw the 403 (no sweep needed).
    await env.t.db.orm.update(people).set({ blocked: true }).where(eq(people.id, cleo.id));
    expect((await historyOf(key, letters[0].id)).results.map((r) => r.state)).toEqual(['cancelled']);
    expect(ok<Series>(await call(env, key, 'GET', LETTERS_API.oneSeries(series.id))).members_count).toBe(0);
  });
});
