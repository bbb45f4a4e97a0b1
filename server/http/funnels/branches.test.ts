// Branches through the product API: choice buttons on a stage's message (a stage of the same
// funnel, broken when that stage is deleted, and a funnel with a broken one cannot run),
// keywords (phrase unique per funnel in any case, a stage of the funnel, another user's → 404),
// and the stage results' "where people went next".
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { FUNNELS_API, type DashboardFunnel, type Funnel, type FunnelStats, type Keyword, type Stage, type StageMessage } from '../../../contract/funnels';
import { funnelKeywords, stageMoves, stageReaches } from '../../db/schema';
import { COMMON_ERRORS } from '../../domain-error';
import { FUNNEL_ERRORS } from '../../funnels/errors';
import { TEMPLATES_API, type Template } from '../../../contract/templates';
import { setRole } from '../../accounts/roles';
import { expectJsonError, signedInUser } from '../../test/helpers';
import { addPerson, addRunnableStage, call, connectFunnel, NOT_FOUND, ok, user, useFunnelsTestEnv } from '../../test/funnels-api';
import { fieldsError } from './expected-errors';

const env = useFunnelsTestEnv();

async function funnelWithStages(key: string, count: number) {
  const funnel = await connectFunnel(env, key);
  const stages: Stage[] = [];
  for (let i = 0; i < count; i++) stages.push(await addRunnableStage(env, key, funnel.id, { title: `Stage ${i + 1}` }));
  return { funnel, stages };
}

const message = (choices: unknown[]) => ({ text: 'Pick one', media_id: null, buttons: [], next_button: null, choices });

describe('choice buttons', () => {
  it('are kept on the message, each leading to a stage of the same funnel', async () => {
    const key = await user(env);
    const { funnel, stages } = await funnelWithStages(key, 3);
    const other = await funnelWithStages(key, 1);
    const put = (choices: unknown[]) => call(env, key, 'PUT', FUNNELS_API.stageMessage(stages[0].id), message(choices));
    const saved = ok<StageMessage>(await put([{ text: ' Cheap ', stage_id: stages[1].id }, { text: 'Premium', stage_id: stages[2].id }]));
    expect(saved.choices).toEqual([
      { text: 'Cheap', stage_id: stages[1].id },
      { text: 'Premium', stage_id: stages[2].id },
    ]);
    const listed = ok<Stage[]>(await call(env, key, 'GET', FUNNELS_API.stages(funnel.id)));
    expect(listed[0].message.choices).toEqual(saved.choices);
    expect(listed[1].message.choices).toEqual([]);

    const foreign = other.stages[0].id;
    expect(expectJsonError(await put([{ text: 'Away', stage_id: foreign }]), 400)).toEqual(fieldsError({ choices: [COMMON_ERRORS.doesNotExist(foreign)] }));
    expect(expectJsonError(await put([{ text: '  ', stage_id: stages[1].id }]), 400)).toEqual(fieldsError({ choices: [COMMON_ERRORS.blank] }));
    expect(expectJsonError(await put([{ text: 'No stage' }]), 400)).toEqual(fieldsError({ choices: [COMMON_ERRORS.required] }));
    expect((await put(Array.from({ length: 9 }, (_, i) => ({ text: `B${i}`, stage_id: stages[1].id })))).statusCode).toBe(400);
    // Nothing refused was saved.
    expect(ok<Stage>(await call(env, key, 'GET', FUNNELS_API.stage(stages[0].id))).message.choices).toEqual(saved.choices);
  });

  it('break when their stage is deleted, and a funnel with a broken one is refused to run, naming the button', async () => {
    const key = await user(env);
    const { funnel, stages } = await funnelWithStages(key, 3);
    ok(await call(env, key, 'PUT', FUNNELS_API.stageMessage(stages[0].id), message([{ text: 'Cheap', stage_id: stages[1].id }, { text: 'Premium', stage_id: stages[2].id }])));
    expect(ok(await call(env, key, 'GET', FUNNELS_API.run(funnel.id)))).toEqual({ problems: [] });

    expect((await call(env, key, 'DELETE', FUNNELS_API.stage(stages[2].id))).statusCode).toBe(204);
    const first = ok<Stage>(await call(env, key, 'GET', FUNNELS_API.stage(stages[0].id)));
    expect(first.message.choices).toEqual([
      { text: 'Cheap', stage_id: stages[1].id },
      { text: 'Premium', stage_id: null },
    ]);
    const broken = FUNNEL_ERRORS.brokenChoice('Stage 1', 'Premium');
    expect(ok(await call(env, key, 'GET', FUNNELS_API.run(funnel.id)))).toEqual({ problems: [{ code: 'broken_choice', message: broken.text, detail: 'Premium' }] });
    expect(expectJsonError(await call(env, key, 'POST', FUNNELS_API.run(funnel.id)), 400)).toEqual(fieldsError({ non_field_errors: [broken] }));

    // Fixed (another stage chosen): it runs.
    ok(await call(env, key, 'PUT', FUNNELS_API.stageMessage(stages[0].id), message([{ text: 'Cheap', stage_id: stages[1].id }, { text: 'Premium', stage_id: stages[1].id }])));
    expect(ok<{ state: string }>(await call(env, key, 'POST', FUNNELS_API.run(funnel.id))).state).toBe('running');
  });

  it('are copied with the stages, leading to the copies', async () => {
    const key = await user(env);
    const { funnel, stages } = await funnelWithStages(key, 2);
    ok(await call(env, key, 'PUT', FUNNELS_API.stageMessage(stages[0].id), message([{ text: 'On', stage_id: stages[1].id }])));
    ok(await call(env, key, 'POST', FUNNELS_API.keywords(funnel.id), { phrase: 'price', stage_id: stages[1].id }), 201);
    const target = await connectFunnel(env, key);
    ok(await call(env, key, 'POST', FUNNELS_API.copy(funnel.id), { target_funnel_id: target.id }));
    const copied = ok<Stage[]>(await call(env, key, 'GET', FUNNELS_API.stages(target.id)));
    expect(copied[0].message.choices).toEqual([{ text: 'On', stage_id: copied[1].id }]);
    expect(ok<Keyword[]>(await call(env, key, 'GET', FUNNELS_API.keywords(target.id))).map((k) => [k.phrase, k.stage_id])).toEqual([['price', copied[1].id]]);
  });
});

