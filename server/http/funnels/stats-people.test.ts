// Results the owner can act on: per stage "in it now", "reached it" (ever, or in a period) and
// "moved on" from it, from subscribers played through the real runtime and the fake
// Bot API; and the people list with search, filters, pages and moves by hand.
import { and, eq } from 'drizzle-orm';
import type { InlineKeyboardMarkup, Message } from 'grammy/types';
import { afterAll, describe, expect, it } from 'vitest';
import { FUNNELS_API, NEXT_STEP_CALLBACK_PREFIX, type DashboardFunnel, type FunnelStats, type PeoplePage, type PersonDetail, type Stage } from '../../../contract/funnels';
import { funnelPayments, people, stageMoves, stageReaches } from '../../db/schema';
import { COMMON_ERRORS } from '../../domain-error';
import { decryptBotToken } from '../../funnels/secret-box';
import type { FunnelRuntime } from '../../bots/runtime/runtime';
import { eventually } from '../../test/eventually';
import { testRuntime } from '../../test/funnel-runtime';
import { expectJsonError } from '../../test/helpers';
import { addPerson, addRunnableStage, addTag, call, connectFunnel, NOT_FOUND, ok, user, useFunnelsTestEnv } from '../../test/funnels-api';
import { fieldsError } from './expected-errors';

const env = useFunnelsTestEnv();
const runtimes: FunnelRuntime[] = [];
afterAll(async () => {
  await Promise.all(runtimes.map((r) => r.stop()));
});

const nextData = (message: Message): string | undefined =>
  (message.reply_markup as InlineKeyboardMarkup | undefined)?.inline_keyboard
    .flat()
    .map((b) => (b as { callback_data?: string }).callback_data)
    .find((data) => data?.startsWith(NEXT_STEP_CALLBACK_PREFIX));

