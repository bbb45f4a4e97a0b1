// Stages' waits through the product API (issue 24, "Wait"): set (PUT) and cleared (DELETE) on a
// stage, the answer the whole stage; refused input in Djoser's shape (unit, amount, more than 90
// days, a stage of another funnel, the same stage); another user's funnel or stage is 404 and
// their rows stay; deleting the stage a wait leads to breaks it and the funnel cannot run; a
// person's waiting timer is on their screen; copies keep waits, leading to the copies.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { FUNNELS_API, type Funnel, type PersonDetail, type Stage } from '../../../contract/funnels';
import { TIMERS_API } from '../../../contract/timers';
import { personTimers, stageMoves, stages as stagesTable } from '../../db/schema';
import { COMMON_ERRORS } from '../../domain-error';
import { FUNNEL_ERRORS } from '../../funnels/errors';
import { TEMPLATES_API, type Template } from '../../../contract/templates';
import { setRole } from '../../accounts/roles';
import { expectJsonError, signedInUser } from '../../test/helpers';
import { addPerson, addRunnableStage, call, connectFunnel, NOT_FOUND, ok, user, useFunnelsTestEnv } from '../../test/funnels-api';
import { fieldsError, SCHEMA } from '../funnels/expected-errors';

const env = useFunnelsTestEnv();

async function funnelWithStages(key: string, count: number) {
  const funnel = await connectFunnel(env, key);
  const stages: Stage[] = [];
  for (let i = 0; i < count; i++) stages.push(await addRunnableStage(env, key, funnel.id, { title: `Stage ${i + 1}` }));
  return { funnel, stages };
}

const wait = (toStageId: number | null, more: Record<string, unknown> = {}) => ({ amount: 2, unit: 'hours', to_stage_id: toStageId, only_if_silent: false, ...more });

async function storedWait(stageId: number) {
  const [row] = await env.t.db.orm.select({ wait: stagesTable.wait }).from(stagesTable).where(eq(stagesTable.id, stageId));
  return row.wait;
}