describe('templates', () => {
  it('carry choice buttons and keywords: a funnel made from one has them, leading to its own stages', async () => {
    const account = await signedInUser(env.t);
    await setRole(env.t.db, account.email, 'admin');
    const { funnel, stages } = await funnelWithStages(account.key, 3);
    ok(await call(env, account.key, 'PUT', FUNNELS_API.stageMessage(stages[0].id), message([{ text: 'Pro', stage_id: stages[2].id }, { text: 'Basic', stage_id: stages[1].id }])));
    ok(await call(env, account.key, 'POST', FUNNELS_API.keywords(funnel.id), { phrase: 'цена', stage_id: stages[2].id }), 201);
    const template = ok<Template>(await call(env, account.key, 'POST', TEMPLATES_API.templates, { funnel_id: funnel.id, name: 'Branches' }), 201);
    ok(await call(env, account.key, 'PATCH', TEMPLATES_API.template(template.id), { published: true }));

    const key = await user(env);
    const made = ok<Funnel>(await call(env, key, 'POST', TEMPLATES_API.add(template.id)), 201);
    const madeStages = ok<Stage[]>(await call(env, key, 'GET', FUNNELS_API.stages(made.id)));
    expect(madeStages.map((s) => s.title)).toEqual(['Stage 1', 'Stage 2', 'Stage 3']);
    expect(madeStages[0].message.choices).toEqual([
      { text: 'Pro', stage_id: madeStages[2].id },
      { text: 'Basic', stage_id: madeStages[1].id },
    ]);
    expect(ok<Keyword[]>(await call(env, key, 'GET', FUNNELS_API.keywords(made.id))).map((k) => [k.phrase, k.stage_id])).toEqual([['цена', madeStages[2].id]]);
  });
});