describe('per-stage results', () => {
  it('three subscribers reach different stages, one sends /start again: now, reached and moved on per period', async () => {
    const key = await user(env);
    const funnel = await connectFunnel(env, key);
    const stages: Stage[] = [];
    for (const [title, next] of [['Welcome', true], ['Lesson', true], ['Offer', false]] as const) {
      const stage = await addRunnableStage(env, key, funnel.id, { title });
      ok(await call(env, key, 'PUT', FUNNELS_API.stageMessage(stage.id), { text: `${title}!`, media_id: null, buttons: [], next_button: next ? { text: 'Next' } : null }));
      stages.push(stage);
    }
    ok(await call(env, key, 'POST', FUNNELS_API.run(funnel.id)));
    const runtime = testRuntime(env.t.db, env.fake.url, { tokenOf: (row) => decryptBotToken(row, env.t.config) });
    runtimes.push(runtime);
    await runtime.start();

    /** Sends /start, then presses next-step `steps` times; returns the last message received. */
    async function play(id: number, steps: number): Promise<void> {
      const from = { id, first_name: `P${id}` };
      env.fake.sendUserMessage(funnel.token, { from, text: '/start' });
      let last = await env.fake.waitForBotMessage(funnel.token, id);
      for (let i = 0; i < steps; i += 1) {
        const count = env.fake.botMessages(funnel.token, id).length;
        env.fake.pressButton(funnel.token, { from, message_id: last.message_id, callback_data: nextData(last)! });
        last = await eventually(() => env.fake.botMessages(funnel.token, id), (list) => list.length > count, `step ${i + 1} of ${id}`).then((l) => l.at(-1)!);
      }
    }
    await play(801, 0);
    await play(802, 1);
    await play(803, 2);
    // 802 sends /start again: still in "Lesson", which is sent to them again; nothing reached is lost.
    env.fake.sendUserMessage(funnel.token, { from: { id: 802, first_name: 'P802' }, text: '/start' });
    await eventually(() => env.fake.botMessages(funnel.token, 802), (list) => list.length === 3, 'the second /start answered');
    expect(env.fake.botMessages(funnel.token, 802).map((m) => m.text)).toEqual(['Welcome!', 'Lesson!', 'Lesson!']);
    const [again] = await env.t.db.orm.select().from(people).where(and(eq(people.funnelId, funnel.id), eq(people.telegramId, 802)));
    expect(again.stageId).toBe(stages[1].id);

    const statsOf = async (period: string) => ok<FunnelStats>(await call(env, key, 'GET', `${FUNNELS_API.stats(funnel.id)}?period=${period}&tz=Europe/Moscow`));
    const all = await statsOf('all');
    expect(all.stages).toEqual([
      { stage_id: stages[0].id, now: 1, reached: 3, moved_on: 2, paid: 0, revenue: 0 },
      { stage_id: stages[1].id, now: 1, reached: 2, moved_on: 1, paid: 0, revenue: 0 },
      { stage_id: stages[2].id, now: 1, reached: 1, moved_on: 0, paid: 0, revenue: 0 },
    ]);
    expect(all).toMatchObject({ period: 'all', since: null, new_people: 3 });

    // 801 came 10 days ago, 803 reached the offer 40 days ago (as far as the periods can tell).
    const daysAgo = (days: number) => new Date(env.t.clock.now().getTime() - days * 86_400_000);
    const [p801] = await env.t.db.orm.select().from(people).where(and(eq(people.funnelId, funnel.id), eq(people.telegramId, 801)));
    const [p803] = await env.t.db.orm.select().from(people).where(and(eq(people.funnelId, funnel.id), eq(people.telegramId, 803)));
    await env.t.db.orm.update(stageReaches).set({ reachedAt: daysAgo(10) }).where(eq(stageReaches.personId, p801.id));
    await env.t.db.orm.update(people).set({ joinedAt: daysAgo(10) }).where(eq(people.id, p801.id));
    await env.t.db.orm.update(stageReaches).set({ reachedAt: daysAgo(40) }).where(and(eq(stageReaches.personId, p803.id), eq(stageReaches.stageId, stages[2].id)));
    // …moving on from the lesson to get there (each move of a person is a stage_moves row).
    await env.t.db.orm.update(stageMoves).set({ createdAt: daysAgo(40) }).where(and(eq(stageMoves.personId, p803.id), eq(stageMoves.fromStageId, stages[1].id)));
    for (const [period, reached, movedOn, newPeople] of [
      ['today', [2, 2, 0], [2, 0, 0], 2],
      ['7d', [2, 2, 0], [2, 0, 0], 2],
      ['30d', [3, 2, 0], [2, 0, 0], 3],
      ['all', [3, 2, 1], [2, 1, 0], 3],
    ] as const) {
      const stats = await statsOf(period);
      expect(stats.stages.map((s) => s.reached), period).toEqual(reached);
      expect(stats.stages.map((s) => s.moved_on), period).toEqual(movedOn);
      expect(stats.stages.map((s) => s.now), period).toEqual([1, 1, 1]);
      expect(stats.new_people, period).toBe(newPeople);
    }

    // The dashboard shows the same figures for its period.
    const dashboard = ok<DashboardFunnel[]>(await call(env, key, 'GET', `${FUNNELS_API.dashboard}?period=30d&tz=Europe/Moscow`));
    const mine = dashboard.find((f) => f.id === funnel.id)!;
    expect(mine.stages.map((s) => [s.people_count, s.reached, s.moved_on])).toEqual([
      [1, 3, 2],
      [1, 2, 0],
      [1, 0, 0],
    ]);

    // Bad periods and zones are field errors; another user's funnel is not there.
    expect(expectJsonError(await call(env, key, 'GET', `${FUNNELS_API.stats(funnel.id)}?period=year`), 400)).toHaveProperty('period');
    expect(expectJsonError(await call(env, key, 'GET', `${FUNNELS_API.stats(funnel.id)}?tz=Mars/Base`), 400)).toHaveProperty('tz');
    expect(expectJsonError(await call(env, await user(env), 'GET', FUNNELS_API.stats(funnel.id)), 404)).toEqual(NOT_FOUND);
  });
});

describe('revenue per stage on the dashboard', () => {
  it("a payment stage shows the Stars of its payments in the period, refunds and other stages' payments not counted", async () => {
    const key = await user(env);
    const funnel = await connectFunnel(env, key);
    const sell = await addRunnableStage(env, key, funnel.id, { title: 'Sell' });
    const upsell = await addRunnableStage(env, key, funnel.id, { title: 'Upsell' });
    const thanks = await addRunnableStage(env, key, funnel.id, { title: 'Thanks' });
    const [ann, boris, cleo] = await Promise.all([addPerson(env, funnel.id), addPerson(env, funnel.id), addPerson(env, funnel.id)]);
    const payment = (personId: number, stageId: number, amount: number, chargeId: string, state: 'paid' | 'refunded' = 'paid') =>
      ({ funnelId: funnel.id, personId, stageId, amount, currency: 'XTR', provider: 'stars' as const, chargeId, state });
    await env.t.db.orm.insert(funnelPayments).values([
      payment(ann.id, sell.id, 500, 'ch-ann'),
      payment(boris.id, sell.id, 1000, 'ch-boris'),
      payment(cleo.id, sell.id, 700, 'ch-cleo', 'refunded'),
      payment(ann.id, upsell.id, 250, 'ch-ann-upsell'),
    ]);

    const dashboard = ok<DashboardFunnel[]>(await call(env, key, 'GET', `${FUNNELS_API.dashboard}?period=7d`));
    const mine = dashboard.find((f) => f.id === funnel.id)!;
    expect(mine.stages.map((s) => [s.id, s.paid, s.revenue])).toEqual([
      [sell.id, 2, 1500],
      [upsell.id, 1, 250],
      [thanks.id, 0, 0],
    ]);
    expect(mine).toMatchObject({ paid: 3, revenue: 1750 });
  });
});