describe("a stage's wait", () => {
  it('is set and cleared; the answer is the whole stage, and the stage shows it', async () => {
    const key = await user(env);
    const { funnel, stages } = await funnelWithStages(key, 3);
    const set = ok<Stage>(await call(env, key, 'PUT', TIMERS_API.stageWait(funnel.id, stages[0].id), wait(stages[2].id, { only_if_silent: true })));
    expect(set).toMatchObject({ id: stages[0].id, title: 'Stage 1', wait: { amount: 2, unit: 'hours', to_stage_id: stages[2].id, only_if_silent: true } });
    expect(ok<Stage>(await call(env, key, 'GET', FUNNELS_API.stage(stages[0].id))).wait).toEqual(set.wait);
    expect(ok<Stage[]>(await call(env, key, 'GET', FUNNELS_API.stages(funnel.id))).map((s) => s.wait)).toEqual([set.wait, null, null]);
    // 90 days exactly is allowed.
    expect(ok<Stage>(await call(env, key, 'PUT', TIMERS_API.stageWait(funnel.id, stages[0].id), wait(stages[1].id, { amount: 90, unit: 'days' }))).wait).toMatchObject({ amount: 90, unit: 'days' });

    const cleared = ok<Stage>(await call(env, key, 'DELETE', TIMERS_API.stageWait(funnel.id, stages[0].id)));
    expect(cleared).toMatchObject({ id: stages[0].id, wait: null });
    expect(await storedWait(stages[0].id)).toBeNull();
  });

  it('refuses a bad unit or amount, more than 90 days, a stage of another funnel and its own stage; nothing refused is saved', async () => {
    const key = await user(env);
    const { funnel, stages } = await funnelWithStages(key, 2);
    const other = await funnelWithStages(key, 1);
    const put = (body: unknown) => call(env, key, 'PUT', TIMERS_API.stageWait(funnel.id, stages[0].id), body);
    ok(await put(wait(stages[1].id)));
    const saved = await storedWait(stages[0].id);

    expect(expectJsonError(await put(wait(stages[1].id, { unit: 'weeks' })), 400)).toEqual(fieldsError({ unit: [SCHEMA.choice('weeks')] }));
    expect(expectJsonError(await put(wait(stages[1].id, { amount: 0 })), 400)).toHaveProperty('amount');
    expect(expectJsonError(await put(wait(stages[1].id, { amount: 1000 })), 400)).toHaveProperty('amount');
    expect(expectJsonError(await put(wait(stages[1].id, { amount: 91, unit: 'days' })), 400)).toEqual(fieldsError({ amount: [FUNNEL_ERRORS.waitTooLong] }));
    expect(expectJsonError(await put(wait(stages[1].id, { amount: 999, unit: 'days' })), 400)).toEqual(fieldsError({ amount: [FUNNEL_ERRORS.waitTooLong] }));
    expect(expectJsonError(await put(wait(other.stages[0].id)), 400)).toEqual(fieldsError({ to_stage_id: [COMMON_ERRORS.doesNotExist(other.stages[0].id)] }));
    expect(expectJsonError(await put(wait(stages[0].id)), 400)).toEqual(fieldsError({ to_stage_id: [FUNNEL_ERRORS.waitToItself] }));
    expect(expectJsonError(await put({ amount: 2, unit: 'hours', to_stage_id: stages[1].id }), 400)).toEqual(fieldsError({ only_if_silent: [SCHEMA.required] }));
    expect(await storedWait(stages[0].id)).toEqual(saved);
  });

  it("of another user's funnel or stage is 404, and their stage stays as it was", async () => {
    const key = await user(env);
    const { funnel, stages } = await funnelWithStages(key, 2);
    ok(await call(env, key, 'PUT', TIMERS_API.stageWait(funnel.id, stages[0].id), wait(stages[1].id)));
    const before = await storedWait(stages[0].id);
    const stranger = await user(env);
    const theirs = await funnelWithStages(stranger, 1);
    for (const method of ['PUT', 'DELETE'] as const) {
      const body = method === 'PUT' ? wait(stages[1].id, { amount: 5 }) : undefined;
      expect(expectJsonError(await call(env, stranger, method, TIMERS_API.stageWait(funnel.id, stages[0].id), body), 404)).toEqual(NOT_FOUND);
      // Their own funnel's path with my stage: not a stage of that funnel.
      expect(expectJsonError(await call(env, stranger, method, TIMERS_API.stageWait(theirs.funnel.id, stages[0].id), body), 404)).toEqual(NOT_FOUND);
      // My funnel with a stage of another of my funnels: not found either.
      expect(expectJsonError(await call(env, key, method, TIMERS_API.stageWait(funnel.id, theirs.stages[0].id), body), 404)).toEqual(NOT_FOUND);
    }
    expect(await storedWait(stages[0].id)).toEqual(before);
    expect(await storedWait(theirs.stages[0].id)).toBeNull();
  });

  it('breaks when the stage it leads to is deleted, and a funnel with a broken wait is refused to run', async () => {
    const key = await user(env);
    const { funnel, stages } = await funnelWithStages(key, 3);
    ok(await call(env, key, 'PUT', TIMERS_API.stageWait(funnel.id, stages[0].id), wait(stages[2].id)));
    expect(ok(await call(env, key, 'GET', FUNNELS_API.run(funnel.id)))).toEqual({ problems: [] });

    expect((await call(env, key, 'DELETE', FUNNELS_API.stage(stages[2].id))).statusCode).toBe(204);
    expect(ok<Stage>(await call(env, key, 'GET', FUNNELS_API.stage(stages[0].id))).wait).toEqual(wait(null));
    const broken = FUNNEL_ERRORS.brokenWait('Stage 1');
    expect(ok(await call(env, key, 'GET', FUNNELS_API.run(funnel.id)))).toEqual({ problems: [{ code: 'broken_wait', message: broken.text, detail: 'Stage 1' }] });
    expect(expectJsonError(await call(env, key, 'POST', FUNNELS_API.run(funnel.id)), 400)).toEqual(fieldsError({ non_field_errors: [broken] }));

    // Fixed (another stage chosen): it runs.
    ok(await call(env, key, 'PUT', TIMERS_API.stageWait(funnel.id, stages[0].id), wait(stages[1].id)));
    expect(ok<{ state: string }>(await call(env, key, 'POST', FUNNELS_API.run(funnel.id))).state).toBe('running');
  });

  it("makes a timer for whoever reaches the stage, shown on the person's screen; changing the wait redirects it, clearing cancels it", async () => {
    const key = await user(env);
    const { funnel, stages } = await funnelWithStages(key, 2);
    ok(await call(env, key, 'PUT', TIMERS_API.stageWait(funnel.id, stages[0].id), wait(stages[1].id, { amount: 30, unit: 'minutes', only_if_silent: true })));
    const person = await addPerson(env, funnel.id, { stageId: stages[0].id });
    await env.t.db.orm.insert(stageMoves).values({ funnelId: funnel.id, personId: person.id, toStageId: stages[0].id, via: 'manual' });
    const detail = ok<PersonDetail>(await call(env, key, 'GET', FUNNELS_API.person(person.id)));
    expect(detail.timers).toEqual([{ id: expect.any(Number), stage_id: stages[0].id, to_stage_id: stages[1].id, due_at: expect.any(String), only_if_silent: true }]);
    const dueIn = new Date(detail.timers[0].due_at).getTime() - Date.now();
    expect(dueIn).toBeGreaterThan(29 * 60_000);
    expect(dueIn).toBeLessThanOrEqual(30 * 60_000);

    // Changed: the waiting timer keeps its moment and leads where the wait leads now.
    const third = await addRunnableStage(env, key, funnel.id, { title: 'Stage 3' });
    ok(await call(env, key, 'PUT', TIMERS_API.stageWait(funnel.id, stages[0].id), wait(third.id, { amount: 5, unit: 'days' })));
    expect(ok<PersonDetail>(await call(env, key, 'GET', FUNNELS_API.person(person.id))).timers).toEqual([{ ...detail.timers[0], to_stage_id: third.id, only_if_silent: false }]);

    ok(await call(env, key, 'DELETE', TIMERS_API.stageWait(funnel.id, stages[0].id)));
    expect(ok<PersonDetail>(await call(env, key, 'GET', FUNNELS_API.person(person.id))).timers).toEqual([]);
    const [row] = await env.t.db.orm.select({ state: personTimers.state }).from(personTimers).where(eq(personTimers.personId, person.id));
    expect(row.state).toBe('cancelled');
  });

  it('is kept by copies and by templates, leading to their own stages', async () => {
    const account = await signedInUser(env.t);
    await setRole(env.t.db, account.email, 'admin');
    const { funnel, stages } = await funnelWithStages(account.key, 3);
    ok(await call(env, account.key, 'PUT', TIMERS_API.stageWait(funnel.id, stages[0].id), wait(stages[2].id, { amount: 3, unit: 'days', only_if_silent: true })));
    ok(await call(env, account.key, 'PUT', TIMERS_API.stageWait(funnel.id, stages[1].id), wait(stages[0].id, { amount: 15, unit: 'minutes' })));

    const target = await connectFunnel(env, account.key);
    ok(await call(env, account.key, 'POST', FUNNELS_API.copy(funnel.id), { target_funnel_id: target.id }));
    const copied = ok<Stage[]>(await call(env, account.key, 'GET', FUNNELS_API.stages(target.id)));
    expect(copied.map((s) => s.wait)).toEqual([
      { amount: 3, unit: 'days', to_stage_id: copied[2].id, only_if_silent: true },
      { amount: 15, unit: 'minutes', to_stage_id: copied[0].id, only_if_silent: false },
      null,
    ]);

    const template = ok<Template>(await call(env, account.key, 'POST', TEMPLATES_API.templates, { funnel_id: funnel.id, name: 'Waits' }), 201);
    ok(await call(env, account.key, 'PATCH', TEMPLATES_API.template(template.id), { published: true }));
    const key = await user(env);
    const made = ok<Funnel>(await call(env, key, 'POST', TEMPLATES_API.add(template.id)), 201);
    const madeStages = ok<Stage[]>(await call(env, key, 'GET', FUNNELS_API.stages(made.id)));
    expect(madeStages.map((s) => s.wait)).toEqual([
      { amount: 3, unit: 'days', to_stage_id: madeStages[2].id, only_if_silent: true },
      { amount: 15, unit: 'minutes', to_stage_id: madeStages[0].id, only_if_silent: false },
      null,
    ]);
  });
});