describe('keywords', () => {
  it('are listed, added, changed and deleted; a phrase is unique in any case and its stage is one of the funnel', async () => {
    const key = await user(env);
    const { funnel, stages } = await funnelWithStages(key, 2);
    const other = await funnelWithStages(key, 1);
    const url = FUNNELS_API.keywords(funnel.id);
    const price = ok<Keyword>(await call(env, key, 'POST', url, { phrase: '  Цена   курса ', stage_id: stages[1].id }), 201);
    expect(price).toMatchObject({ funnel_id: funnel.id, phrase: 'Цена курса', stage_id: stages[1].id });
    expect(env.stagesChanged).toContain(funnel.id);
    expect(expectJsonError(await call(env, key, 'POST', url, { phrase: 'цена КУРСА', stage_id: stages[0].id }), 400)).toEqual(
      fieldsError({ phrase: [FUNNEL_ERRORS.keywordTaken] }),
    );
    expect(expectJsonError(await call(env, key, 'POST', url, { phrase: 'x', stage_id: other.stages[0].id }), 400)).toEqual(
      fieldsError({ stage_id: [COMMON_ERRORS.doesNotExist(other.stages[0].id)] }),
    );
    expect(expectJsonError(await call(env, key, 'POST', url, { phrase: '   ', stage_id: stages[0].id }), 400)).toEqual(fieldsError({ phrase: [COMMON_ERRORS.blank] }));
    expect(expectJsonError(await call(env, key, 'POST', url, { phrase: '?!', stage_id: stages[0].id }), 400)).toEqual(
      fieldsError({ phrase: [FUNNEL_ERRORS.keywordWithoutWord] }),
    );
    const hello = ok<Keyword>(await call(env, key, 'POST', url, { phrase: 'hello', stage_id: stages[0].id }), 201);
    const changed = ok<Keyword>(await call(env, key, 'PATCH', FUNNELS_API.keyword(funnel.id, hello.id), { phrase: 'Hi', stage_id: stages[1].id }));
    expect(changed).toMatchObject({ id: hello.id, phrase: 'Hi', stage_id: stages[1].id });
    expect(expectJsonError(await call(env, key, 'PATCH', FUNNELS_API.keyword(funnel.id, hello.id), { phrase: 'ЦЕНА КУРСА' }), 400)).toEqual(
      fieldsError({ phrase: [FUNNEL_ERRORS.keywordTaken] }),
    );
    expect(ok<Keyword[]>(await call(env, key, 'GET', url)).map((k) => k.phrase)).toEqual(['Цена курса', 'Hi']);
    expect((await call(env, key, 'DELETE', FUNNELS_API.keyword(funnel.id, hello.id))).statusCode).toBe(204);
    expect(ok<Keyword[]>(await call(env, key, 'GET', url)).map((k) => k.phrase)).toEqual(['Цена курса']);
    // Deleting its stage deletes the keyword.
    expect((await call(env, key, 'DELETE', FUNNELS_API.stage(stages[1].id))).statusCode).toBe(204);
    expect(ok<Keyword[]>(await call(env, key, 'GET', url))).toEqual([]);
  });

  it("another user's keywords are not found, and nothing of theirs changes", async () => {
    const owner = await user(env);
    const stranger = await user(env);
    const { funnel, stages } = await funnelWithStages(owner, 1);
    const keyword = ok<Keyword>(await call(env, owner, 'POST', FUNNELS_API.keywords(funnel.id), { phrase: 'price', stage_id: stages[0].id }), 201);
    const mine = await funnelWithStages(stranger, 1);
    expect(expectJsonError(await call(env, stranger, 'GET', FUNNELS_API.keywords(funnel.id)), 404)).toEqual(NOT_FOUND);
    expect(expectJsonError(await call(env, stranger, 'POST', FUNNELS_API.keywords(funnel.id), { phrase: 'mine', stage_id: stages[0].id }), 404)).toEqual(NOT_FOUND);
    expect(expectJsonError(await call(env, stranger, 'PATCH', FUNNELS_API.keyword(funnel.id, keyword.id), { phrase: 'taken' }), 404)).toEqual(NOT_FOUND);
    expect(expectJsonError(await call(env, stranger, 'DELETE', FUNNELS_API.keyword(funnel.id, keyword.id)), 404)).toEqual(NOT_FOUND);
    // Their own funnel's id with the owner's keyword id: still not found.
    expect(expectJsonError(await call(env, stranger, 'DELETE', FUNNELS_API.keyword(mine.funnel.id, keyword.id)), 404)).toEqual(NOT_FOUND);
    const rows = await env.t.db.orm.select().from(funnelKeywords).where(eq(funnelKeywords.funnelId, funnel.id));
    expect(rows.map((r) => r.phrase)).toEqual(['price']);
  });
});