describe('the people of a funnel', () => {
  it('searches name and username in any case (Russian too), filters by stage, "no stage" and tag, and pages past 100', async () => {
    const key = await user(env);
    const funnel = await connectFunnel(env, key);
    const [a, b] = [await addRunnableStage(env, key, funnel.id, { title: 'A' }), await addRunnableStage(env, key, funnel.id, { title: 'B' })];
    const vip = await addTag(env, key, funnel.id, 'VIP');
    const anna = await addPerson(env, funnel.id, { firstName: 'Анна', lastName: 'Смирнова', username: 'anna_s', stageId: a.id });
    const bob = await addPerson(env, funnel.id, { firstName: 'Bob', lastName: 'Stone', username: null, stageId: b.id });
    const lost = await addPerson(env, funnel.id, { firstName: 'Lost', lastName: '', username: 'lost_100%', stageId: null });
    ok(await call(env, key, 'POST', FUNNELS_API.personTags(bob.id), { tag_id: vip.id }), 201);
    for (let i = 0; i < 120; i += 1) await addPerson(env, funnel.id, { firstName: `Many${i}`, stageId: a.id });

    const list = async (query: string) => ok<PeoplePage>(await call(env, key, 'GET', `${FUNNELS_API.people(funnel.id)}?${query}`));
    const names = (page: PeoplePage) => page.results.map((p) => p.first_name);
    expect(names(await list('search=АННА'))).toEqual(['Анна']);
    expect(names(await list('search=смирн'))).toEqual(['Анна']);
    expect(names(await list(`search=${encodeURIComponent('@ANNA_')}`))).toEqual(['Анна']);
    expect(names(await list('search=bob%20st'))).toEqual(['Bob']);
    expect(names(await list(`search=${encodeURIComponent('100%')}`))).toEqual(['Lost']);
    expect((await list(`search=${encodeURIComponent('%')}`)).count).toBe(1);
    expect(names(await list(`stage=${b.id}`))).toEqual(['Bob']);
    expect(names(await list('stage=none'))).toEqual(['Lost']);
    expect(names(await list(`tag=${vip.id}`))).toEqual(['Bob']);
    expect((await list(`stage=${a.id}&search=many1`)).count).toBe(31); // Many1, Many10…Many19, Many100…Many119

    const first = await list(`stage=${a.id}&limit=100`);
    const second = await list(`stage=${a.id}&limit=100&offset=100`);
    expect([first.count, first.results.length, second.results.length]).toEqual([121, 100, 21]);
    expect(new Set([...first.results, ...second.results].map((p) => p.id)).size).toBe(121);
    // Newest first: the first person to come is on the last page.
    expect(second.results.map((p) => p.id)).toContain(anna.id);

    expect(expectJsonError(await call(env, key, 'GET', `${FUNNELS_API.people(funnel.id)}?stage=nobody`), 400)).toHaveProperty('stage');
    expect(expectJsonError(await call(env, key, 'GET', `${FUNNELS_API.people(funnel.id)}?search=${'x'.repeat(101)}`), 400)).toHaveProperty('search');
    expect(expectJsonError(await call(env, await user(env), 'GET', FUNNELS_API.people(funnel.id)), 404)).toEqual(NOT_FOUND);

    // A person whose stage was deleted is moved to a stage by hand: tagged by it and counted as reaching it.
    ok(await call(env, key, 'PATCH', FUNNELS_API.stage(b.id), { tag_id: vip.id }));
    const moved = ok<PersonDetail>(await call(env, key, 'PATCH', FUNNELS_API.person(lost.id), { stage_id: b.id }));
    expect(moved).toMatchObject({ stage_id: b.id, tag_ids: [vip.id] });
    expect((await list('stage=none')).count).toBe(0);
    const stats = ok<FunnelStats>(await call(env, key, 'GET', FUNNELS_API.stats(funnel.id)));
    expect(stats.stages.find((s) => s.stage_id === b.id)).toMatchObject({ now: 2, reached: 1 });
    const other = await connectFunnel(env, key);
    const foreignStage = await addRunnableStage(env, key, other.id);
    expect(expectJsonError(await call(env, key, 'PATCH', FUNNELS_API.person(lost.id), { stage_id: foreignStage.id }), 400)).toEqual(
      fieldsError({ stage_id: [COMMON_ERRORS.doesNotExist(foreignStage.id)] }),
    );
    expect(expectJsonError(await call(env, await user(env), 'PATCH', FUNNELS_API.person(lost.id), { stage_id: b.id }), 404)).toEqual(NOT_FOUND);
  });
});