describe('results', () => {
  it('say where people went next from each stage, per button or keyword, in the period', async () => {
    const key = await user(env);
    const { funnel, stages } = await funnelWithStages(key, 3);
    const [ann, bob, cat] = [await addPerson(env, funnel.id), await addPerson(env, funnel.id), await addPerson(env, funnel.id)];
    const move = (personId: number, to: number, via: 'choice' | 'keyword' | 'next', label: string, createdAt = new Date()) => ({
      funnelId: funnel.id,
      personId,
      fromStageId: stages[0].id,
      toStageId: to,
      via,
      label,
      createdAt,
    });
    await env.t.db.orm.insert(stageMoves).values([
      move(ann.id, stages[1].id, 'choice', 'Cheap'),
      move(bob.id, stages[2].id, 'choice', 'Premium'),
      move(cat.id, stages[2].id, 'choice', 'Premium'),
      move(cat.id, stages[1].id, 'keyword', 'price', new Date(Date.now() - 40 * 86_400_000)),
    ]);
    const all = ok<FunnelStats>(await call(env, key, 'GET', `${FUNNELS_API.stats(funnel.id)}?period=all`));
    expect(all.moves).toEqual([
      { from_stage_id: stages[0].id, to_stage_id: stages[2].id, via: 'choice', label: 'Premium', count: 2 },
      { from_stage_id: stages[0].id, to_stage_id: stages[1].id, via: 'choice', label: 'Cheap', count: 1 },
      { from_stage_id: stages[0].id, to_stage_id: stages[1].id, via: 'keyword', label: 'price', count: 1 },
    ]);
    const week = ok<FunnelStats>(await call(env, key, 'GET', `${FUNNELS_API.stats(funnel.id)}?period=7d`));
    expect(week.moves.map((m) => m.label)).toEqual(['Premium', 'Cheap']);
  });

  it('count who moved on from each stage to any stage, each person once, and where they went adds up to it', async () => {
    const key = await user(env);
    const { funnel, stages } = await funnelWithStages(key, 3);
    const [ann, bob, cat] = [await addPerson(env, funnel.id), await addPerson(env, funnel.id), await addPerson(env, funnel.id)];
    await env.t.db.orm.insert(stageReaches).values([ann, bob, cat].map((person) => ({ personId: person.id, stageId: stages[0].id, funnelId: funnel.id })));
    const move = (personId: number, from: number, to: number, via: 'choice' | 'keyword' | 'next' | 'manual', label: string, createdAt = new Date()) => ({
      funnelId: funnel.id,
      personId,
      fromStageId: stages[from].id,
      toStageId: stages[to].id,
      via,
      label,
      createdAt,
    });
    await env.t.db.orm.insert(stageMoves).values([
      // Ann skips the second stage by a choice button, twice (moved back by hand in between).
      move(ann.id, 0, 2, 'choice', 'Premium'),
      move(ann.id, 2, 0, 'manual', ''),
      move(ann.id, 0, 2, 'choice', 'Premium'),
      // Bob goes on to the next stage, and back up by a button there.
      move(bob.id, 0, 1, 'next', 'Next'),
      move(bob.id, 1, 0, 'choice', 'Back'),
      // Cat presses a button that leads to the stage she is in: she has not moved on.
      move(cat.id, 0, 0, 'choice', 'Again'),
      // Long ago, Cat went on by a keyword.
      move(cat.id, 0, 1, 'keyword', 'price', new Date(Date.now() - 40 * 86_400_000)),
    ]);
    const week = ok<FunnelStats>(await call(env, key, 'GET', `${FUNNELS_API.stats(funnel.id)}?period=7d`));
    // "Went on to the next stage" would say 1 of 3 for the first stage; 2 of them moved on.
    expect(week.stages.map((s) => [s.reached, s.moved_on])).toEqual([
      [3, 2],
      [0, 1],
      [0, 1],
    ]);
    const fromFirst = week.moves.filter((m) => m.from_stage_id === stages[0].id);
    expect(fromFirst).toEqual([
      { from_stage_id: stages[0].id, to_stage_id: stages[1].id, via: 'next', label: 'Next', count: 1 },
      { from_stage_id: stages[0].id, to_stage_id: stages[2].id, via: 'choice', label: 'Premium', count: 1 },
    ]);
    expect(fromFirst.reduce((sum, m) => sum + m.count, 0)).toBe(week.stages[0].moved_on);
    const all = ok<FunnelStats>(await call(env, key, 'GET', `${FUNNELS_API.stats(funnel.id)}?period=all`));
    expect(all.stages[0].moved_on).toBe(3);
    // The dashboard says the same.
    const dashboard = ok<DashboardFunnel[]>(await call(env, key, 'GET', `${FUNNELS_API.dashboard}?period=7d`));
    expect(dashboard.find((f) => f.id === funnel.id)!.stages.map((s) => s.moved_on)).toEqual([2, 1, 1]);
  });

  it('count a move by hand, from the stage the person was in', async () => {
    const key = await user(env);
    const { funnel, stages } = await funnelWithStages(key, 2);
    const person = await addPerson(env, funnel.id, { stageId: stages[0].id });
    ok(await call(env, key, 'PATCH', FUNNELS_API.person(person.id), { stage_id: stages[1].id }));
    const stats = ok<FunnelStats>(await call(env, key, 'GET', FUNNELS_API.stats(funnel.id)));
    expect(stats.moves).toEqual([{ from_stage_id: stages[0].id, to_stage_id: stages[1].id, via: 'manual', label: '', count: 1 }]);
  });
});
